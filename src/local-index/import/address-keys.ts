import { normalizeCity, normalizeStreet } from '../../address/normalize.js';
import type { StreetInput } from '../store/store.js';
import { cityTokens, displayPostcode, houseNumberBase, houseNumberKey, postcodeKey, streetTokens, tokens } from '../text.js';
import type { RawAddress } from '../types.js';

export interface KeyedAddress {
  /** Identity within a file: the OSM element, else street + city + house number. */
  identity: string;
  sourceId: string | null;
  street: StreetInput;
  hn: string;
  hnKey: string;
  hnBase: number | null;
  postcode: string | null;
  pcKey: string | null;
  lat: number;
  lng: number;
}

/**
 * Turns a checked address into index keys. Street and city normalization is memoised:
 * an import repeats the same few thousand street names a million times. The memo is
 * cleared when it grows large, so memory stays bounded on any file.
 */
export class AddressKeyer {
  private readonly streets = new Map<string, { key: string; words: string }>();
  private readonly cities = new Map<string, { key: string; words: string }>();
  private readonly streetInputs = new Map<string, StreetInput>();

  private memo(map: Map<string, { key: string; words: string }>, raw: string, make: () => { key: string; words: string }) {
    let v = map.get(raw);
    if (!v) {
      if (map.size > 200_000) map.clear();
      map.set(raw, (v = make()));
    }
    return v;
  }

  /** Returns the keyed address, or undefined when the street or number has no usable token. */
  key(a: RawAddress, country: string): KeyedAddress | 'missing_street' | 'missing_house_number' {
    const s = this.memo(this.streets, `${country}|${a.street}`, () => ({
      key: tokens(normalizeStreet(a.street, country)).join(' '),
      words: streetTokens(a.street, country).join(' '),
    }));
    if (!s.key && !s.words) return 'missing_street';
    const c = a.city
      ? this.memo(this.cities, a.city, () => ({ key: tokens(normalizeCity(a.city!)).join(' '), words: cityTokens(a.city).join(' ') }))
      : { key: '', words: '' };
    const hnKey = houseNumberKey(a.houseNumber);
    if (!hnKey) return 'missing_house_number';
    const streetKey = `${country}|${s.key || s.words}|${c.key}`;
    const postcode = a.postcode ? displayPostcode(a.postcode, country) : null;
    let street = this.streetInputs.get(streetKey);
    if (!street) {
      if (this.streetInputs.size > 200_000) this.streetInputs.clear();
      street = { key: streetKey, country, street: a.street, city: a.city ?? null, state: a.state ?? null, streetWords: s.words, cityWords: c.words };
      this.streetInputs.set(streetKey, street);
    }
    return {
      identity: a.sourceId ?? `${streetKey}|${hnKey}`,
      sourceId: a.sourceId ?? null,
      street,
      hn: a.houseNumber,
      hnKey,
      hnBase: houseNumberBase(a.houseNumber),
      postcode,
      pcKey: postcode ? postcodeKey(postcode) || null : null,
      lat: a.lat,
      lng: a.lng,
    };
  }
}
