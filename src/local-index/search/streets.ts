import type { IndexStore, StreetHit, StreetPrefetch, StreetRanking, WordQuery } from '../store/store.js';
import type { Plan } from './plan.js';
import { scoreStreet, type StreetScore } from './score.js';
import { kmBetween, nearRank } from './near.js';

/** Streets fetched from the full-text index per query before ranking. */
const POOL = 60;

export interface RankedStreet extends StreetScore {
  street: StreetHit;
}

function merge(lists: StreetHit[][]): StreetHit[] {
  const seen = new Map<number, StreetHit>();
  for (const s of lists.flat()) if (!seen.has(s.id)) seen.set(s.id, s);
  return [...seen.values()];
}

/** Whether the last term is a word being typed: it is then searched whole first (`forms` in rankStreets). */
const typingLast = (ts: WordQuery[][]): boolean => ts.at(-1)!.some((a) => a.prefix);

/** A whole number in a known postcode: the street search narrowed by both (see rankStreets). */
function narrowFor(plan: Plan): { hnKey: string; inPostcode: string } | undefined {
  return plan.hn && !plan.hn.prefix && plan.postcode?.known && !plan.postcode.prefix ? { hnKey: plan.hn.key, inPostcode: plan.postcode.key } : undefined;
}

/**
 * The first street search `rankStreets(store, plan, hnKey)` makes, where a store can run it beside
 * the look-up (LookUpInput.prefetch): narrowed by number and postcode (then `numbers` on its streets
 * when asked); with no postcode, the words'
 * streets with their addresses of the number, or, with no number fetched with the streets, the
 * search of the words' forms, then `numbers` on its streets.
 */
export function expectedStreetSearch(plan: Plan, hnKey: string | undefined, numbers?: StreetPrefetch['numbers']): StreetPrefetch | undefined {
  const terms = plan.words.filter((t) => t.alts.length > 0).map((t) => t.alts);
  if (terms.length === 0) return undefined;
  const words = [...terms, ...plan.cityWords.map((t) => t.alts)];
  const base = { terms: words, country: plan.country, limit: POOL, ...(plan.near ? { near: plan.near } : {}) };
  const narrow = narrowFor(plan);
  // A word being typed (a town after the postcode): each form narrowed, as rankStreets runs them.
  if (narrow) return { ...base, search: { kind: 'narrowed', ...narrow, forms: typingLast(words) }, ...(numbers ? { numbers } : {}) };
  if ((plan.postcode?.known && !plan.postcode.prefix) || (hnKey !== undefined && typingLast(words))) return undefined;
  if (hnKey !== undefined) return { ...base, search: { kind: 'numbered', hnKey } };
  return { ...base, search: { kind: 'each', forms: typingLast(words) }, numbers };
}

/**
 * What a store needs, beside the terms' readings, to rank a plan's streets as rankStreets does
 * (scoreStreet, then street size, name length, the search's order): the terms' typo marks, the
 * count of terms (those without readings score 0), and whether town words count.
 */
export function streetRanking(plan: Plan): StreetRanking {
  const near: [number, number] | undefined = plan.near ? [plan.near.lat, plan.near.lng] : undefined;
  return { fuzzy: plan.words.filter((t) => t.alts.length > 0).map((t) => t.fuzzy), words: plan.words.length, structured: plan.structured, ...(near ? { near } : {}) };
}

/**
 * Streets the query's words may name, best first. A word still being typed is searched
 * both as a whole word and as a prefix, so `Dam` finds the street `Dam` before the pool
 * of prefix matches (`Damrak`, `Damstraat`, …) fills up. If no street has every word, one
 * word at a time is left out: it may be noise (a country name) or a typo beyond repair.
 * `hnKey` asks the store for each street's addresses of that number with it (`numbered`);
 * `leaveOut: false` leaves no word out (readStreets tries the other reading of a number first).
 * With `plan.near`, the store's pools are the matches nearest to it and the ranking blends it in.
 */
