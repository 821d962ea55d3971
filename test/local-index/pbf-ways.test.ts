import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OsmItem } from 'osm-pbf-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOsm } from '../../bench/scale/generate.js';
import { pbfBlocks, PbfDecoder } from '../../src/local-index/import/pbf-blocks.js';
import { readWayBlock } from '../../src/local-index/import/pbf-ways.js';

let dir: string;
let pbf: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pbf-ways-'));
  pbf = join(dir, 'country.osm.pbf');
  // Building ways with address tags (umlauts, several keys), untagged member ways, boundary relations.
  await generateOsm(pbf, { count: 6_000, towns: 6, sample: 5 });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The importer's passes over ways read them from the wire (pbf-ways.ts) rather than as osm-pbf-parser's objects. */
describe('readWayBlock', () => {
  it('gives every way of the file with the ids, tags and node lists osm-pbf-parser decodes', async () => {
    const decoder = new PbfDecoder();
    const expected: { id: number; tags: Record<string, string>; refs: number[] }[] = [];
    const read: typeof expected = [];
    let otherBlocks = 0;
    for await (const block of pbfBlocks(pbf)) {
      const items: OsmItem[] = decoder.decode(block);
      for (const item of items) if (item.type === 'way') expected.push({ id: item.id, tags: item.tags, refs: item.refs });
      const isWays = block.type === 'OSMData' && readWayBlock(block.data, (w) => read.push({ id: w.id, tags: w.tags(), refs: w.refs() }));
      if (!isWays) {
        otherBlocks++;
        // A block it declines (header, nodes, relations) holds no way.
        expect(items.filter((i) => i.type === 'way')).toEqual([]);
      }
    }
    expect(expected.length).toBeGreaterThan(5_000);
    expect(expected.some((w) => Object.keys(w.tags).length === 0)).toBe(true);
    expect(expected.some((w) => Object.keys(w.tags).length > 2)).toBe(true);
    expect(otherBlocks).toBeGreaterThan(1);
    expect(read).toEqual(expected);
  });
});
