import type { AddressComponents, VerdictField } from '../contract/address.js';
import type { ComponentVerdict, ProviderId } from '../contract/enums.js';
import type { Precision, ProviderCandidate } from '../providers/provider.js';
import { readVerdicts } from './component-verdicts.js';
import type { ScoredCandidate } from './types.js';

/**
 * THE confidence formula (DESIGN §3). For one candidate:
 *
 *   agreement  = Σ weight(field) × credit(verdict) / Σ weight(field)   over fields with a verdict other than `not-checked`
 *   base       = agreement × precisionFactor(candidate.precision)
 *   confidence = round(100 × base)                                      when the provider reports no confidence
 *              = round(100 × ((1 − β) × base + β × providerConfidence)) when it does, β = 0.2
 *
 * Weights: house number 30, street 30, postcode 20, city 15, country 5: the house number and street
 * identify the address, the postcode nearly does, the city and country only narrow it down.
 * Credits: match 1, corrected 0.7 (same thing, written differently), mismatch 0, missing 0.5 (the result
 * completed what the input left out: no evidence either way), except a missing house number, 0: a result
 * that picks a house number the input never gave is not evidence of anything. `not-checked` is left
 * out of both sums: the result cannot confirm or deny it (the verdict rules catch an unconfirmed house
 * number). When no field was compared at all (only missing / not-checked) the agreement is 0:
 * there is nothing of the input for the result to agree with.
 * The city counts as given in any of the places the result names (placeNames), and the standardized
 * address then names the one the person wrote.
 * Precision: an address point 1.0, a street 0.75, a postcode area 0.6, a locality 0.45, a region 0.25,
 * a country 0.1, so that a perfectly matching street or town cannot reach the valid threshold (80).
 */
export const FIELD_WEIGHTS: Readonly<Record<VerdictField, number>> = {
  houseNumber: 30,
  street: 30,
  postcode: 20,
  city: 15,
  country: 5,
};

export const VERDICT_CREDIT: Readonly<Record<Exclude<ComponentVerdict, 'not-checked'>, number>> = {
  match: 1,
  corrected: 0.7,
  missing: 0.5,
  mismatch: 0,
};
/** A house number the input lacked earns nothing when the result supplies one. */
export const MISSING_HOUSE_NUMBER_CREDIT = 0;

export const PRECISION_FACTOR: Readonly<Record<Precision, number>> = {
  address: 1,
  street: 0.75,
  postcode: 0.6,
  locality: 0.45,
  region: 0.25,
  country: 0.1,
};

/** Share of the provider's own confidence in the blend. */
export const PROVIDER_CONFIDENCE_WEIGHT = 0.2;

export function scoreCandidate(
  input: AddressComponents,
  candidate: ProviderCandidate & { provider: ProviderId },
  ctx: { country?: string },
): ScoredCandidate {
  const country = ctx.country ?? input.country ?? candidate.components.country;
  const known = { houseNumber: candidate.houseNumbersKnown, postcode: candidate.postcodesKnown };
  const { verdicts, namedPlace, completed } = readVerdicts(input, candidate.components, country, candidate.placeNames, known, candidate.inferred);
  // The person wrote another of the result's places (its municipality, not its village): keep theirs.
  const components = namedPlace ? { ...candidate.components, city: namedPlace } : candidate.components;
  let weighted = 0;
  let total = 0;
  let compared = false;
  for (const [field, verdict] of Object.entries(verdicts) as [VerdictField, ComponentVerdict][]) {
    if (verdict === 'not-checked') continue;
    compared ||= verdict !== 'missing';
    const credit = verdict === 'missing' && field === 'houseNumber' ? MISSING_HOUSE_NUMBER_CREDIT : VERDICT_CREDIT[verdict];
    weighted += FIELD_WEIGHTS[field] * credit;
    total += FIELD_WEIGHTS[field];
  }
  // Derived parts the input lacked weigh as `missing` would, without the verdict (component-verdicts.ts).
  for (const field of completed) {
    weighted += FIELD_WEIGHTS[field] * VERDICT_CREDIT.missing;
    total += FIELD_WEIGHTS[field];
  }
  const agreement = compared && total > 0 ? weighted / total : 0;
  const base = agreement * PRECISION_FACTOR[candidate.precision];
  const pc = candidate.providerConfidence;
  const blended = pc === undefined ? base : (1 - PROVIDER_CONFIDENCE_WEIGHT) * base + PROVIDER_CONFIDENCE_WEIGHT * clamp01(pc);
  return { ...candidate, components, confidence: Math.round(100 * blended), componentVerdicts: verdicts, reading: input };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
