import { describe, expect, it } from 'vitest';
import type { AddressComponents } from '../../src/contract/address.js';
import type { ProviderId } from '../../src/contract/enums.js';
import { ConsensusReport } from '../../src/contract/validate.js';
import { buildConsensus } from '../../src/engine/consensus.js';
import type { ScoredCandidate } from '../../src/engine/types.js';

const DAM = { lat: 52.3731, lng: 4.8926 };
/** Metres → degrees of latitude (1° ≈ 111 195 m on the mean sphere). */
const north = (meters: number) => ({ lat: DAM.lat + meters / 111_195, lng: DAM.lng });
const damrak: AddressComponents = { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' };

function cand(provider: ProviderId, confidence: number, components: AddressComponents = damrak, location = DAM): ScoredCandidate {
  return { provider, confidence, components, location, precision: 'address', componentVerdicts: {}, reading: damrak };
}

describe('buildConsensus', () => {
  it('unavailable: no candidates → no selection, confidence 0', () => {
    const out = buildConsensus([]);
    expect(out.selected).toBeNull();
    expect(out.confidence).toBe(0);
    expect(out.consensus).toEqual({
      status: 'unavailable', score: null, baseConfidence: 0, confidenceDelta: 0,
      supportingProviders: [], conflictingProviders: [], disagreements: [],
    });
  });

  it('single-provider: best of its candidates, score null, no delta', () => {
    const weaker = cand('pdok', 60, { ...damrak, houseNumber: '3' });
    const best = cand('pdok', 92);
    const out = buildConsensus([weaker, best]);
    expect(out.selected).toBe(best);
    expect(out.consensus).toMatchObject({ status: 'single-provider', score: null, baseConfidence: 92, confidenceDelta: 0, supportingProviders: ['pdok'], conflictingProviders: [] });
    expect(out.confidence).toBe(92);
  });

  it('agreement of three: formatting differences and 10 m still agree', () => {
    const out = buildConsensus([
      cand('pdok', 85),
      cand('photon', 100, { street: 'DAMRAK', houseNumber: '1', postcode: '1012lg', city: 'Amsterdam' }, north(10)),
      cand('nominatim', 100, { street: 'Damrak', houseNumber: '1', city: 'amsterdam', country: 'nl' }, north(-8)),
    ]);
    expect(out.selected?.provider).toBe('photon');
    // reward = 10 × ((0.85 + 1.0) / 2) × min(1, 2/2) = 9.25 → 9
    expect(out.consensus).toMatchObject({ status: 'agreement', score: 100, baseConfidence: 100, confidenceDelta: 9, conflictingProviders: [], disagreements: [] });
    expect(out.consensus.supportingProviders).toEqual(['photon', 'pdok', 'nominatim']);
    expect(out.confidence).toBe(100); // clamped
  });

  it('full agreement of confident providers gives the maximum +10', () => {
    const out = buildConsensus([cand('pdok', 100), cand('photon', 100), cand('nominatim', 100), cand('local', 100)]);
    expect(out.consensus).toMatchObject({ status: 'agreement', score: 100, confidenceDelta: 10 });
  });

  it('agreement of two: one confirming provider adds at most +5, weighted by its confidence', () => {
    const out = buildConsensus([cand('pdok', 90), cand('photon', 80, { ...damrak, street: 'Damrak' })]);
    // reward = 10 × 0.8 × min(1, 1/2) = 4
    expect(out.consensus).toMatchObject({ status: 'agreement', score: 100, confidenceDelta: 4 });
    expect(out.confidence).toBe(94);
  });

  it('partial-agreement: one supports, one conflicts', () => {
    const out = buildConsensus([
      cand('pdok', 95),
      cand('photon', 90, damrak, north(5)),
      cand('nominatim', 60, { ...damrak, street: 'Rokin' }, north(5)),
    ]);
    // reward = 10 × (0.9 / 2) × 0.5 = 2.25; penalty = 20 × (0.6 / 2) × 0.5 = 3 → round(−0.75) = −1
    expect(out.consensus).toMatchObject({
      status: 'partial-agreement', score: 67, baseConfidence: 95, confidenceDelta: -1,
      supportingProviders: ['pdok', 'photon'], conflictingProviders: ['nominatim'],
    });
    expect(out.consensus.disagreements).toEqual([
      { provider: 'nominatim', confidence: 60, differences: [{ field: 'street', selected: 'Damrak', alternative: 'Rokin' }] },
    ]);
    expect(out.confidence).toBe(94);
  });

  it('disagreement: no other provider supports; lists every differing field', () => {
    const out = buildConsensus([cand('pdok', 90), cand('photon', 80, { ...damrak, houseNumber: '3', postcode: '1012 JS' }, north(5))]);
    // penalty = 20 × 0.8 × 0.5 = 8
    expect(out.consensus).toMatchObject({ status: 'disagreement', score: 50, confidenceDelta: -8, supportingProviders: ['pdok'], conflictingProviders: ['photon'] });
    expect(out.consensus.disagreements[0]?.differences).toEqual([
      { field: 'houseNumber', selected: '1', alternative: '3' },
      { field: 'postcode', selected: '1012 LG', alternative: '1012 JS' },
    ]);
    expect(out.confidence).toBe(82);
  });

  it('two confident contradictions cost the full −20', () => {
    const out = buildConsensus([
      cand('pdok', 100),
      cand('photon', 100, { ...damrak, houseNumber: '5' }),
      cand('nominatim', 100, { ...damrak, houseNumber: '7' }),
    ]);
    expect(out.selected?.provider).toBe('pdok');
    // penalty = 20 × ((1 + 1) / 2) × min(1, 2/2) = 20
    expect(out.consensus).toMatchObject({ status: 'disagreement', score: 33, confidenceDelta: -20 });
    expect(out.confidence).toBe(80);
  });

  it('a weak contradiction costs little', () => {
    const out = buildConsensus([cand('pdok', 95), cand('photon', 10, { street: 'Elders' }, north(3000))]);
    // penalty = 20 × 0.1 × 0.5 = 1
    expect(out.consensus).toMatchObject({ status: 'disagreement', confidenceDelta: -1 });
  });

  it('locations 40 m apart disagree and carry distanceMeters ≈ 40', () => {
    const out = buildConsensus([cand('pdok', 90), cand('photon', 85, damrak, north(40))]);
    expect(out.consensus.status).toBe('disagreement');
    const diff = out.consensus.disagreements[0]?.differences;
    expect(diff).toHaveLength(1);
    expect(diff?.[0]?.field).toBe('location');
    expect(diff?.[0]?.distanceMeters).toBeCloseTo(40, 0);
    expect(Number.isInteger((diff?.[0]?.distanceMeters ?? 0) * 10)).toBe(true); // rounded to 0.1 m
  });

  it('locations 24 m apart agree (25 m window)', () => {
    expect(buildConsensus([cand('pdok', 90), cand('photon', 85, damrak, north(24))]).consensus.status).toBe('agreement');
    expect(buildConsensus([cand('pdok', 90), cand('photon', 85, damrak, north(26))]).consensus.status).toBe('disagreement');
  });

  it('a component only one side carries is not a difference', () => {
    const out = buildConsensus([cand('pdok', 90), cand('photon', 70, { street: 'Damrak', houseNumber: '1' })]);
    expect(out.consensus.status).toBe('agreement');
  });

  it('a corrected-level difference (typo) is a disagreement', () => {
    const out = buildConsensus([cand('pdok', 90), cand('photon', 70, { ...damrak, street: 'Damrk' })]);
    expect(out.consensus.status).toBe('disagreement');
  });

  it('ties in confidence go to the candidate with more support', () => {
    const rokin = { ...damrak, street: 'Rokin' };
    const out = buildConsensus([cand('pdok', 90, rokin), cand('photon', 90), cand('local', 70)]);
    expect(out.selected?.provider).toBe('photon');
    expect(out.consensus.supportingProviders).toEqual(['photon', 'local']);
    expect(out.consensus.conflictingProviders).toEqual(['pdok']);
  });

  it('equal confidence and equal support: the earlier provider wins', () => {
    const out = buildConsensus([cand('pdok', 90, { ...damrak, street: 'Rokin' }), cand('photon', 90)]);
    expect(out.selected?.provider).toBe('pdok');
  });

  it('each provider is represented by its best candidate only', () => {
    const out = buildConsensus([
      cand('pdok', 95),
      cand('photon', 70, damrak), // agrees, but is not photon's best
      cand('photon', 80, { ...damrak, houseNumber: '9' }),
    ]);
    expect(out.consensus.conflictingProviders).toEqual(['photon']);
    expect(out.consensus.disagreements[0]?.confidence).toBe(80);
  });

  it('always returns a report that satisfies the contract schema', () => {
    const cases = [
      [],
      [cand('pdok', 90)],
      [cand('pdok', 90), cand('photon', 85, damrak, north(400))],
      [cand('pdok', 3), cand('photon', 2, { street: 'Elders' }), cand('nominatim', 1, { street: 'Anders' })],
    ];
    for (const c of cases) {
      const { consensus, confidence } = buildConsensus(c);
      expect(ConsensusReport.safeParse(consensus).success).toBe(true);
      expect(consensus.confidenceDelta).toBeGreaterThanOrEqual(-20);
      expect(consensus.confidenceDelta).toBeLessThanOrEqual(10);
      expect(confidence).toBe(Math.min(100, Math.max(0, consensus.baseConfidence + consensus.confidenceDelta)));
    }
  });
});
