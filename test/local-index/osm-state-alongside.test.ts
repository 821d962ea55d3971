import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateOsm } from '../../bench/scale/generate.js';
import { runImport } from '../../src/local-index/import/run-import.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore, SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { openOsmState } from '../../src/local-index/update/open-state.js';
import type { StateBatch } from '../../src/local-index/update/osm-state.js';
import { recordAlongside } from '../../src/local-index/update/record-alongside.js';
import { recordOsmState } from '../../src/local-index/update/record-state.js';
import { readOsmState } from '../../src/local-index/update/state-reader.js';
import { coordsFromArray, coordsFromBlob, pointAt } from '../../src/local-index/update/way-coords.js';
import { STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { addressRows, comparable } from './support/index-rows.js';

interface StateRows {
  ways: { id: number; tags: string; refs: number[] }[];
  /** The coordinates the ways hold for their nodes, by node (the same in every way that uses one). */
  nodes: { id: number; lat: number; lng: number }[];
  areas: { id: number; value: string; rings: string }[];
  /** Distinct node ids the ways use. */
  used: number;
}

/** The nodes' coordinates as the ways keep them beside their node lists (1e-7 degrees). */
function nodesOf(ways: { refs: number[]; coords: Int32Array }[]): StateRows['nodes'] {
  const nodes = new Map<number, { id: number; lat: number; lng: number }>();
  for (const w of ways) {
    w.refs.forEach((id, i) => {
      const p = pointAt(w.coords, i);
      if (!p) return;
      const seen = nodes.get(id);
      // A node two ways share has the same coordinates in both.
      if (seen) expect([seen.lat, seen.lng]).toEqual(p);
      else nodes.set(id, { id, lat: p[0], lng: p[1] });
    });
  }
  return [...nodes.values()].sort((a, b) => a.id - b.id);
}

/** The recorded update state, table by table, in id order. */
async function stateRows(sandbox: Sandbox): Promise<StateRows> {
  if (!sandbox.databaseUrl) {
    const db = new Database(join(sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
    try {
      const rows = db.prepare('SELECT id, tags, refs, coords FROM osm_ways ORDER BY id').all() as { id: number; tags: string; refs: string; coords: Buffer | null }[];
      const ways = rows.map((w) => ({ id: w.id, tags: w.tags, refs: JSON.parse(w.refs) as number[] }));
      const nodes = nodesOf(ways.map((w, i) => ({ refs: w.refs, coords: coordsFromBlob(rows[i]!.coords, w.refs.length) })));
      const areas = db.prepare('SELECT id, value, rings FROM osm_areas ORDER BY id').all() as StateRows['areas'];
      return { ways, nodes, areas, used: new Set(ways.flatMap((w) => w.refs)).size };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: sandbox.databaseUrl });
  await client.connect();
  try {
    await client.query(`SET search_path = ${sandbox.schema}`);
    const rows = (await client.query<{ id: string; tags: string; refs: string[]; coords: (number | null)[] | null }>('SELECT id, tags, refs, coords FROM local_osm_ways ORDER BY id')).rows;
    const ways = rows.map((w) => ({ id: Number(w.id), tags: w.tags, refs: w.refs.map(Number) }));
    const nodes = nodesOf(ways.map((w, i) => ({ refs: w.refs, coords: coordsFromArray(rows[i]!.coords, w.refs.length) })));
    const areas = (await client.query<{ id: string; value: string; rings: string }>('SELECT id, value, rings FROM local_osm_areas ORDER BY id')).rows.map((a) => ({ ...a, id: Number(a.id) }));
    return { ways, nodes, areas, used: new Set(ways.flatMap((w) => w.refs)).size };
  } finally {
    await client.end();
  }
}

const stateOf = (box: IndexSandbox) => openOsmState({ dataDir: box.sandbox.dataDir, databaseUrl: box.sandbox.databaseUrl, schema: box.sandbox.schema });

// A generated extract: building ways (several thousand: many write batches), address nodes,
// municipality boundaries; node blocks of 8,000 nodes (more than a state batch).
let dir: string;
let pbf: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'osm-alongside-'));
  pbf = join(dir, 'country.osm.pbf');
  await generateOsm(pbf, { count: 12_000, towns: 12, sample: 5 });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Issue 30 item 3: the `--update` state is recorded while the extract is imported, not in passes after it. */
describe.each(STORAGE_BACKENDS)('OSM update state recorded during the import (%s)', (backend) => {
  let box: IndexSandbox;
  let other: IndexSandbox;
  beforeEach(async () => {
    [box, other] = await Promise.all([openIndexSandbox(backend), openIndexSandbox(backend)]);
  });
  afterEach(async () => {
    await Promise.all([box.close(), other.close()]);
  });

  it('records the same state as a recording after the import, with the nodes located in one pass or several', async () => {
    const summary = await box.index.importFile(pbf, { format: 'osm', country: 'DE', recordOsmState: true });
    // Twelve municipalities and the country.
    expect(summary.updateState).toMatchObject({ ways: expect.any(Number), areas: 13 });
    await other.index.importFile(pbf, { format: 'osm', country: 'DE' });
    const state = await stateOf(other);
    try {
      // Nodes located in several passes, as on a country whose ways' nodes do not fit one.
      await recordOsmState(state, pbf, new Date().toISOString(), { nodeBudget: 20_000 });
    } finally {
      await state.close();
    }
    const during = await stateRows(box.sandbox);
    const after = await stateRows(other.sandbox);
    expect(during.ways.length).toBe((summary.updateState as { ways: number }).ways);
    expect(during.ways.length).toBeGreaterThan(8_000);
    expect(during).toEqual(after);
    // Every node a way uses, and no other: the file holds them all.
    expect(during.nodes.length).toBe(during.used);
    expect((await box.index.status()).updates.extract?.file).toBe(pbf);
  });

  it('a re-import records over the earlier state (row by row, unchanged rows kept) and ends with the same state', async () => {
    await box.index.importFile(pbf, { format: 'osm', country: 'DE', recordOsmState: true });
    const first = await stateRows(box.sandbox);
    const again = await box.index.importFile(pbf, { format: 'osm', country: 'DE', recordOsmState: true });
    expect(again.updateState).toMatchObject({ ways: first.ways.length });
    expect(await stateRows(box.sandbox)).toEqual(first);
    expect((await box.index.status()).updates.extract?.file).toBe(pbf);
  });

  it('a recording that fails does not fail the import: the state is withdrawn and the failure noted', async () => {
    const store = backend === 'sqlite' ? openSqliteStore(box.sandbox.dataDir) : await openPgStore(box.sandbox.databaseUrl!, { schema: box.sandbox.schema });
    const state = await stateOf(box);
    try {
      await box.index.importFile(pbf, { format: 'osm', country: 'DE', recordOsmState: true });
      // Half of the state read, then the reading fails (a disk error, say).
      async function* failing(path: string): AsyncGenerator<StateBatch> {
        let n = 0;
        for await (const batch of readOsmState(path)) {
          if (++n === 3) throw new Error('read error on the state disk');
          yield batch;
        }
      }
      const alongside = recordAlongside({ path: pbf, at: '2026-11-27T10:00:00.000Z', state, read: failing });
      const summary = await runImport(store, pbf, { format: 'osm', country: 'DE', alongside });
      expect(summary.unchanged).toBeGreaterThan(10_000);
      expect(alongside.result()).toEqual({ error: expect.stringContaining('read error on the state disk') });
      const status = await state.updateStatus();
      expect(status.extract).toBeNull();
      expect(status.failed).toMatchObject({ file: pbf, error: expect.stringContaining('read error on the state disk') });
    } finally {
      await state.close();
      await store.close();
    }
  });

  it('a failed import leaves the index and the recorded state as they were', async () => {
    await box.index.importFile(pbf, { format: 'osm', country: 'DE', recordOsmState: true });
    const [rows, recorded, status] = [await addressRows(box.sandbox), await stateRows(box.sandbox), (await box.index.status()).updates];
    // The same extract cut off halfway through: the import's reader fails on it.
    const truncated = join(dir, 'truncated.osm.pbf');
    copyFileSync(pbf, truncated);
    const bytes = readFileSync(truncated);
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(box.index.importFile(truncated, { format: 'osm', country: 'DE', recordOsmState: true })).rejects.toThrow();
    expect(comparable(await addressRows(box.sandbox))).toEqual(comparable(rows));
    expect(await stateRows(box.sandbox)).toEqual(recorded);
    expect((await box.index.status()).updates).toEqual(status);
  });
});
