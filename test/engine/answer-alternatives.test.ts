import { describe, expect, it } from 'vitest';
import { ALTERNATIVE_MARGIN } from '../../src/engine/alternatives.js';
import { shapeAnswer } from '../../src/engine/answer-shape.js';
import { DEFAULT_THRESHOLDS, type ScoredCandidate } from '../../src/engine/types.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { answeringEngine } from './support/answering-engine.js';

const WEINSTRASSE: ProviderCandidate = {
  components: { street: 'Hauptstraße', houseNumber: '5', postcode: '67433', city: 'Neustadt an der Weinstraße', country: 'DE' },
  location: { lat: 49.3539, lng: 8.1375 },
  precision: 'address',
};
const COBURG: ProviderCandidate = {
  components: { street: 'Hauptstraße', houseNumber: '5', postcode: '96465', city: 'Neustadt bei Coburg', country: 'DE' },
  location: { lat: 50.3297, lng: 11.1205 },
  precision: 'address',
};

describe('alternatives in the validate answer', () => {
  it('two towns with the same street and number, no postcode or town typed: both listed, never valid', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE, COBURG] });
    const answer = await ask({ components: { street: 'Hauptstraße', houseNumber: '5' }, country: 'DE' });
    expect(answer.verdict).not.toBe('valid');
    expect(answer.action).toBe('confirm');
    expect(answer.address?.city).toBe('Neustadt an der Weinstraße');
    expect(answer.alternatives).toEqual([
      {
        address: {
          ...COBURG.components,
          ...COBURG.location,
          lines: ['Hauptstraße 5', '96465 Neustadt bei Coburg'],
          formatted: 'Hauptstraße 5, 96465 Neustadt bei Coburg',
          inferred: [],
        },
        confidence: answer.consensus.baseConfidence,
      },
    ]);
  });

  it('the town typed decides: the other town is no alternative', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE, COBURG] });
    const answer = await ask({ components: { street: 'Hauptstraße', houseNumber: '5', city: 'Neustadt bei Coburg' }, country: 'DE' });
    expect(answer.address?.city).toBe('Neustadt bei Coburg');
    expect(answer.alternatives).toEqual([]);
  });

  it('several providers agreeing on one place (a few metres apart, the town written another way) give none', async () => {
    const nearby = (dLat: number, city: string): ProviderCandidate => ({
      ...WEINSTRASSE,
      components: { ...WEINSTRASSE.components, city },
      location: { lat: WEINSTRASSE.location!.lat + dLat, lng: WEINSTRASSE.location!.lng },
    });
    const ask = answeringEngine({ local: [WEINSTRASSE], photon: [nearby(0.0003, 'Neustadt')], nominatim: [nearby(-0.0002, 'Neustadt an der Weinstraße')] });
    const answer = await ask({ components: { street: 'Hauptstraße', houseNumber: '5', postcode: '67433', city: 'Neustadt an der Weinstraße' }, country: 'DE' });
    expect(answer).toMatchObject({ verdict: 'valid', action: 'accept', alternatives: [] });
  });

  it('a street typed without a number is incomplete, not ambiguous: no alternatives', async () => {
    const ask = answeringEngine({ local: [WEINSTRASSE, COBURG] });
    const answer = await ask({ components: { street: 'Hauptstraße' }, country: 'DE' });
    expect(answer.alternatives).toEqual([]);
  });

  it('lists at most three, best first', async () => {
    const towns = [0, 1, 2, 3, 4].map((i) => ({
      ...COBURG,
      components: { ...COBURG.components, postcode: `9646${i}`, city: `Neustadt ${i}` },
      location: { lat: 50 + i, lng: 11 },
    }));
    const ask = answeringEngine({ local: [WEINSTRASSE, ...towns] });
    const answer = await ask({ components: { street: 'Hauptstraße', houseNumber: '5' }, country: 'DE' });
    expect(answer.alternatives.map((a) => a.address.city)).toEqual(['Neustadt 0', 'Neustadt 1', 'Neustadt 2']);
  });

  describe('shapeAnswer', () => {
    const scored = (c: ProviderCandidate, confidence: number): ScoredCandidate => ({
      ...c,
      provider: 'local',
      confidence,
      componentVerdicts: { street: 'match', houseNumber: 'match', postcode: 'match', city: 'match', country: 'match' },
      reading: WEINSTRASSE.components,
    });
    const shape = (selected: ScoredCandidate, other: ScoredCandidate) =>
      shapeAnswer({ input: WEINSTRASSE.components, country: 'DE', unresolved: [], selected, usable: [selected, other], verdict: 'valid', thresholds: DEFAULT_THRESHOLDS });

    it(`turns a valid house with another place within ${ALTERNATIVE_MARGIN} points into correctable`, () => {
      const answer = shape(scored(WEINSTRASSE, 95), scored(COBURG, 95 - ALTERNATIVE_MARGIN));
      expect(answer).toMatchObject({ verdict: 'correctable', action: 'confirm' });
      expect(answer.alternatives.map((a) => [a.address.city, a.confidence])).toEqual([['Neustadt bei Coburg', 95 - ALTERNATIVE_MARGIN]]);
    });

    it(`leaves it valid when the other place is more than ${ALTERNATIVE_MARGIN} points behind`, () => {
      const answer = shape(scored(WEINSTRASSE, 95), scored(COBURG, 94 - ALTERNATIVE_MARGIN));
      expect(answer).toMatchObject({ verdict: 'valid', action: 'accept', alternatives: [] });
    });
  });
});
