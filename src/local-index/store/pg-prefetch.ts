import pg from 'pg';
import type { GeoPoint } from '../../contract/address.js';
import { nearArgs } from './queries.js';
import { numberedStreetsSql, streetsEachSql } from './pg-street-queries.js';
import { NARROWED_PREFETCH_LIMIT } from './pg-search-function.js';
import { numbersArgument } from './pg-function-numbers.js';
import type { HouseNumberFilter, PostcodeFilter, StreetPrefetch, WordQuery } from './store.js';

/**
 * The PostgreSQL side of `LookUpInput.prefetch`: the call of `addressd_local_search`
 * (pg-search-function.ts) that rides along with a word look-up, and the rows it brought, kept
 * under the exact arguments of the search they answer until that search asks for them.
 */

/** Where the function writes a search's tsquery (quoted) into its SQL. */
const tsqMark = (v: number) => ({ raw: `__tsq${v}__` });

/** `?` placeholders replaced by literals (the function runs the SQL through EXECUTE, which plans it for these values). */
function inline(sql: string, args: unknown[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const value = args[i++];
    if (typeof value === 'object' && value !== null && 'raw' in value) return String(value.raw);
    if (typeof value === 'number') return String(value);
    return pg.escapeLiteral(String(value));
  });
}

const nearKey = (near: GeoPoint | undefined) => (near ? `${near.lat},${near.lng}` : '');

/** Keys of the searches a prefetch answers: the arguments that decide their rows. */
export const prefetchKey = {
  narrowed: (tsq: string, country: string | undefined, limit: number, hnKey: string, pcKey: string) => `n|${country ?? ''}|${limit}|${hnKey}|${pcKey}|${tsq}`,
  numbered: (tsq: string, country: string | undefined, limit: number, hnKey: string, near: GeoPoint | undefined) =>
    `m|${country ?? ''}|${limit}|${hnKey}|${nearKey(near)}|${tsq}`,
  each: (tsqs: string[], country: string | undefined, limit: number, near: GeoPoint | undefined) => `e|${country ?? ''}|${limit}|${nearKey(near)}|${tsqs.join('\n')}`,
  /** Without the limit: the rows kept say how many they may be (Prefetched.take's `limit`). */
  numbers: (ids: number[], hn: HouseNumberFilter | undefined) => `a|${[...ids].sort((a, b) => a - b).join(',')}|${JSON.stringify(hn ?? null)}`,
  byPostcode: (pc: PostcodeFilter, hn: HouseNumberFilter | undefined, country: string | undefined, limit: number) =>
    `b|${pc.prefix ? 'p' : 'e'}|${pc.key}|${JSON.stringify(hn ? ('base' in hn ? { base: hn.base } : { key: hn.key, prefix: hn.prefix }) : null)}|${country ?? ''}|${limit}`,
};

/**
 * The function's arguments for a prefetch (see pg-search-function.ts); undefined where it cannot run
 * it. `bound`: whether the store will know a prefix's completions once the statement is answered
 * (it then searches the prefix as their OR when they are few: `bounded` in pg-store.ts).
 */
export function prefetchArgs(p: StreetPrefetch, bound: (prefix: string) => boolean): unknown[] | undefined {
  const terms = JSON.stringify(p.terms.map((alts) => alts.map((a) => [a.word, a.prefix, a.prefix && bound(a.word)])));
  if (p.search.kind === 'narrowed') {
    if (p.limit !== NARROWED_PREFETCH_LIMIT) return undefined;
    const numbers = p.numbers ? numbersArgument(p.numbers.hn, p.numbers.limit, p.numbers.inPostcode === true) : null;
    return [terms, p.search.forms, null, p.search.hnKey, p.search.inPostcode, p.country ?? null, numbers, p.numbers?.maxStreets ?? 0, null];
  }
  const country = p.country === undefined ? [] : [p.country];
  const near = p.near ? nearArgs(p.near) : [];
  if (p.search.kind === 'numbered') {
    const search = inline(numberedStreetsSql(p.country !== undefined, p.limit, !!p.near), [tsqMark(0), ...country, ...near, p.search.hnKey]);
    return [terms, false, search, null, null, null, null, 0, null];
  }
  const branches = p.search.forms ? [0, 1] : [0];
  const search = inline(streetsEachSql(branches, p.country !== undefined, p.limit, !!p.near), branches.flatMap((v) => [tsqMark(v), ...country, ...near]));
  const rank = p.numbers?.rank ? JSON.stringify(p.numbers.rank) : null;
  return [terms, p.search.forms, search, null, null, null, p.numbers ? numbersArgument(p.numbers.hn, p.numbers.limit, false, p.numbers.rankUpTo) : null, p.numbers?.maxStreets ?? 0, rank];
}

/** The function's argument types, in order. */
export const PREFETCH_ARG_TYPES = ['jsonb', 'bool', 'text', 'text', 'text', 'text', 'jsonb', 'int', 'jsonb'];