export async function rankStreets(store: IndexStore, plan: Plan, hnKey?: string, leaveOut = true): Promise<RankedStreet[]> {
  const terms = plan.words.filter((t) => t.alts.length > 0).map((t) => t.alts);
  if (terms.length === 0) return [];
  const cities = plan.cityWords.map((t) => t.alts);
  /** A word still being typed is also searched whole, first: `[exact-last, as typed]` or `[as typed]`. */
  const forms = (ts: WordQuery[][]): WordQuery[][][] => {
    return typingLast(ts) ? [[...ts.slice(0, -1), ts.at(-1)!.map((a) => ({ ...a, prefix: false }))], ts] : [ts];
  };
  /** Several searches, each merged from its forms; without a house number, all in one store call (one round trip). */
  const runAll = async (list: WordQuery[][][], narrow?: { hnKey: string; inPostcode: string }): Promise<StreetHit[][]> => {
    const each = list.map(forms);
    if (narrow || hnKey !== undefined) {
      const find = (words: WordQuery[][]) =>
        narrow ? store.findStreets(words, plan.country, POOL, narrow.hnKey, narrow.inPostcode) : store.findStreets(words, plan.country, POOL, hnKey, undefined, plan.near);
      return Promise.all(each.map(async (variants) => merge(await Promise.all(variants.map(find)))));
    }
    const found = await store.findStreetsEach(each.flat(), plan.country, POOL, plan.near);
    let at = 0;
    return each.map((variants) => merge(variants.map(() => found[at++]!)));
  };
  const run = async (ts: WordQuery[][], narrow?: { hnKey: string; inPostcode: string }) => (await runAll([ts], narrow))[0]!;
  let streets: StreetHit[] = [];
  // A number in a known postcode: the streets of those words that have it there, found by the index,
  // are the ones the ranking below would put first; a name in thousands of towns (Hauptstraße) then
  // costs what a rare one does. Where none has it (a wrong postcode, a number that does not exist),
  // the search goes on as without it.
  const narrow = narrowFor(plan);
  if (narrow) {
    if (cities.length > 0) streets = await run([...terms, ...cities], narrow);
    if (streets.length === 0) streets = await run(terms, narrow);
  }
  // A known postcode without a number it has (none typed, or one that does not exist there): the
  // streets of those words in that postcode. With a town given apart (components), they must agree
  // with it; where they do not, the wide search below lets the ranking weigh town against postcode.
  const pc = plan.postcode?.known && !plan.postcode.prefix ? plan.postcode.key : undefined;
  if (streets.length === 0 && pc !== undefined) {
    streets = await store.findStreetsInPostcode(cities.length > 0 ? [...terms, ...cities] : terms, plan.country, POOL, pc, hnKey);
  }
  if (streets.length === 0 && cities.length > 0) streets = await run([...terms, ...cities]);
  if (streets.length === 0) streets = await run(terms);
  if (streets.length === 0 && terms.length > 1 && !plan.structured && leaveOut) {
    streets = merge(await runAll(terms.slice(0, 4).map((_, skip) => terms.filter((__, i) => i !== skip))));
  }
  const near = plan.near;
  const ranked = streets.map((street) => ({ street, ...scoreStreet(plan, street) }));
  if (!near) return ranked.sort((a, b) => b.score - a.score || b.street.n - a.street.n || a.street.street.length - b.street.street.length);
  // With a position: the text score raised by nearness (search/near.ts), the nearer first at a tie.
  const at = new Map(ranked.map((r) => [r, { rank: nearRank(r.score, near, r.street), km: kmBetween(near, r.street) }]));
  return ranked.sort((a, b) => at.get(b)!.rank - at.get(a)!.rank || at.get(a)!.km - at.get(b)!.km || b.street.n - a.street.n);
}

/** A plan and the streets it found. */
export interface PlanStreets {
  plan: Plan;
  streets: RankedStreet[];
}

/**
 * rankStreets for the text's reading that names streets: where a number was read as a street word
 * and no street of the country has every word, the reading with it as the house number
 * (`Plan.numberRead`), so a word of another street (`10` of `Sant Salvador 10`) never swallows the
 * house number. `withNumber`: the plan's house number goes to the store (a geocode's `hnKey`).
 */
export async function readStreets(store: IndexStore, plan: Plan, withNumber: boolean): Promise<PlanStreets> {
  const hnKey = (p: Plan) => (withNumber ? p.hn?.key : undefined);
  if (plan.numberRead) {
    const streets = await rankStreets(store, plan, hnKey(plan), false);
    if (streets.length > 0) return { plan, streets };
    return readStreets(store, plan.numberRead, withNumber);
  }
  return { plan, streets: await rankStreets(store, plan, hnKey(plan)) };
}
