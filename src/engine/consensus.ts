import { COMPONENT_FIELDS, type GeoPoint } from '../contract/address.js';
import type { ConsensusStatus } from '../contract/enums.js';
import type { ConsensusDifference, ConsensusReport, ProviderDisagreement } from '../contract/validate.js';
import { compareComponent } from '../address/compare.js';
import { distanceMeters } from './geo-distance.js';
import type { ScoredCandidate } from './types.js';

/**
 * THE consensus rules (DESIGN §4).
 *
 * - Each provider is represented by its best candidate (highest confidence; the earlier result on a tie).
 * - Two candidates agree when every component both carry matches after normalization (compareComponent
 *   gives `match`; `corrected` is a difference) and, when both have a location, they lie within
 *   AGREEMENT_RADIUS_M (25 m, haversine). A missing location is not compared.
 * - Selection: highest base confidence; ties go to more support (other providers agreeing), then,
 *   given the customer's position (`near`, issue 35), to the nearer candidate, then to provider order.
 *   Within a provider too, `near` picks between candidates of equal confidence. It never moves a confidence.
 * - supporting = providers whose best candidate agrees with the selected one, the selected provider
 *   included; conflicting = the other participating providers (those with at least one candidate).
 *   score = round(100 × supporting / participating), null when fewer than two participate.
 * - status: none participate → unavailable; one → single-provider; no conflict → agreement; another
 *   provider supports and another conflicts → partial-agreement; no other provider supports → disagreement.
 * - confidenceDelta (the curve): with `others` = participating − 1 and each other provider weighted by
 *   w = its candidate's confidence / 100,
 *     reward  = 10 × (Σ w of supporting others / others) × min(1, supportingOthers / 2)
 *     penalty = 20 × (Σ w of conflicting others / others) × min(1, conflictingOthers / 2)
 *     delta   = round(reward − penalty), in [−20, +10]
 *   so one confirming provider adds up to +5 and two or more up to +10; one confident contradiction
 *   takes up to −10 and two or more up to −20; a weak (low-confidence) contradiction costs little.
 * - confidence = clamp(baseConfidence + confidenceDelta, 0, 100).
 * - disagreements: each conflicting provider, its candidate's confidence, and every differing field
 *   (`selected`/`alternative` values); a location beyond 25 m carries distanceMeters rounded to 0.1 m,
 *   with both points as "lat,lng" strings.
 */
export const AGREEMENT_RADIUS_M = 25;
export const MAX_REWARD = 10;
export const MAX_PENALTY = 20;

export function buildConsensus(candidates: ScoredCandidate[], near?: GeoPoint): {
  selected: ScoredCandidate | null;
  consensus: ConsensusReport;
  confidence: number;
} {
  const away = (c: ScoredCandidate | undefined) => (near && c?.location ? distanceMeters(near, c.location) : Infinity);
  const bests = bestPerProvider(candidates, near ? (a, b) => away(a) < away(b) : () => false);
  if (bests.length === 0) return { selected: null, consensus: emptyReport(), confidence: 0 };

  const support = bests.map((c, i) => bests.filter((o, j) => j !== i && agree(c, o)).length);
  let pick = 0;
  for (let i = 1; i < bests.length; i++) {
    const better = (bests[i]?.confidence ?? 0) - (bests[pick]?.confidence ?? 0);
    const backed = (support[i] ?? 0) - (support[pick] ?? 0);
    if (better > 0 || (better === 0 && (backed > 0 || (backed === 0 && away(bests[i]) < away(bests[pick]))))) pick = i;
  }
  const selected = bests[pick] as ScoredCandidate;
  const others = bests.filter((_, i) => i !== pick);
  const supportingOthers = others.filter((o) => agree(selected, o));
  const conflicting = others.filter((o) => !supportingOthers.includes(o));

  const participating = bests.length;
  const delta = confidenceDelta(supportingOthers, conflicting, others.length);
  const consensus: ConsensusReport = {
    status: status(participating, supportingOthers.length, conflicting.length),
    score: participating < 2 ? null : Math.round((100 * (supportingOthers.length + 1)) / participating),
    baseConfidence: selected.confidence,
    confidenceDelta: delta,
    supportingProviders: [selected.provider, ...supportingOthers.map((c) => c.provider)],
    conflictingProviders: conflicting.map((c) => c.provider),
    disagreements: conflicting.map((c) => disagreement(selected, c)),
  };
  return { selected, consensus, confidence: clamp(selected.confidence + delta, 0, 100) };
}

function bestPerProvider(candidates: readonly ScoredCandidate[], nearer: (a: ScoredCandidate, b: ScoredCandidate) => boolean): ScoredCandidate[] {
  const best = new Map<string, ScoredCandidate>();
  for (const c of candidates) {
    const current = best.get(c.provider);
    if (!current || c.confidence > current.confidence || (c.confidence === current.confidence && nearer(c, current))) best.set(c.provider, c);
  }
  return [...best.values()];
}

/** The differing fields of two candidates; empty means they agree. */
export function differences(selected: ScoredCandidate, other: ScoredCandidate): ConsensusDifference[] {
  const out: ConsensusDifference[] = [];
  const country = selected.components.country ?? other.components.country;
  for (const field of COMPONENT_FIELDS) {
    const a = selected.components[field];
    const b = other.components[field];
    if (a && b && compareComponent(field, a, b, country) !== 'match') out.push({ field, selected: a, alternative: b });
  }
  if (selected.location && other.location) {
    const meters = distanceMeters(selected.location, other.location);
    if (meters > AGREEMENT_RADIUS_M) {
      out.push({
        field: 'location',
        selected: point(selected.location),
        alternative: point(other.location),
        distanceMeters: Math.round(meters * 10) / 10,
      });
    }
  }
  return out;
}

export function agree(a: ScoredCandidate, b: ScoredCandidate): boolean {
  return differences(a, b).length === 0;
}

function disagreement(selected: ScoredCandidate, other: ScoredCandidate): ProviderDisagreement {
  return { provider: other.provider, confidence: other.confidence, differences: differences(selected, other) };
}

function confidenceDelta(supporting: readonly ScoredCandidate[], conflicting: readonly ScoredCandidate[], others: number): number {
  if (others === 0) return 0;
  const weight = (list: readonly ScoredCandidate[]) => list.reduce((sum, c) => sum + c.confidence / 100, 0) / others;
  const reward = MAX_REWARD * weight(supporting) * Math.min(1, supporting.length / 2);
  const penalty = MAX_PENALTY * weight(conflicting) * Math.min(1, conflicting.length / 2);
  return Math.round(reward - penalty) + 0; // + 0 turns −0 into 0
}

function status(participating: number, supportingOthers: number, conflicting: number): ConsensusStatus {
  if (participating === 0) return 'unavailable';
  if (participating === 1) return 'single-provider';
  if (conflicting === 0) return 'agreement';
  return supportingOthers > 0 ? 'partial-agreement' : 'disagreement';
}

function emptyReport(): ConsensusReport {
  return {
    status: 'unavailable',
    score: null,
    baseConfidence: 0,
    confidenceDelta: 0,
    supportingProviders: [],
    conflictingProviders: [],
    disagreements: [],
  };
}

function point(p: { lat: number; lng: number }): string {
  return `${p.lat},${p.lng}`;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
