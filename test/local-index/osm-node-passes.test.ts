import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOsmPbf } from '../../src/local-index/import/osm-pbf.js';
import type { ReaderItem } from '../../src/local-index/types.js';
import { osmBoundariesFixture } from './support/osm-boundaries-fixture.js';
import { osmFixture } from './support/osm-fixture.js';

/**
 * A country's address ways need more node coordinates than memory should hold: the reader
 * then takes them in several node passes, a group of ways at a time. Whatever the grouping,
 * every address gets the same place (its ways' centres, the boundaries around it).
 */
const work = mkdtempSync(join(tmpdir(), 'osm-node-passes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function read(file: string, budget?: number, recordState = false): Promise<ReaderItem[]> {
  const out: ReaderItem[] = [];
  for await (const items of readOsmPbf(file, undefined, undefined, { nodeBudget: budget, recordState })) out.push(...items);
  return out;
}

describe('OSM reader node passes', () => {
  it.each([
    ['addresses on ways and nodes', osmFixture()],
    ['addresses placed by boundaries', osmBoundariesFixture()],
  ])('reads %s the same in one node pass as in one pass per way', async (_, pbf) => {
    const file = join(work, `${_.replace(/\W/g, '-')}.osm.pbf`);
    writeFileSync(file, pbf);
    const once = await read(file);
    expect(once.filter((i) => i.kind !== 'bad').length).toBeGreaterThan(3);
    // A budget of one node reference: every way is a group of its own.
    expect(await read(file, 1)).toEqual(once);
  });

  it.each([
    ['addresses on ways and nodes', osmFixture()],
    ['addresses placed by boundaries', osmBoundariesFixture()],
  ])('reads %s and their update state the same whether the ways\' node lists wait in memory, in the staging file or both', async (_, pbf) => {
    const file = join(work, `${_.replace(/\W/g, '-')}-state.osm.pbf`);
    writeFileSync(file, pbf);
    const once = await read(file, undefined, true);
    expect(once.some((i) => i.kind === 'state')).toBe(true);
    // Half the budget is kept in memory: 1 keeps none, 12 the first way or two, 40 some more.
    for (const budget of [1, 12, 40]) expect(await read(file, budget, true)).toEqual(once);
  });
});
