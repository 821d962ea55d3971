import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/local-index/search/plan.js';
import { byScore, dedupe, scoredAddresses, shownAddresses } from '../../src/local-index/search/results.js';
import { scoreStreet } from '../../src/local-index/search/score.js';
import type { RankedStreet } from '../../src/local-index/search/streets.js';
import type { AddressHit, StreetHit } from '../../src/local-index/store/store.js';

/**
 * shownAddresses makes hits of the shown addresses only; what it answers must be what making every
 * address a hit, ordering, merging the objects of one house and cutting at the limit answers.
 */
const street = (id: number, name: string, city: string, postcode: string | null, lat: number): StreetHit => ({
  id,
  country: 'DE',
  street: name,
  city,
  municipality: null,
  state: null,
  postcode,
  n: 10,
  lat,
  lng: 9,
  streetWords: name.toLowerCase().split(' '),
  cityWords: [city.toLowerCase()],
});

const main = street(1, 'Hauptstrasse', 'Triesen', '9495', 47.1);
const twin = street(2, 'Hauptstrasse', 'Triesen', '9495', 47.1); // a second piece of the same street: same labels
const far = street(3, 'Hauptstrasse', 'Vaduz', null, 47.3);
const other = street(4, 'Hauptweg', 'Balzers', '9496', 47.0);

const at = (s: StreetHit, hn: string, extra: Partial<AddressHit> = {}): AddressHit => ({
  street: s,
  hn,
  hnKey: hn.toLowerCase(),
  postcode: null,
  lat: s.lat + Number.parseInt(hn, 10) / 1000,
  lng: 9,
  ...extra,
});

const plan = (near?: { lat: number; lng: number }): Plan => ({
  words: [{ typed: 'hauptstr', alts: [{ word: 'hauptstr', prefix: true }], fuzzy: false }],
  cityWords: [],
  hn: { key: '1', base: 1, prefix: true },
  country: 'DE',
  drill: false,
  structured: false,
  ...(near ? { near } : {}),
});

// Houses of several objects (units, partial units, an interpolated and a mapped one, derived
// components), some of them after the limit's last new label: merged into a shown house all the same.
const hits: AddressHit[] = [
  at(main, '1', { units: ['1', '2'] }),
  at(far, '12'),
  at(main, '10', { interpolated: true, inferred: ['postcode'] }),
  at(other, '1'),
  at(main, '14'),
  at(main, '15'),
  at(far, '1', { units: ['A'], unitsPartial: true }),
  at(main, '16'),
  at(twin, '1', { units: ['3'], inferred: ['city'] }),
  at(twin, '10', { lat: 47.2 }),
  at(far, '1', { units: ['B'], unitsPartial: true }),
  at(main, '17'),
  at(other, '11', { postcode: '9497' }),
  at(twin, '14', { interpolated: true }),
];

const ranked = (p: Plan): RankedStreet[] => [main, far].map((s) => ({ street: s, ...scoreStreet(p, s) }));

describe('shownAddresses', () => {
  for (const near of [undefined, { lat: 47.3, lng: 9 }]) {
    for (const limit of [1, 2, 3, 5, 20]) {
      it(`answers as every hit made, ordered, deduplicated and cut (limit ${limit}${near ? ', near' : ''})`, () => {
        const p = plan(near);
        const all = dedupe(byScore(scoredAddresses(p, hits, ranked(p)), p.near)).slice(0, limit);
        expect(shownAddresses(p, hits, ranked(p), limit)).toEqual(all);
      });
    }
  }

  it('merges a later object of a shown house', () => {
    const p = plan();
    const shown = shownAddresses(p, hits, ranked(p), 1);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.label).toBe('Hauptstrasse 1, 9495 Triesen');
    expect(shown[0]!.units).toEqual(['1', '2', '3']);
  });
});
