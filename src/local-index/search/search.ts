import { NUMBERED_PER_STREET, type AddressHit, type IndexStore, type StreetHit } from '../store/store.js';
import type { AutocompleteInput, GeocodeInput, LocalHit } from '../types.js';
import { addressToHit, streetToHit } from './hits.js';
import { componentsReading, lookUpOf, planComponents, planText, textReading, type Plan } from './plan.js';
import { scoreHit, scoreStreet } from './score.js';
import { foldTownless } from './fold-streets.js';
import { expectedStreetSearch, readStreets, streetRanking, type RankedStreet } from './streets.js';
import { postcodeKey } from '../text.js';
import { mergeUnits } from '../units.js';
import type { GeoPoint } from '../../contract/address.js';
import { nearRank } from './near.js';

/** Hits scoring below this are not the address asked for; returning them would only mislead. */
const MIN_SCORE = 0.35;

function scoredAddresses(plan: Plan, hits: AddressHit[], ranked: RankedStreet[]): LocalHit[] {
  const byId = new Map(ranked.map((r) => [r.street.id, r.score]));
  return hits.map((h) => addressToHit(h, scoreHit(plan, h.street, h, byId.get(h.street.id) ?? scoreStreet(plan, h.street).score)));
}

/**
 * Each result once. Several objects of one house (OSM: a node per flat, each with its
 * `addr:unit`) are one result with all their units. A number both mapped and in an
 * interpolation's range is the mapped one, at its own place.
 */
function dedupe(hits: LocalHit[]): LocalHit[] {
  const seen = new Map<string, LocalHit>();
  return hits.filter((h) => {
    const key = `${h.precision}|${h.label}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, h);
      return true;
    }
    if (h.units) first.units = mergeUnits(first.units, h.units);
    if (first.interpolated && !h.interpolated) {
      first.location = h.location;
      delete first.interpolated;
    }
    return false;
  });
}

/**
 * Stable sort by score, with a position by the score raised by nearness (search/near.ts): ties keep
 * the store's order (house numbers ascending).
 */
const byScore = (hits: LocalHit[], near?: GeoPoint) =>
  hits
    .map((h, i) => ({ h, i, rank: nearRank(h.score, near, h.location) }))
    .sort((a, b) => b.rank - a.rank || a.i - b.i)
    .map(({ h }) => h);

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

/** A plan's house number as the stores filter by it. */
const numberFilter = (hn: NonNullable<Plan['hn']>) => ({ key: hn.key, prefix: hn.prefix });

/** How many ranked streets autocomplete looks at. */
const AUTOCOMPLETE_STREETS = 8;

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

/**
 * The addresses of the plan's number on the ranked streets, and in a typed postcode: that picks
 * the right one of many same-named streets, even beyond the top few (a short postcode prefix,
 * `72`, names too many addresses to fetch; it only ranks). Of the postcode's addresses, only
 * those on streets named as well as the best one: its other streets were not asked for.
 */
async function numberedOn(store: IndexStore, plan: Plan, streets: RankedStreet[], best: RankedStreet, limit: number): Promise<[AddressHit[], AddressHit[]]> {
  const hn = numberFilter(plan.hn!);
  const specific = plan.postcode && (!plan.postcode.prefix || plan.postcode.key.length >= 5);
  const [onStreets, inPostcode] = await Promise.all([
    store.addressesOnStreets(streets.map((s) => s.street.id), hn, limit * 4),
    specific ? store.addressesByPostcode(plan.postcode!, hn, plan.country, limit * 4) : [],
  ]);
  return [onStreets, inPostcode.filter((h) => scoreStreet(plan, h.street).coverage >= best.coverage)];
}

/**
 * Autocomplete as the user types. Postcode first (`1012 LG 1`) lists that postcode's
 * addresses; a street with a number lists matching numbers; a street alone is offered as
 * a street (filled up with its first numbers), and once the user types past a whole street
 * name (`Keizersgracht `), it expands into its house numbers: the drill-down.
 */
export async function autocomplete(store: IndexStore, input: AutocompleteInput): Promise<LocalHit[]> {
  const limit = input.limit ?? 5;
  // The look-up also brings the addresses asked next: with a number, its addresses on the top
  // streets (numberedOn's first look-up; the store ranks them as rankStreets does when they are more
  // than AUTOCOMPLETE_STREETS: a name in many towns); without, a lone street's first numbers (the
  // drill-down, or the fill-up after the one street offered).
  const expected = (plan: Plan) =>
    expectedStreetSearch(
      plan,
      undefined,
      plan.hn
        ? { hn: numberFilter(plan.hn), limit: limit * 4, maxStreets: AUTOCOMPLETE_STREETS, rank: streetRanking(plan) }
        : { hn: undefined, limit: plan.drill ? limit : limit - 1, maxStreets: 1 },
    );
  return suggest(store, await planText(store, input.query, true, input.country, expected, input.near), limit);
}

/** Autocomplete's answers for a plan of the typed text. */
async function suggest(store: IndexStore, read: Plan, limit: number): Promise<LocalHit[]> {
  if (!read.words.some((t) => t.alts.length > 0)) {
    const plan = read;
    if (!plan.postcode) return [];
    const hn = plan.hn ? numberFilter(plan.hn) : undefined;
    const hits = await store.addressesByPostcode(plan.postcode, hn, plan.country, limit);
    return byScore(scoredAddresses(plan, hits, []), plan.near);
  }
  const { plan, streets: ranked } = await readStreets(store, read, false);
  const streets = ranked.slice(0, AUTOCOMPLETE_STREETS);
  const best = streets[0];
  if (!best) return plan.postcodeRead ? suggest(store, plan.postcodeRead, limit) : [];
  if (plan.hn) {
    const [onStreets, inPostcode] = await numberedOn(store, plan, streets, best, limit);
    let hits = [...onStreets, ...inPostcode];
    let numbers = plan;
    // A whole number the streets do not have (`Landstrasse 3, 9495 Triesen`, where Triesen's
    // Landstrasse has 30, 323, 340) is the start of their numbers, not another street's 3; one that
    // is a postcode, typed first (`9495 Landstr`), names the town.
    if (hits.length === 0 && plan.postcodeRead) return suggest(store, plan.postcodeRead, limit);
    if (hits.length === 0 && !plan.hn.prefix) {
      numbers = { ...plan, hn: { ...plan.hn, prefix: true } };
      hits = (await numberedOn(store, numbers, streets, best, limit)).flat();
    }
    if (hits.length > 0) return dedupe(byScore(scoredAddresses(numbers, hits, streets), plan.near)).slice(0, limit);
    return foldTownless(streets).slice(0, limit).map((s) => streetToHit(s.street, scoreHit(plan, s.street, undefined, s.score)));
  }
  const tied = streets.filter((s) => s.exact && s.coverage === 1 && s.score === best.score).length;
  if (plan.drill && best.exact && best.coverage === 1 && tied === 1) {
    const hits = await store.addressesOnStreets([best.street.id], undefined, limit);
    return dedupe(scoredAddresses(plan, hits, streets));
  }
  const offered = foldTownless(streets).slice(0, limit).map((s) => streetToHit(s.street, s.score));
  const fill = limit - offered.length;
  const first = fill > 0 ? dedupe(scoredAddresses(plan, await store.addressesOnStreets([best.street.id], undefined, fill), streets)) : [];
  return [...offered, ...first];
}
