import { describe, expect, it } from 'vitest';
import { AddressKeyer } from '../../src/local-index/import/address-keys.js';
import type { RawAddress } from '../../src/local-index/types.js';

describe('AddressKeyer (the last row\'s street reused)', () => {
  const row = (over: Partial<RawAddress>): RawAddress => ({ street: 'Hauptstraße', houseNumber: '1', lat: 52.5, lng: 13.4, ...over });
  const street = (k: ReturnType<AddressKeyer['key']>) => (typeof k === 'string' ? k : k.street);

  it('gives each row the street of its own fields, whatever the row before it', () => {
    const keyer = new AddressKeyer();
    const rows = [
      row({ city: 'Berlin' }),
      row({ city: 'Berlin', houseNumber: '2' }),
      row({ city: 'Potsdam' }),
      row({}),
      row({ municipality: 'Potsdam' }),
      row({ city: 'Berlin', municipality: 'Potsdam' }),
      row({ street: 'Lindenweg', city: 'Berlin' }),
      row({ city: 'Berlin' }),
    ];
    const seen = rows.map((r) => street(keyer.key(r, 'DE')));
    const alone = rows.map((r) => street(new AddressKeyer().key(r, 'DE')));
    expect(seen).toEqual(alone);
    expect(new Set(alone.map((s) => (typeof s === 'string' ? s : s.key))).size).toBe(6);
    expect(street(keyer.key(row({ city: 'Berlin' }), 'AT'))).toEqual(street(new AddressKeyer().key(row({ city: 'Berlin' }), 'AT')));
  });
});
