import { normalizeCity, normalizeStreet } from '../../address/normalize.js';
import { type AddressInput, PLACES_SEPARATOR, type StreetInput } from '../store/store.js';
import { cityTokens, displayPostcode, houseNumberBase, houseNumberKey, postcodeKey, streetTokens, tokens } from '../text.js';
import type { RawAddress } from '../types.js';
import { packUnits } from '../units.js';

export interface KeyedAddress extends AddressInput {
  /** Identity within a file: the OSM element, else street + city + house number. */
  identity: string;
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
  private readonly postcodes = new Map<string, { display: string; key: string | null }>();
  private readonly numbers = new Map<string, { key: string; base: number | null }>();

  /** Memoised `f(raw)`, the map cleared when it grows large. */
  private cached<T>(map: Map<string, T>, raw: string, f: () => T): T {
    let v = map.get(raw);
    if (v === undefined) {
      if (map.size > 200_000) map.clear();
      map.set(raw, (v = f()));
    }
    return v;
  }

  /**
   * The street of a row, memoised on the raw fields that decide it: the rows of one street
   * (thousands in a big town) then cost one map look-up instead of several normalisations'
   * look-ups and key strings. Rows naming other places (OSM `is_in`, admin levels) take the
   * long way: those places are not part of the key.
   */
  private readonly rowStreets = new Map<string, StreetInput | 'missing_street'>();
  /** The last row's raw fields and street: a file lists a street's rows one after another, and they then cost no key text or look-up at all. */
  private lastRow: { country: string; street: string; city: string | undefined; municipality: string | undefined; value: StreetInput | 'missing_street' } | undefined;

  /** Returns the keyed address, or undefined when the street or number has no usable token. */
  key(a: RawAddress, country: string): KeyedAddress | 'missing_street' | 'missing_house_number' {
    let street: StreetInput | 'missing_street' | undefined;
    const memo = !a.places?.length;
    const last = this.lastRow;
    if (memo && last && last.country === country && last.street === a.street && last.city === a.city && last.municipality === a.municipality) street = last.value;
    else {
      const rowKey = memo ? `${country}\u0000${a.street}\u0000${a.city ?? ''}\u0000${a.municipality ?? ''}` : '';
      if (memo) street = this.rowStreets.get(rowKey);
      if (street === undefined) {
        street = this.street(a, country);
        if (memo) {
          if (this.rowStreets.size > 200_000) this.rowStreets.clear();
          this.rowStreets.set(rowKey, street);
        }
      }
      if (memo) this.lastRow = { country, street: a.street, city: a.city, municipality: a.municipality, value: street };
    }
    if (street === 'missing_street') return street;
    let hn = this.numbers.get(a.houseNumber);
    if (hn === undefined) {
      if (this.numbers.size > 200_000) this.numbers.clear();
      this.numbers.set(a.houseNumber, (hn = { key: houseNumberKey(a.houseNumber), base: houseNumberBase(a.houseNumber) }));
    }
    const hnKey = hn.key;
    if (!hnKey) return 'missing_house_number';
    let pc: { display: string; key: string | null } | undefined;
    if (a.postcode) {
      const pcRaw = `${country}|${a.postcode}`;
      pc = this.postcodes.get(pcRaw);
      if (pc === undefined) {
        if (this.postcodes.size > 200_000) this.postcodes.clear();
        const display = displayPostcode(a.postcode, country);
        this.postcodes.set(pcRaw, (pc = { display, key: postcodeKey(display) || null }));
      }
    }
    return {
      identity: a.sourceId ?? `${street.key}|${hnKey}`,
      sourceId: a.sourceId ?? null,
      street,
      hn: a.houseNumber,
      hnKey,
      hnBase: hn.base,
      postcode: pc?.display ?? null,
      pcKey: pc?.key ?? null,
      lat: a.lat,
      lng: a.lng,
      units: packUnits(a.units, { interpolated: a.interpolated, partial: a.unitsPartial, inferred: a.inferred }),
    };
  }

  /** The street input of a row (normalised names, index words, places), shared by every row that yields the same key. */
  private street(a: RawAddress, country: string): StreetInput | 'missing_street' {
    const s = this.cached(this.streets, `${country}|${a.street}`, () => ({
      key: tokens(normalizeStreet(a.street, country)).join(' '),
      words: streetTokens(a.street, country).join(' '),
    }));
    if (!s.key && !s.words) return 'missing_street';
    const c = a.city
      ? this.cached(this.cities, a.city, () => ({ key: tokens(normalizeCity(a.city!)).join(' '), words: cityTokens(a.city).join(' ') }))
      : { key: '', words: '' };
    // A village's municipality is searchable too (people write either), and part of the street's identity.
    const municipality = a.municipality && a.municipality.toLowerCase() !== a.city?.toLowerCase() ? a.municipality : undefined;
    const m = municipality
      ? this.cached(this.cities, municipality, () => ({ key: tokens(normalizeCity(municipality)).join(' '), words: cityTokens(municipality).join(' ') }))
      : undefined;
    // The other places around it (parish, quarter, `is_in`): searchable and named, not part of the identity.
    const seen = new Set([a.city, municipality].filter(Boolean).map((p) => p!.toLowerCase()));
    const others = (a.places ?? []).filter((p) => !seen.has(p.toLowerCase()) && !p.includes(PLACES_SEPARATOR) && Boolean(seen.add(p.toLowerCase())));
    const streetKey = `${country}|${s.key || s.words}|${c.key}${m ? `|${m.key}` : ''}`;
    let street = this.streetInputs.get(streetKey);
    if (!street) {
      if (this.streetInputs.size > 200_000) this.streetInputs.clear();
      const otherWords = others.map((p) => this.cached(this.cities, p, () => ({ key: tokens(normalizeCity(p)).join(' '), words: cityTokens(p).join(' ') })).words);
      const cityWords = m || others.length > 0 ? [...new Set([c.words, m?.words ?? '', ...otherWords].join(' ').split(' ').filter(Boolean))].join(' ') : c.words;
      const places = [...(municipality ? [municipality] : []), ...others].join(PLACES_SEPARATOR) || null;
      street = { key: streetKey, country, street: a.street, city: a.city ?? null, municipality: places, state: a.state ?? null, streetWords: s.words, cityWords };
      this.streetInputs.set(streetKey, street);
    }
    return street;
  }
}
