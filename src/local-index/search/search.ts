import { NUMBERED_PER_STREET, type AddressHit, type IndexStore, type StreetHit } from '../store/store.js';
import type { GeocodeInput, LocalHit } from '../types.js';
import { streetToHit } from './hits.js';
import { componentsReading, lookUpOf, planComponents, planText, textReading, type Plan } from './plan.js';
import { scoreHit } from './score.js';
import { expectedStreetSearch, readStreets } from './streets.js';
import { postcodeKey } from '../text.js';
import { byScore, dedupe, MIN_SCORE, numberFilter, scoredAddresses } from './results.js';

/** How many addresses of the exact number a geocode takes from its top streets. */
const EXACT_ON_STREETS = NUMBERED_PER_STREET;

/**
 * The addresses with this exact house number on these streets, lowest id first (the order of
 * `addressesOnStreets` for an exact key): from the street match when it brought them along.
 */
async function exactOnStreets(store: IndexStore, streets: StreetHit[], hnKey: string): Promise<AddressHit[]> {
  if (!streets.every((s) => s.numbered)) return store.addressesOnStreets(streets.map((s) => s.id), { key: hnKey, prefix: false }, EXACT_ON_STREETS);
  return streets
    .flatMap((street) => street.numbered!.map(({ id, ...a }) => ({ id, hit: { street, ...a } })))
    .sort((a, b) => a.id - b.id)
    .slice(0, EXACT_ON_STREETS)
    .map((a) => a.hit);
}

async function geocodePlan(store: IndexStore, read: Plan, limit: number): Promise<LocalHit[]> {
  const { plan, streets: ranked } = await readStreets(store, read, true);
  const streets = ranked.slice(0, 10);

  const ids = streets.map((s) => s.street.id);
  const hits: AddressHit[] = [];
  if (plan.hn) {
    const hn = plan.hn;
    hits.push(...(await exactOnStreets(store, streets.map((s) => s.street), hn.key)));
    // A postcode typed first (`9495 Landstrasse`), read as the house number, that no street has: the postcode.
    if (hits.length === 0 && plan.postcodeRead) return geocodePlan(store, plan.postcodeRead, limit);
    // The postcode finds the number on a same-named street beyond the top ten (a name in thousands
    // of towns), or on the street a misspelt name did not reach; when a top street already has it
    // in that postcode, the look-up would only repeat it. It depends on the exact hits only, so it
    // runs beside the leading-integer look-up (`9` finding `9a`), not after it.
    const pc = plan.postcode;
    const byBase = hits.length === 0 && hn.base !== null;
    const byPostcode = pc?.known && !hits.some((h) => h.hnKey === hn.key && postcodeKey(h.postcode ?? h.street.postcode ?? '') === pc.key);
    const [onBase, inPostcode] = await Promise.all([
      byBase ? store.addressesOnStreets(ids, { base: hn.base! }, 10) : [],
      byPostcode ? store.addressesByPostcode({ key: pc.key, prefix: false }, { key: hn.key, prefix: false }, plan.country, 5) : [],
    ]);
    hits.push(...onBase, ...inPostcode);
  }
  const out = scoredAddresses(plan, hits, streets);
  // The street itself, where the house number was not found on it (or none was asked for). The
  // index holds every number and postcode the data gives the street: one it lacks is known to be
  // absent. A street of several postcodes names none, so the typed one is looked up.
  const exactOn = new Set(hits.filter((h) => h.hnKey === plan.hn?.key).map((h) => h.street.id));
  const bare = streets.slice(0, 3).filter((s) => !exactOn.has(s.street.id));
  const pc = plan.postcode && !plan.postcode.prefix ? plan.postcode.key : undefined;
  const several = bare.filter((s) => s.street.postcode === null).map((s) => s.street.id);
  const notIn = new Set(pc !== undefined && several.length > 0 ? await store.streetsNotInPostcode(several, pc, plan.country) : []);
  for (const s of bare) {
    const hit = streetToHit(s.street, scoreHit(plan, s.street, undefined, s.score));
    out.push({ ...hit, ...(plan.hn ? { houseNumbersKnown: true } : {}), ...(notIn.has(s.street.id) ? { postcodesKnown: true } : {}) });
  }
  return dedupe(byScore(out, plan.near)).filter((h) => h.score >= MIN_SCORE).slice(0, limit);
}

/** The street search a geocode's plan leads to (see rankStreets' call in geocodePlan). */
const geocodeSearch = (plan: Plan) => expectedStreetSearch(plan, plan.hn?.key);

/**
 * Geocode: the caller's components when they name a street or postcode (the engine passes
 * what its parser read), else the free text read against the index; the text is also the
 * fallback when the components found nothing.
 */
export async function geocode(store: IndexStore, input: GeocodeInput): Promise<LocalHit[]> {
  const limit = input.limit ?? 5;
  const c = input.components;
  if (c && (c.street || c.postcode)) {
    const hits = await geocodePlan(store, await planComponents(store, c, input.country, geocodeSearch, input.near), limit);
    if (hits.length > 0 || !input.query) return hits;
  }
  if (!input.query) return [];
  return geocodePlan(store, await planText(store, input.query, false, input.country ?? c?.country, geocodeSearch, input.near), limit);
}

/**
 * Many geocodes about to be asked (a list's chunk): the store looks their words, postcodes and
 * expected street searches up at once where it can (`lookUpAll`), so each geocode then mostly
 * finds its answers waiting. Only their first reading (components, else text), as geocode reads it.
 */
export async function primeGeocodes(store: IndexStore, inputs: GeocodeInput[]): Promise<void> {
  if (!store.lookUpAll) return;
  const readings = inputs.flatMap((input) => {
    const c = input.components;
    if (c && (c.street || c.postcode)) return [componentsReading(c, input.country, input.near)];
    return input.query ? [textReading(input.query, false, input.country ?? c?.country, input.near)] : [];
  });
  await store.lookUpAll(readings.map((r) => lookUpOf(r, geocodeSearch)));
}


export { autocomplete } from './autocomplete.js';
