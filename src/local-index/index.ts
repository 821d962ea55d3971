import { autocomplete, geocode, primeGeocodes } from './search/search.js';
import { describeError } from '../lib/describe-error.js';
import { systemClock, type Clock } from '../lib/clock.js';
import type { PoolErrorHandler } from '../store/db/pg-pool.js';
import { openPgStore } from './store/pg-store.js';
import { openSqliteStore } from './store/sqlite-store.js';
import type { SampleAddress } from './store/sample-address.js';
import type { IndexStore } from './store/store.js';
import type { UpdateSummary } from './update/apply-change.js';
import { openOsmState } from './update/open-state.js';
import type { OsmStateStore, OsmUpdateStatus } from './update/osm-state.js';
import type { RecordedState } from './update/record-alongside.js';
import type { AutocompleteInput, GeocodeInput, ImportOptions, ImportSummary, LocalHit, ReverseInput } from './types.js';
import { reverse } from './reverse.js';

export * from './types.js';
export type { UpdateSummary } from './update/apply-change.js';
export type { RecordedState } from './update/record-alongside.js';
export type { SampleAddress } from './store/sample-address.js';

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
  /** LOCAL_COUNTRIES: when set, exactly the countries `local` covers, whatever was imported for. */
  coveredCountries?: readonly string[];
  /** PostgreSQL: LISTEN for other processes' imports (a server, a list run); a one-shot command needs not. */
  follow?: boolean;
  /** When imports and updates are recorded as made. */
  clock?: Clock;
}

/** One country of the index as `addressd index status` shows it. */
export interface CountryStatus {
  country: string;
  addresses: number;
  covered: boolean;
  source: string | null;
  importedAt: string | null;
  lastChange: { file: string; at: string } | null;
  /** Its source is the extract the update state was recorded from: `import --update` can run. */
  updates: boolean;
}

export interface IndexStatus {
  backend: 'sqlite' | 'postgres';
  countries: CountryStatus[];
  covered: string[];
  updates: OsmUpdateStatus;
}

/** The offline address index behind the `local` provider. */
export interface LocalIndex {
  readonly backend: 'sqlite' | 'postgres';
  /** ISO alpha-2 codes present in the index; cached, refreshed after any import (this process or another). */
  countries(): Promise<string[]>;
  /** The last known country list, for synchronous checks: what the index can search (spill-over included). */
  knownCountries(): readonly string[];
  /** The countries `local` answers for as checked: imported for (import/coverage.ts), or LOCAL_COUNTRIES. */
  covered(): readonly string[];
  /**
   * The data generation answers for `country` were read at (no country: the whole index), for the
   * cache key (DESIGN §6); in memory, see IndexStore.snapshot.
   */
  dataGeneration(country: string | undefined): number;
  status(): Promise<IndexStatus>;
  count(): Promise<number>;
  /** One real address of the country (its street's highest number with it), for the homepage's samples. */
  sampleAddress(country: string): Promise<SampleAddress | undefined>;
  geocode(input: GeocodeInput): Promise<LocalHit[]>;
  autocomplete(input: AutocompleteInput): Promise<LocalHit[]>;
  /** The addresses nearest to a position within a radius, nearest first, with their distance (reverse.ts). */
  reverse(input: ReverseInput): Promise<(LocalHit & { distanceMeters: number })[]>;
  /** Geocodes about to be asked (a list's chunk): their look-ups at once where the store can (`primeGeocodes`). */
  prime(inputs: GeocodeInput[]): Promise<void>;
  /**
   * `recordOsmState` (an OSM extract): records what `applyOsmChange` needs while importing
   * (update/record-alongside.ts); `updateState` says how that went. A failed recording does not
   * fail the import: updates stay off, and the failure is noted for them to name.
   */
  importFile(path: string, opts: ImportOptions & { recordOsmState?: boolean }): Promise<ImportSummary & { updateState?: RecordedState }>;
  /**
   * After an OSM import: records what `applyOsmChange` needs from the extract (src/local-index/update/).
   * A failure is noted (updates name it when they refuse) and thrown saying that updates are off.
   */
  recordOsmState(path: string): Promise<{ ways: number; areas: number }>;
  /** After an OSM import with `--no-update-state`: notes why updates are off. */
  skipOsmState(path: string): Promise<void>;
  /** Applies an OsmChange file (`.osc`, `.osc.gz`) that follows the recorded extract. */
  applyOsmChange(path: string, opts: { country?: string }): Promise<UpdateSummary>;
  close(): Promise<void>;
}

/** PostgreSQL: how often the index state is re-checked against imports made by other processes. */
const REFRESH_MS = 2000;

/*
 * The import and update pipelines (the PBF reader, protocol buffers, the state recorder) are
 * loaded on first use: a server never runs them, and loading them was a fifth of its start's CPU
 * (issue 37: a restarted instance answers sooner).
 */
