import type { AddressComponents } from '../contract/address.js';
import type { TextMatch } from '../contract/autocomplete.js';
import type { WidgetSuggestion } from './types.js';

// Hand-written twin of the contract's WidgetAutocompleteResponse schema: Zod would take most of the
// 10 KB budget. test/widget/response-guard.test.ts checks it agrees with the Zod schema.
const ADDRESS_KEYS = ['street', 'houseNumber', 'unit', 'postcode', 'city', 'state', 'country'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const TYPES = ['address', 'street', 'postcode', 'locality'] as const;
const isType = (v: unknown): v is (typeof TYPES)[number] => TYPES.includes(v as (typeof TYPES)[number]);
const isCount = (v: unknown, min: number): v is number => Number.isInteger(v) && (v as number) >= min;

/** `[{offset, length}]`, only those keys; null for anything else. */
function toMatches(v: unknown): TextMatch[] | null {
  if (!Array.isArray(v)) return null;
  const out: TextMatch[] = [];
  for (const m of v) {
    if (!isRecord(m) || !isCount(m.offset, 0) || !isCount(m.length, 1)) return null;
    out.push({ offset: m.offset, length: m.length });
  }
  return out;
}

function toAddress(v: unknown): AddressComponents | null {
  if (!isRecord(v)) return null;
  const out: AddressComponents = {};
  for (const key of ADDRESS_KEYS) {
    const value = v[key];
    if (value === undefined) continue;
    if (!isText(value) || value === '') return null;
    out[key] = value;
  }
  return out;
}

function toSuggestion(v: unknown): WidgetSuggestion | null {
  if (!isRecord(v)) return null;
  const { id, label, provider, type } = v;
  const address = toAddress(v.address);
  const matches = toMatches(v.matches);
  if (!isText(id) || !id.startsWith('svc_s_') || !isText(label) || !isText(provider) || !address || !isType(type) || !matches) return null;
  // An action this widget does not know is left out: the suggestion is still an address.
  return { id, label, provider, address, type, matches, ...(v.action === 'add_unit' ? { action: v.action } : {}) };
}

/** The usable suggestions of a widget response; malformed items are dropped, a malformed body gives null. */
export function parseSuggestions(body: unknown): WidgetSuggestion[] | null {
  if (!isRecord(body) || !Array.isArray(body.suggestions)) return null;
  const out: WidgetSuggestion[] = [];
  for (const item of body.suggestions) {
    const s = toSuggestion(item);
    if (s) out.push(s);
  }
  return out;
}
