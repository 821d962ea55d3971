import { normalizeHouseNumber, normalizeStreet } from '../../src/address/normalize.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import type { Case } from './kinds.js';

export interface Outcome {
  case: Case;
  /** The answer met the case's expectation. */
  ok: boolean;
  verdict: ValidateResponse['verdict'];
  /** One line for failure listings. */
  got: string;
}

/** The answer names the corpus address itself (street and house number, formatting aside). */
function rightAddress(c: Case, r: ValidateResponse): boolean {
  const a = r.address;
  if (!a?.street || !a.houseNumber) return false;
  const street = (s: string) => normalizeStreet(s, c.country).replace(/\s+/g, '');
  return street(a.street) === street(c.address.street) && normalizeHouseNumber(a.houseNumber) === normalizeHouseNumber(c.address.houseNumber);
}

export function judge(c: Case, r: ValidateResponse): Outcome {
  const e = c.expect;
  let ok: boolean;
  if (e.verdict === 'invalid') ok = r.verdict === 'invalid';
  else if (e.verdict === 'valid') ok = r.verdict === 'valid' && rightAddress(c, r);
  else {
    const also = Object.entries(e.also ?? {}) as [keyof typeof r.components, readonly string[]][];
    ok = r.verdict === 'correctable' && rightAddress(c, r) && e.as.includes(r.components[e.field] ?? 'not-checked') && also.every(([f, as]) => as.includes(r.components[f] ?? 'not-checked'));
  }
  const components = Object.entries(r.components).map(([k, v]) => `${k}:${v}`).join(' ');
  const address = r.address ? [r.address.street, r.address.houseNumber, r.address.postcode, r.address.city].filter(Boolean).join(' ') : '-';
  return { case: c, ok, verdict: r.verdict, got: `${r.verdict} ${r.confidence} [${components}] → ${address}` };
}
