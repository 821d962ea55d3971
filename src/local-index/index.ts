import { runImport } from './import/run-import.js';
import { autocomplete, geocode, primeGeocodes } from './search/search.js';
import type { PoolErrorHandler } from '../store/db/pg-pool.js';
import { openPgStore } from './store/pg-store.js';
import { openSqliteStore } from './store/sqlite-store.js';
import type { IndexStore } from './store/store.js';
import { applyOsmChange, type UpdateSummary } from './update/apply-change.js';
import { openOsmState } from './update/open-state.js';
import { recordOsmState } from './update/record-state.js';
import type { AutocompleteInput, GeocodeInput, ImportOptions, ImportSummary, LocalHit } from './types.js';

export * from './types.js';
export type { UpdateSummary } from './update/apply-change.js';

export interface LocalIndexOptions {
  dataDir: string;
  /** When set, the index lives in PostgreSQL (tables prefixed `local_`) instead of `${dataDir}/local-index.sqlite`. */
  databaseUrl?: string;
  /** PostgreSQL: where searches read (a streaming replica of `databaseUrl`); imports and updates write to `databaseUrl`. */
  readUrl?: string;
  /** PostgreSQL schema (test isolation); created when missing. */
  schema?: string;
  /** PostgreSQL: connection errors the pool absorbed (logged by the service). */
  onError?: PoolErrorHandler;
  /** PostgreSQL: how long a search waits for a connection. */
  connectTimeoutMs?: number;
}

/** The offline address index behind the `local` provider. */
export interface LocalIndex {
  readonly backend: 'sqlite' | 'postgres';
  /** ISO alpha-2 codes present in the index; cached, refreshed after any import (this process or another). */
  countries(): Promise<string[]>;
  /** The last known country list, for synchronous coverage checks. */
  knownCountries(): readonly string[];
  count(): Promise<number>;
  geocode(input: GeocodeInput): Promise<LocalHit[]>;
  autocomplete(input: AutocompleteInput): Promise<LocalHit[]>;
  /** Geocodes about to be asked (a list's chunk): their look-ups at once where the store can (`primeGeocodes`). */
  prime(inputs: GeocodeInput[]): Promise<void>;
  importFile(path: string, opts: ImportOptions): Promise<ImportSummary>;
  /** After an OSM import: records what `applyOsmChange` needs from the extract (src/local-index/update/). */
  recordOsmState(path: string): Promise<{ ways: number; areas: number }>;
  /** Before an OSM import: updates are refused until its recording completes (the old state no longer matches). */
  forgetOsmState(): Promise<void>;
  /** Applies an OsmChange file (`.osc`, `.osc.gz`) that follows the recorded extract. */
  applyOsmChange(path: string, opts: { country?: string }): Promise<UpdateSummary>;
  close(): Promise<void>;
}

/** How often the country list is re-checked against imports made by other processes. */
const REFRESH_MS = 2000;

export async function openLocalIndex(opts: LocalIndexOptions): Promise<LocalIndex> {
  const store: IndexStore = opts.databaseUrl ? await openPgStore(opts.databaseUrl, { schema: opts.schema, onError: opts.onError, connectTimeoutMs: opts.connectTimeoutMs, readUrl: opts.readUrl }) : openSqliteStore(opts.dataDir);
  let cached: { version: number; countries: string[] } = { version: -1, countries: [] };
  const refresh = async (): Promise<string[]> => {
    const version = await store.version();
    if (version !== cached.version) cached = { version, countries: await store.countries() };
    return cached.countries;
  };
  await refresh();
  // The CLI imports in its own process while the server runs: notice new countries without a restart.
  const timer = setInterval(() => void refresh().catch(() => undefined), REFRESH_MS);
  timer.unref();

  return {
    backend: store.kind,
    countries: refresh,
    knownCountries: () => cached.countries,
    count: () => store.count(),
    geocode: (input) => geocode(store, input),
    autocomplete: (input) => autocomplete(store, input),
    prime: (inputs) => primeGeocodes(store, inputs),
    async importFile(path, options) {
      const summary = await runImport(store, path, options);
      await refresh();
      return summary;
    },
    async recordOsmState(path) {
      const state = await openOsmState(opts);
      try {
        return await recordOsmState(state, path);
      } finally {
        await state.close();
      }
    },
    async forgetOsmState() {
      const state = await openOsmState(opts);
      try {
        await state.forget();
      } finally {
        await state.close();
      }
    },
    async applyOsmChange(path, options) {
      const state = await openOsmState(opts);
      try {
        const summary = await applyOsmChange(store, state, path, options);
        await refresh();
        return summary;
      } finally {
        await state.close();
      }
    },
    async close() {
      clearInterval(timer);
      await store.close();
    },
  };
}
