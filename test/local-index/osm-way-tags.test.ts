import { describe, expect, it } from 'vitest';
import { wayTags } from '../../src/local-index/import/osm-pbf.js';
import { addrTags } from '../../src/local-index/import/osm-rows.js';
import { stateTags } from '../../src/local-index/update/osm-state.js';

describe('wayTags (the import\'s one walk over a way\'s tags)', () => {
  const cases: Record<string, string>[] = [
    {},
    { building: 'yes' },
    { highway: 'residential', name: 'Hauptstraße' },
    { building: 'yes', 'addr:housenumber': '12a', 'addr:street': 'Hauptstraße', 'addr:postcode': '10115', name: 'x' },
    { 'is_in:city': 'Berlin', 'addr:street': 'A "quoted" \\ street\n', building: 'house', 'addr:city': 'Zürich 🏠' },
    { 'addr:housenumber': '1', 'is_in': 'Bayern; Deutschland', '1': 'digits', building: 'yes' },
    // Values JSON writes escaped (controls, a lone surrogate) and those it writes as they are (U+2028, DEL, a pair).
    { 'addr:street': 'Tab\there\u0001', 'addr:city': 'lone \ud800 half', 'addr:place': 'sep\u2028\u007f', 'addr:unit': '\ud83c\udfe0', building: 'yes' },
  ];

  it('writes the same JSON as addrTags and stateTags through JSON.stringify, in the tags\' order', () => {
    for (const tags of cases) {
      expect(wayTags(tags, true)).toEqual([JSON.stringify(addrTags(tags)), JSON.stringify(stateTags(tags))]);
      expect(wayTags(tags, false)).toEqual([JSON.stringify(addrTags(tags)), null]);
    }
  });
});
