import { LRUCache } from 'lru-cache';
import type { StreetRow } from './rows.js';

/** A wide match's rows as `findStreetsEach` reads them: each row's search (its branch, `v`) with it. */
export type MatchRow = StreetRow & { v: number };

/** Rows kept in all (a wide match is at most 60 streets a form): about 20 MB of rows at most. */
const KEPT_ROWS = 30_000;

/**
 * The wide street matches of PostgreSQL's `findStreetsEach`, kept under the search's exact
 * arguments (`prefetchKey.each`: the forms' tsqueries, country, limit, position) until the next
 * import clears them, as the words' look-ups are kept. Keystrokes repeat these searches: one user's
 * next keystrokes after a street name (`Bahnhofstraße 1`, `Bahnhofstraße 12`) search the same words
 * with other numbers, and users type the same frequent names and prefixes. Each was a call of the
 * search function (0.7-1 ms of the server's time at 1M addresses: the match planned for its tsquery,
 * up to 60 streets sent as jsonb); kept, the keystroke sends only what it asks after them (the
 * numbers on the top streets, one small named statement) or nothing. The rows are what the database
 * answers for those arguments until the data changes, so the answers are the same.
 */
export class StreetMatches {
  private readonly rows = new LRUCache<string, MatchRow[]>({ maxSize: KEPT_ROWS, sizeCalculation: (rows) => Math.max(1, rows.length) });

  get(key: string): MatchRow[] | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  set(key: string, rows: MatchRow[]): void {
    this.rows.set(key, rows);
  }

  clear(): void {
    this.rows.clear();
  }
}
