import type { KeptTyping } from './typed-extras.js';
import type { FieldElement, FieldName, FieldTarget, WidgetSuggestion } from './types.js';

export type FieldMap = Map<FieldName, FieldElement>;

// HTML autofill field names (WHATWG "autofill detail tokens") → our fields. Street and house number
// have no standard token of their own, so they come from the explicit mapping.
const AUTOFILL: Record<string, FieldName> = {
  'street-address': 'line1',
  'address-line1': 'line1',
  'address-line2': 'line2',
  'postal-code': 'postcode',
  'address-level2': 'city',
  'address-level1': 'state',
  country: 'country',
  'country-name': 'countryName',
};

const isField = (el: Element | null): el is FieldElement =>
  el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/** `shipping`/`billing`/`section-*` tokens: a form with two addresses fills only the input's own one. */
const sectionOf = (tokens: string[]) => tokens.filter((t) => t.startsWith('section-') || t === 'shipping' || t === 'billing').join(' ');
const tokensOf = (el: Element) => (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/).filter(Boolean);

interface Candidate {
  el: FieldElement;
  name: FieldName;
  section: string;
}

/**
 * The section to fill: the input's own; when it has none (`autocomplete="off"`, as a search box has),
 * the form's: unsectioned fields if there are any, else the section of the first field after the input
 * (a search box above the shipping address fills that one, not the billing address below it).
 */
function sectionFor(input: HTMLInputElement, found: Candidate[]): string {
  const own = sectionOf(tokensOf(input));
  if (own || found.length === 0 || found.some((c) => c.section === '')) return own;
  const after = found.find((c) => input.compareDocumentPosition(c.el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return (after ?? (found[0] as Candidate)).section;
}

/** Resolves the fields to fill: the explicit mapping first, then `autocomplete` attributes in the input's form. */
export function discoverFields(
  input: HTMLInputElement,
  mapping: Partial<Record<FieldName, FieldTarget>> = {},
  auto = true,
): FieldMap {
  const map: FieldMap = new Map();
  for (const [name, target] of Object.entries(mapping) as [FieldName, FieldTarget][]) {
    const el = typeof target === 'string' ? document.querySelector(target) : target;
    if (isField(el)) map.set(name, el);
  }
  if (!auto) return map;
  const mapped = new Set(map.values());
  const found: Candidate[] = [];
  for (const el of (input.form ?? document).querySelectorAll('input,select,textarea')) {
    if (!isField(el) || el === input || mapped.has(el)) continue;
    const tokens = tokensOf(el);
    // `data-addressd-field` names a field no autocomplete token has (the unit).
    const name = (el.getAttribute('data-addressd-field') as FieldName | null) ?? AUTOFILL[tokens[tokens.length - 1] ?? ''];
    if (name) found.push({ el, name, section: sectionOf(tokens) });
  }
  const section = sectionFor(input, found);
  // The input itself may be the street line (`autocomplete="address-line1"`): it is filled by the widget's own value.
  const ownName = AUTOFILL[tokensOf(input).at(-1) ?? ''];
  if (ownName && !map.has(ownName)) map.set(ownName, input);
  for (const c of found) if (!map.has(c.name) && c.section === section) map.set(c.name, c.el);
  return map;
}

const LOOKED_FOR = [...Object.keys(AUTOFILL).map((t) => `autocomplete="${t}"`), 'data-addressd-field'].join(', ');

/**
 * Why nothing will be filled, for one console warning: mapped selectors that match no field, or a form
 * in which nothing could be mapped. Undefined when the widget found what it needs (or the page has no
 * form and no mapping: it listens to the `select` event instead).
 */
export function unmappedWarning(
  input: HTMLInputElement,
  mapping: Partial<Record<FieldName, FieldTarget>> = {},
  fields: FieldMap,
  auto = true,
): string | undefined {
  const missing = Object.entries(mapping)
    .filter(([name]) => !fields.has(name as FieldName))
    .map(([name, target]) => `${name}: ${typeof target === 'string' ? target : 'element'}`);
  if (missing.length) return `[address widget] these fields were not found, so they stay empty: ${missing.join(', ')}`;
  const fills = [...fields.values()].some((el) => el !== input);
  if (fills || !input.form) return undefined;
  const lookedFor = auto ? `the fields option, ${LOOKED_FOR} (with the form's shipping, billing or section-* token)` : 'the fields option (autoFields is off)';
  return `[address widget] found no address fields to fill in this form: looked for ${lookedFor}. Only the select event carries the address.`;
}

function countryName(code: string): string | undefined {
  try {
    return new Intl.DisplayNames([document.documentElement.lang || navigator.language, 'en'], { type: 'region' }).of(code);
  } catch {
    return undefined;
  }
}

/** The value each field gets; undefined means "the suggestion lacks it: leave what the user has". */
export function fieldValues(s: WidgetSuggestion, kept: KeptTyping, fields: FieldMap): Record<FieldName, string | undefined> {
  const a = s.address;
  // The unit the service read from the typing, else what the user typed beyond the suggestion.
  const unit = a.unit || kept.extra;
  const ownField = fields.has('line2') || fields.has('unit');
  return {
    street: a.street,
    houseNumber: kept.houseNumber,
    line1: ownField || !unit ? kept.line1 : kept.line1WithUnit,
    // A form with a unit field of its own keeps line 2 for what else the user writes there.
    line2: fields.has('unit') ? undefined : unit || undefined,
    unit: unit || undefined,
    postcode: a.postcode,
    city: a.city,
    state: a.state,
    country: a.country,
    countryName: a.country && countryName(a.country),
  };
}

/** Writes the values and tells frameworks about it; the combobox input itself is left to the caller. */
export function fillFields(fields: FieldMap, values: Record<FieldName, string | undefined>, input: HTMLInputElement): void {
  for (const [name, el] of fields) {
    const value = values[name];
    if (!value || el === input) continue;
    if (el instanceof HTMLSelectElement) {
      // A country <select> may key its options by code or by name.
      const wants = [value, name === 'country' ? values.countryName : undefined].map((v) => v?.toLowerCase());
      const option = Array.from(el.options).find((o) => wants.includes(o.value.toLowerCase()) || wants.includes(o.text.toLowerCase()));
      if (!option) continue;
      el.value = option.value;
    } else {
      el.value = value;
    }
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}