const importing = () => import('./import/run-import.js');
const updating = () => Promise.all([import('./update/apply-change.js'), import('./update/record-alongside.js'), import('./update/record-state.js')]);

export async function openLocalIndex(opts: LocalIndexOptions): Promise<LocalIndex> {
  const clock = opts.clock ?? systemClock;
  const now = () => new Date(clock.now());
  // Late-bound: another process's commit (NOTIFY) refreshes what `refresh` keeps, once it exists.
  let ready = false;
  const onChange = () => {
    if (ready) void refresh().catch(() => undefined);
  };
  const store: IndexStore = opts.databaseUrl
    ? await openPgStore(opts.databaseUrl, { schema: opts.schema, onError: opts.onError, connectTimeoutMs: opts.connectTimeoutMs, readUrl: opts.readUrl, ...(opts.follow ? { onChange } : {}) })
    : openSqliteStore(opts.dataDir);
  const override = opts.coveredCountries?.map((c) => c.toUpperCase()).sort();
  const withState = async <T>(work: (state: OsmStateStore) => Promise<T>): Promise<T> => {
    const state = await openOsmState(opts);
    try {
      return await work(state);
    } finally {
      await state.close();
    }
  };
  // SQLite's snapshot follows by itself (its version is read per macrotask); PostgreSQL's is
  // reloaded here when the version moved (and on NOTIFY).
  const refresh = async (): Promise<string[]> => {
    await store.version();
    return [...store.snapshot().countries];
  };
  await refresh();
  ready = true;
  // The CLI imports in its own process while the server runs: PostgreSQL re-checks in case a
  // notification was missed (a dropped listening connection, a replica behind the commit).
  const timer = store.kind === 'postgres' ? setInterval(() => void refresh().catch(() => undefined), REFRESH_MS) : undefined;
  timer?.unref();

  return {
    backend: store.kind,
    countries: refresh,
    knownCountries: () => store.snapshot().countries,
    covered: () => override ?? store.snapshot().covered,
    dataGeneration(country) {
      const snapshot = store.snapshot();
      return country === undefined ? snapshot.version : (snapshot.generations.get(country.toUpperCase()) ?? 0);
    },
    async status() {
      const [states, updates] = await Promise.all([store.countryStates(), withState((s) => s.updateStatus())]);
      const covered = override ?? store.snapshot().covered;
      return {
        backend: store.kind,
        covered: [...covered],
        updates,
        countries: states.map((c) => ({
          country: c.country,
          addresses: c.addresses,
          covered: covered.includes(c.country),
          source: c.source,
          importedAt: c.importedAt,
          lastChange: c.changeFile && c.changeAt ? { file: c.changeFile, at: c.changeAt } : null,
          updates: updates.extract !== null && c.source === updates.extract.file,
        })),
      };
    },
    count: () => store.count(),
    sampleAddress: (country) => store.sampleAddress(country.toUpperCase()),
    geocode: (input) => geocode(store, input),
    autocomplete: (input) => autocomplete(store, input),
    reverse: (input) => reverse(store, input),
    prime: (inputs) => primeGeocodes(store, inputs),
    async importFile(path, { recordOsmState: record, ...options }) {
      const at = options.at ?? now();
      const { runImport } = await importing();
      if (!record || options.format !== 'osm') {
        const summary = await runImport(store, path, { at, ...options });
        await refresh();
        return summary;
      }
      const [, { recordAlongside }] = await updating();
      return withState(async (state) => {
        const alongside = recordAlongside({ path, at: at.toISOString(), state });
        const summary = await runImport(store, path, { at, ...options, alongside });
        await refresh();
        const updateState = alongside.result();
        return updateState ? { ...summary, updateState } : summary;
      });
    },
    async recordOsmState(path) {
      const at = now().toISOString();
      const [, , { recordOsmState }] = await updating();
      return withState(async (state) => {
        try {
          return await recordOsmState(state, path, at);
        } catch (err) {
          const error = describeError(err);
          await state.recordFailure({ file: path, at, error });
          throw new Error(`${error}: the index holds ${path}, but updates are off until a full import of that extract completes (addressd import ${path})`, { cause: err });
        }
      });
    },
    async skipOsmState(path) {
      await withState((state) => state.recordFailure({ file: path, at: now().toISOString(), error: 'imported with --no-update-state' }));
    },
    async applyOsmChange(path, options) {
      const [{ applyOsmChange }] = await updating();
      return withState(async (state) => {
        const summary = await applyOsmChange(store, state, path, { at: now(), ...options });
        await refresh();
        return summary;
      });
    },
    async close() {
      if (timer) clearInterval(timer);
      await store.close();
    },
  };
}