/**
 * Rows kept under a key; `limit`: the LIMIT they were read with, where a search asking fewer may
 * take their first ones (`addressesOnStreets`, whose order is total: hnClause in queries.ts).
 */
export type KeptRows = [key: string, rows: unknown[], limit?: number];

/** The rows of one prefetch under the keys of the searches they answer. */
export function prefetchedRows(p: StreetPrefetch, rows: { part: string; r: unknown }[]): KeptRows[] {
  const tsqs = rows.find((x) => x.part === 'q')?.r as string[] | undefined;
  if (!tsqs) return [];
  const part = (name: string) => rows.filter((x) => x.part === name).map((x) => x.r);
  const search = p.search;
  const out: KeptRows[] =
    search.kind === 'narrowed'
      ? // Each form's search on its own (part `s`, then `s1`: the function's order of the tsqueries).
        tsqs.map((tsq, f) => [prefetchKey.narrowed(tsq, p.country, p.limit, search.hnKey, search.inPostcode), part(f === 0 ? 's' : `s${f}`)])
      : [[search.kind === 'numbered' ? prefetchKey.numbered(tsqs[0]!, p.country, p.limit, search.hnKey, p.near) : prefetchKey.each(tsqs, p.country, p.limit, p.near), part('s')]];
  const ids = rows.find((x) => x.part === 'i')?.r as number[] | undefined;
  if (p.numbers && ids) out.push([prefetchKey.numbers(ids, p.numbers.hn), part('a'), p.numbers.limit]);
  // The postcode's addresses: the function ran them (for found streets) with the search's own postcode and number.
  const hn = p.numbers?.hn;
  const sameNumber = !!hn && 'key' in hn && !hn.prefix && hn.key === (search.kind === 'narrowed' ? search.hnKey : undefined);
  if (search.kind === 'narrowed' && p.numbers?.inPostcode && sameNumber && rows.some((x) => x.part === 'b' || x.part === 'i')) {
    out.push([prefetchKey.byPostcode({ key: search.inPostcode, prefix: false }, { key: search.hnKey, prefix: false }, p.country, p.numbers.limit), part('b')]);
  }
  return out;
}

/**
 * The keys the search's rows would be kept under (prefetchedRows), as the store will ask for them:
 * each form's tsquery written by `tsq` (tsQuery of the bounded terms, as findStreets writes it).
 * Whether a search is already waiting, before sending it again.
 */
export function searchKeys(p: StreetPrefetch, tsq: (terms: WordQuery[][]) => string): string[] {
  const search = p.search;
  const typed = tsq(p.terms);
  const forms = search.kind !== 'numbered' && search.forms ? [tsq([...p.terms.slice(0, -1), p.terms.at(-1)!.map((a) => ({ ...a, prefix: false }))]), typed] : [typed];
  if (search.kind === 'narrowed') return forms.map((q) => prefetchKey.narrowed(q, p.country, p.limit, search.hnKey, search.inPostcode));
  if (search.kind === 'numbered') return [prefetchKey.numbered(typed, p.country, p.limit, search.hnKey, p.near)];
  return [prefetchKey.each(forms, p.country, p.limit, p.near)];
}

/** Rows kept for searches not (yet) made: a list's chunk of look-ups (lookUpAll) fits. */
const KEPT = 600;

/**
 * Rows waiting for their search: each taken as often as it was put (the two forms of a word being
 * typed may be the same search, `hoffeldkir` whose one completion is itself, asked twice); the
 * oldest go first (a guess that missed is never taken). A key names the search's arguments and the
 * data is the same until an import clears them all, so rows put twice are the same rows.
 */
export class Prefetched {
  private readonly rows = new Map<string, { rows: unknown[]; left: number; limit: number | undefined }>();

  put(entries: KeptRows[]): void {
    for (const [key, rows, limit] of entries) {
      const left = (this.rows.get(key)?.left ?? 0) + 1;
      this.rows.delete(key);
      this.rows.set(key, { rows, left, limit });
    }
    for (const key of this.rows.keys()) {
      if (this.rows.size <= KEPT) break;
      this.rows.delete(key);
    }
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /**
   * The rows kept under `key`. `limit`: the search's own LIMIT, for rows kept with theirs; they
   * answer it when read with at least as many (the first `limit` of them: a fill-up asks for fewer
   * numbers than the function read when towns are offered beside the street), else not at all.
   */
  take<T>(key: string, limit?: number): T[] | undefined {
    const kept = this.rows.get(key);
    if (!kept) return undefined;
    if (limit !== undefined && kept.limit !== undefined && kept.limit < limit) return undefined;
    if (--kept.left <= 0) this.rows.delete(key);
    return (limit !== undefined && kept.limit !== undefined ? kept.rows.slice(0, limit) : kept.rows) as T[];
  }

  clear(): void {
    this.rows.clear();
  }
}
