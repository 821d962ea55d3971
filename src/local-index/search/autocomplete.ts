import type { AddressHit, IndexStore } from '../store/store.js';
import type { AutocompleteInput, LocalHit } from '../types.js';
import { streetToHit } from './hits.js';
import { planText, type Plan } from './plan.js';
import { scoreHit, scoreStreet } from './score.js';
import { foldTownless } from './fold-streets.js';
import { expectedStreetSearch, readStreets, streetRanking, type RankedStreet } from './streets.js';
import { byScore, dedupe, numberFilter, scoredAddresses, shownAddresses } from './results.js';
import { kindsOf, localityHits, postcodeHits, type Kinds } from './kinds.js';

/** How many ranked streets autocomplete looks at. */
const AUTOCOMPLETE_STREETS = 8;

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
 * name (`Keizersgracht `), it expands into its house numbers: the drill-down. A postcode alone
 * is also offered as the postcode with its town, words that name a town as the town (issue 35);
 * `types` keeps only those kinds (a form that wants streets reads no house number).
 */
export async function autocomplete(store: IndexStore, input: AutocompleteInput): Promise<LocalHit[]> {
  const limit = input.limit ?? 5;
  const kinds = kindsOf(input.types);
  // The look-up also brings the addresses asked next: with a number, its addresses on the top
  // streets (numberedOn's first look-up; the store ranks them as rankStreets does when they are more
  // than AUTOCOMPLETE_STREETS: a name in many towns); without, the best street's first numbers
  // when fewer streets than `limit` were found (the drill-down, or the fill-up after the streets
  // offered: `suggest` asks `limit` less those offered, the first ones of these). Narrowed by a
  // whole postcode, the postcode's addresses of the number come too (numberedOn's second look-up).
  const expected = (plan: Plan) =>
    expectedStreetSearch(
      plan,
      undefined,
      plan.hn
        ? { hn: numberFilter(plan.hn), limit: limit * 4, maxStreets: AUTOCOMPLETE_STREETS, rank: streetRanking(plan), inPostcode: plan.postcode?.prefix === false }
        : { hn: undefined, limit: plan.drill ? limit : limit - 1, maxStreets: 1, rank: streetRanking(plan), rankUpTo: limit - 1 },
    );
  const plan = await planText(store, input.query, true, input.country, kinds.has('address') ? expected : (p) => expected(numberless(p)), input.near);
  const hits = await suggest(store, kinds.has('address') ? plan : numberless(plan), limit, kinds);
  return hits.filter((h) => kinds.has(h.kind ?? h.precision)).slice(0, limit);
}

/** A plan without its house number (no address asked for): the number typed names nothing else. */
function numberless(plan: Plan): Plan {
  const { hn: _hn, numberRead: _n, postcodeRead, ...rest } = plan;
  return { ...rest, drill: false, ...(postcodeRead ? { postcode: postcodeRead.postcode } : {}) };
}

/** Autocomplete's answers for a plan of the typed text, of the kinds asked for (more may come; the caller keeps those). */
async function suggest(store: IndexStore, read: Plan, limit: number, kinds: Kinds): Promise<LocalHit[]> {
  if (!read.words.some((t) => t.alts.length > 0)) {
    const plan = read;
    if (!plan.postcode) return [];
    const hn = plan.hn ? numberFilter(plan.hn) : undefined;
    const [hits, areas] = await Promise.all([
      kinds.has('address') ? store.addressesByPostcode(plan.postcode, hn, plan.country, limit) : [],
      kinds.has('postcode') && !plan.hn ? store.postcodeAreas(plan.postcode, plan.country, limit) : [],
    ]);
    const addresses = byScore(scoredAddresses(plan, hits, []), plan.near);
    const postcodes = byScore(postcodeHits(plan, areas), plan.near);
    // A whole postcode is offered itself first (then its addresses); one being typed, after them.
    return !plan.postcode.prefix ? [...postcodes, ...addresses] : [...addresses, ...postcodes];
  }
  const { plan, streets: ranked } = await readStreets(store, read, false);
  const streets = ranked.slice(0, AUTOCOMPLETE_STREETS);
  const best = streets[0];
  if (!best) return plan.postcodeRead ? suggest(store, plan.postcodeRead, limit, kinds) : [];
  if (plan.hn) {
    const [onStreets, inPostcode] = await numberedOn(store, plan, streets, best, limit);
    let hits = [...onStreets, ...inPostcode];
    let numbers = plan;
    // A whole number the streets do not have (`Landstrasse 3, 9495 Triesen`, where Triesen's
    // Landstrasse has 30, 323, 340) is the start of their numbers, not another street's 3; one that
    // is a postcode, typed first (`9495 Landstr`), names the town.
    if (hits.length === 0 && plan.postcodeRead) return suggest(store, plan.postcodeRead, limit, kinds);
    if (hits.length === 0 && !plan.hn.prefix) {
      numbers = { ...plan, hn: { ...plan.hn, prefix: true } };
      hits = (await numberedOn(store, numbers, streets, best, limit)).flat();
    }
    if (hits.length > 0) return shownAddresses(numbers, hits, streets, limit);
    return foldTownless(streets).slice(0, limit).map((s) => streetToHit(s.street, scoreHit(plan, s.street, undefined, s.score)));
  }
  const tied = streets.filter((s) => s.exact && s.coverage === 1 && s.score === best.score).length;
  if (plan.drill && best.exact && best.coverage === 1 && tied === 1) {
    const hits = await store.addressesOnStreets([best.street.id], undefined, limit);
    return dedupe(scoredAddresses(plan, hits, streets));
  }
  // Towns the words name, among the streets found (all of the pool: a town's streets may rank low
  // as streets), placed by their score among the streets offered.
  const towns = kinds.has('locality') ? byScore(localityHits(plan, ranked), plan.near) : [];
  // At most `limit` streets are offered, and a town's place depends only on the streets before it:
  // only those are made into hits (label, places), not every ranked street.
  const shown = kinds.has('street') ? foldTownless(streets).slice(0, limit).map((s) => streetToHit(s.street, s.score)) : [];
  const offered = beside(towns, shown).slice(0, limit);
  const fill = limit - offered.length;
  if (fill <= 0 || !kinds.has('address')) return offered;
  // No streets wanted: the first numbers of the top streets, in their order; else of the best one.
  const on = kinds.has('street') ? [best] : streets.slice(0, limit);
  const rank = new Map(on.map((s, i) => [s.street.id, i]));
  const numbers = await store.addressesOnStreets([...rank.keys()], undefined, kinds.has('street') ? fill : fill * 2);
  const first = scoredAddresses(plan, numbers, streets).map((h, i) => ({ h, i, at: rank.get(numbers[i]!.street.id)! }));
  return [...offered, ...dedupe(first.sort((a, b) => a.at - b.at || a.i - b.i).map((x) => x.h))];
}

/** Towns placed among the ranked streets: each before the first street that scores less. */
function beside(towns: LocalHit[], streets: LocalHit[]): LocalHit[] {
  const out = [...streets];
  let from = 0;
  for (const town of towns) {
    let at = out.findIndex((h, i) => i >= from && h.kind === 'street' && h.score < town.score);
    if (at < 0) at = out.length;
    out.splice(at, 0, town);
    from = at + 1;
  }
  return out;
}
