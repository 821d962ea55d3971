import type { CommitRecord, CountryState, IndexSnapshot } from './store.js';

/**
 * Per-country bookkeeping written in each import's own commit (both stores: `country_state` in the
 * SQLite file, `local_country_state` in PostgreSQL): the data generation that cache keys carry
 * (DESIGN §6: a commit that changed a country's addresses makes every answer that read its old
 * data unreachable at once, on every instance, without scanning the cache), whether an import
 * was made for the country (coverage), and what the status command shows.
 */

/** The columns, in the order both stores select them. */
export const COUNTRY_STATE_COLUMNS =
  'country, generation, covered, source, imported_at AS "importedAt", change_file AS "changeFile", change_at AS "changeAt"';

/**
 * A country's row after a commit. Its generation becomes the commit's index version when the
 * commit changed addresses (or the country is new); a full import sets the source and clears the
 * last change file (a new extract starts a new chain); coverage, once earned, stays.
 */
export function nextCountryState(country: string, old: CountryState | undefined, record: CommitRecord | undefined, changed: boolean, version: number): CountryState {
  const base: CountryState = old ?? { country, generation: version, covered: false, source: null, importedAt: null, changeFile: null, changeAt: null };
  const next: CountryState = { ...base, generation: changed || !old ? version : base.generation };
  if (record?.kind === 'import') {
    return { ...next, covered: base.covered || record.covered.includes(country), source: record.file, importedAt: record.at, changeFile: null, changeAt: null };
  }
  if (record?.kind === 'change') return { ...next, changeFile: record.file, changeAt: record.at };
  return next;
}

/** The in-memory view of the rows (stores may hand `covered` over as 0/1) and of the countries held. */
export function toSnapshot(
  version: number,
  rows: readonly { country: string; generation: number | string; covered: boolean | number }[],
  countries: readonly string[],
): IndexSnapshot {
  return {
    version,
    countries,
    generations: new Map(rows.map((r) => [r.country, Number(r.generation)])),
    covered: rows.filter((r) => Boolean(r.covered)).map((r) => r.country).sort(),
  };
}
