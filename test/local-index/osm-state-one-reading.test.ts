import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOsm } from '../../bench/scale/generate.js';
import { keyedChunks } from '../../src/local-index/import/keyed-chunks.js';
import { readOsmPbf } from '../../src/local-index/import/osm-pbf.js';
import { BatchQueue } from '../../src/local-index/update/batch-queue.js';
import type { StateBatch } from '../../src/local-index/update/osm-state.js';
import { StateCollector } from '../../src/local-index/update/state-collector.js';
import { readOsmState } from '../../src/local-index/update/state-reader.js';

let dir: string;
let pbf: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'osm-one-reading-'));
  pbf = join(dir, 'country.osm.pbf');
  await generateOsm(pbf, { count: 4_000, towns: 6, sample: 5 });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Issue 37: the import's reading of the PBF gathers the `--update` state too; it must be the state the state's own reader gives. */
describe('the update state from the import reading', () => {
  it('gives the batches the state reader gives, in the same order, and the same rows', async () => {
    const own = await all(readOsmState(pbf));
    const chunks = await all(keyedChunks(pbf, { format: 'osm', country: 'DE', recordState: true }));
    const alone = await all(keyedChunks(pbf, { format: 'osm', country: 'DE' }));
    expect(chunks.flatMap((c) => c.state)).toEqual(own);
    expect(own.at(-1)?.kind).toBe('areas');
    // The rows are the import's without the state.
    expect(chunks.flatMap((c) => c.keyed)).toEqual(alone.flatMap((c) => c.keyed));
    expect(alone.every((c) => c.state.length === 0)).toBe(true);
  });

  it('rides on the first of several node passes (a small node budget) and still gives the same state', async () => {
    const own = await all(readOsmState(pbf));
    const state = new StateCollector();
    const got: StateBatch[] = [];
    for await (const _ of readOsmPbf(pbf, 'DE', undefined, 2_000, state)) got.push(...state.take());
    got.push(...state.take());
    expect(got).toEqual(own);
  });
});

describe('BatchQueue', () => {
  it('holds the putter back while full, hands items on in order, and drops them once closed', async () => {
    const q = new BatchQueue<number>(2);
    await q.put(1);
    let second = false;
    const put = q.put(2).then(() => (second = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBe(false);
    const it = q[Symbol.asyncIterator]();
    expect((await it.next()).value).toBe(1);
    await put;
    expect(second).toBe(true);
    q.end();
    expect((await it.next()).value).toBe(2);
    expect((await it.next()).done).toBe(true);
    // Closed (the iteration ended): a put returns at once.
    await q.put(3);
  });

  it('lets a waiting put go when the writer stops', async () => {
    const q = new BatchQueue<number>(1);
    const put = q.put(1);
    q.close();
    await put;
  });
});
