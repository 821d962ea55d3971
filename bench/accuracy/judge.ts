import { normalizeHouseNumber, normalizeStreet } from '../../src/address/normalize.js';
import { ResolvedAddress } from '../../src/contract/address.js';
import { ValidateResponse } from '../../src/contract/validate.js';
import { readValidateInput } from '../../src/engine/validate-input.js';
import type { Case } from './kinds.js';

export interface Outcome {
  case: Case;
  /** The answer met the case's expectation. */
  ok: boolean;
  verdict: ValidateResponse['verdict'];
  /** What the answer's postal lines carry (issue 34): its town and its postcode, each written in `address.lines`. */
  lines: LinesCarry;
  /** One line for failure listings. */
  got: string;
}

export interface LinesCarry {
  town: boolean;
  postcode: boolean;
}

/** Whether the answer's `address.lines` write a town and a postcode (the address names them and a line holds them). */
export function linesCarry(r: Pick<ValidateResponse, 'address'>): LinesCarry {
  const a = r.address;
  const written = (value: string | undefined) => Boolean(value?.trim() && a?.lines.some((line) => line.includes(value.trim())));
  return { town: written(a?.city), postcode: written(a?.postcode) };
}

/** The answer names the corpus address itself (street and house number, formatting aside). */
function rightAddress(c: Case, r: ValidateResponse): boolean {
  const a = r.address;
  if (!a?.street || !a.houseNumber) return false;
  const street = (s: string) => normalizeStreet(s, c.country).replace(/\s+/g, '');
  return street(a.street) === street(c.address.street) && normalizeHouseNumber(a.houseNumber) === normalizeHouseNumber(c.address.houseNumber);
}

/**
 * The unit and the text set aside, from the answer once its contract carries them (`address.unit`,
 * `unresolved`: issue 27's answer shaping), until then from the service's own reading of the request.
 */
const ANSWER_HAS_UNIT = 'unit' in ResolvedAddress.shape;
const ANSWER_HAS_UNRESOLVED = 'unresolved' in ValidateResponse.shape;

function unitAndUnresolved(c: Case, r: ValidateResponse): { unit?: string; unresolved: readonly string[] } {
  const answer = r as ValidateResponse & { address: { unit?: string } | null; unresolved?: string[] };
  const read = ANSWER_HAS_UNIT && ANSWER_HAS_UNRESOLVED ? undefined : readValidateInput({ query: c.query, ...(c.requestCountry ? { country: c.requestCountry } : {}) });
  const unit = ANSWER_HAS_UNIT ? answer.address?.unit : read?.input.unit;
  return { ...(unit ? { unit } : {}), unresolved: (ANSWER_HAS_UNRESOLVED ? answer.unresolved : read?.unresolved) ?? [] };
}

export function judge(c: Case, r: ValidateResponse): Outcome {
  const e = c.expect;
  let ok: boolean;
  let extra = '';
  if (e.verdict === 'invalid') ok = r.verdict === 'invalid';
  else if (e.verdict === 'valid') {
    ok = r.verdict === 'valid' && rightAddress(c, r);
    if (e.unit !== undefined || e.unresolved !== undefined) {
      const got = unitAndUnresolved(c, r);
      if (e.unit !== undefined) ok &&= got.unit === e.unit;
      if (e.unresolved !== undefined) ok &&= got.unresolved.includes(e.unresolved) && got.unit === undefined;
      extra = ` unit ${JSON.stringify(got.unit ?? null)} unresolved ${JSON.stringify(got.unresolved)}`;
    }
  }
  else {
    const also = Object.entries(e.also ?? {}) as [keyof typeof r.components, readonly string[]][];
    ok = r.verdict === 'correctable' && rightAddress(c, r) && e.as.includes(r.components[e.field] ?? 'not-checked') && also.every(([f, as]) => as.includes(r.components[f] ?? 'not-checked'));
  }
  const components = Object.entries(r.components).map(([k, v]) => `${k}:${v}`).join(' ');
  const address = r.address ? [r.address.street, r.address.houseNumber, r.address.postcode, r.address.city].filter(Boolean).join(' ') : '-';
  return { case: c, ok, verdict: r.verdict, lines: linesCarry(r), got: `${r.verdict} ${r.confidence} [${components}] → ${address}${extra}` };
}
