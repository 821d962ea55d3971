import { NeighbourIndex } from '../import/derive-neighbours.js';
import type { IndexStore } from '../store/store.js';
import { cityTokens, streetTokens } from '../text.js';
import type { RawAddress, RowItem } from '../types.js';

/** Streets (and their addresses) read per street name and per town of the change. */
const STREETS = 60;
const ADDRESSES = 20_000;

type AddressItem = Extract<RowItem, { kind: 'address' }>;

/**
 * The towns and postcodes an update's houses lack, derived as an import derives them
 * (import/derive-neighbours.ts), from their neighbours in the index: the addresses of the
 * streets of the same name and of the same town, with their towns and the postcodes they
 * state (a derived postcode is never a source), and the change's own rows. The index's rows of
 * the houses being rewritten are left out: they still hold what the change takes away.
 */
export async function deriveFromIndex(store: IndexStore, items: RowItem[]): Promise<RowItem[]> {
  const needs = items.filter((i): i is AddressItem => i.kind === 'address' && (!i.address.city || !i.address.postcode));
  if (needs.length === 0) return items;
  const neighbours = new NeighbourIndex();
  const rewritten = new Set<string>();
  for (const i of items) {
    if (i.kind !== 'address') continue;
    neighbours.add(i.address);
    rewritten.add(houseKey(i.address.country, i.address.street, i.address.houseNumber));
  }
  const asked = new Set<string>();
  const streetIds = new Set<number>();
  for (const { address: a } of needs) {
    const country = a.country?.toUpperCase();
    if (!country) continue;
    const searches = [streetTokens(a.street, country), ...(a.city ? [cityTokens(a.city)] : []), ...(a.municipality ? [cityTokens(a.municipality)] : [])];
    for (const words of searches) {
      const key = `${country}|${words.join(' ')}`;
      if (words.length === 0 || asked.has(key)) continue;
      asked.add(key);
      const streets = await store.findStreets(words.map((word) => [{ word, prefix: false }]), country, STREETS);
      for (const s of streets) streetIds.add(s.id);
    }
  }
  if (streetIds.size > 0) {
    for (const h of await store.addressesOnStreets([...streetIds], undefined, ADDRESSES)) {
      if (rewritten.has(houseKey(h.street.country, h.street.street, h.hn))) continue;
      const stated: RawAddress = {
        street: h.street.street,
        houseNumber: h.hn,
        country: h.street.country,
        lat: h.lat,
        lng: h.lng,
        // The town as the import had it when it derived (tag, area or place node): the street's.
        ...(h.street.city ? { city: h.street.city } : {}),
        ...(h.postcode && !h.inferred?.includes('postcode') ? { postcode: h.postcode } : {}),
      };
      neighbours.add(stated);
    }
  }
  return items.map((i) => (i.kind === 'address' && (!i.address.city || !i.address.postcode) ? { ...i, address: neighbours.fill(i.address) } : i));
}

const houseKey = (country: string | undefined, street: string, hn: string) => `${(country ?? '').toUpperCase()}|${street.toLowerCase()}|${hn.toLowerCase()}`;
