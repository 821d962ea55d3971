import type { OsmRelation, OsmWay } from 'osm-pbf-parser';
import { pbfBlocks, PbfDecoder, readingBlock, type PbfBlock } from './pbf-blocks.js';
import { holdsOnlyNodes, packed, stringTable, Wire } from './pbf-dense.js';

/**
 * A direct reader of PBF way blocks, as pbf-dense.ts is for node blocks. The passes over ways
 * look at every way of a country (tens of millions with the untagged ones) and keep few: decoding
 * each into an object with its tags and node list (osm-pbf-parser) cost more than the rest of a
 * pass. Here a way is a view over its bytes: its id is read, its tags and node ids only when asked.
 */
/** A way of the file: its id, and its tags and node ids when asked. */
export interface WayLike {
  readonly id: number;
  readonly tagged: boolean;
  tags(): Record<string, string>;
  refs(): number[];
}

export class WayView implements WayLike {
  id = 0;
  /** [start, end) of the packed keys, values and node ids in the block. */
  private keys: [number, number] | undefined;
  private vals: [number, number] | undefined;
  private refRange: [number, number] | undefined;

  constructor(
    private readonly data: Buffer,
    private readonly table: (i: number) => string,
  ) {}

  /** Reads the way message in [start, end): its id now, the rest on demand. */
  load(start: number, end: number): void {
    this.id = 0;
    this.keys = this.vals = this.refRange = undefined;
    const w = new Wire(this.data, start, end);
    while (w.pos < w.end) {
      const key = w.varint();
      const field = key >>> 3;
      if (field === 1) this.id = w.varint();
      else if (field === 2 && (key & 7) === 2) this.keys = w.range();
      else if (field === 3 && (key & 7) === 2) this.vals = w.range();
      else if (field === 8 && (key & 7) === 2) this.refRange = w.range();
      else w.skip(key & 7);
    }
  }

  get tagged(): boolean {
    return this.keys !== undefined && this.keys[1] > this.keys[0];
  }

  tags(): Record<string, string> {
    const out: Record<string, string> = {};
    if (!this.tagged) return out;
    const k = packed(this.data, this.keys);
    const v = packed(this.data, this.vals);
    while (k.pos < k.end) out[this.table(k.varint())] = this.table(v.varint());
    return out;
  }

  /** The node ids, in order (delta coded in the file). */
  refs(): number[] {
    const out: number[] = [];
    const r = packed(this.data, this.refRange);
    let id = 0;
    while (r.pos < r.end) out.push((id += r.svarint()));
    return out;
  }
}

/**
 * Calls `visit` for every way of a block made only of way groups, in file order, with the same
 * ids, tags and node lists osm-pbf-parser gives; the view is reused from way to way (read what
 * is needed inside the call). Returns false, having called nothing, when the block holds
 * anything else (nodes, relations): those are left to osm-pbf-parser.
 */
export function readWayBlock(data: Buffer, visit: (way: WayView) => void): boolean {
  const block = new Wire(data, 0, data.length);
  let strings: [number, number] | undefined;
  const groups: [number, number][] = [];
  while (block.pos < block.end) {
    const key = block.varint();
    const field = key >>> 3;
    if (field === 1 && (key & 7) === 2) strings = block.range();
    else if (field === 2 && (key & 7) === 2) groups.push(block.range());
    else block.skip(key & 7);
  }
  const ways: [number, number][] = [];
  for (const [start, end] of groups) {
    const group = new Wire(data, start, end);
    while (group.pos < group.end) {
      const key = group.varint();
      if (key >>> 3 !== 3 || (key & 7) !== 2) return false;
      ways.push(group.range());
    }
  }
  if (ways.length === 0) return false;
  const view = new WayView(data, stringTable(data, strings));
  for (const [start, end] of ways) {
    view.load(start, end);
    visit(view);
  }
  return true;
}

/** readWayBlock on a block of the file; a block it cannot read is the file's fault (ImportFormatError). */
export function readWays(block: PbfBlock, visit: (way: WayView) => void): boolean {
  return block.type === 'OSMData' && readingBlock(block, () => readWayBlock(block.data, visit));
}

/**
 * Where a file's node blocks end: the offset of its first data block that holds anything but
 * nodes, as the first pass that reads every block finds it (`see` each such block), so that
 * later passes over the ways skip the node blocks unread. Until one is seen, nothing is skipped.
 */
export class WaysStart {
  offset = 0;
  private found = false;
  see(offset: number): void {
    if (this.found) return;
    this.found = true;
    this.offset = offset;
  }
}

/**
 * The ways and relations of a file, block by block (yielding after each, so a caller can hand
 * on what it gathered): ways to `way` as views, relations to `relation` as osm-pbf-parser's
 * objects; node blocks are skipped (unread before `from`). With `relation` absent the pass stops
 * at the relations.
 */
export async function* wayPass(
  path: string,
  way: (w: WayLike) => void,
  opts: { relation?: (r: OsmRelation) => void; onBytes?: (n: number) => void; from?: WaysStart } = {},
): AsyncGenerator<void> {
  const { relation, onBytes, from } = opts;
  const decoder = new PbfDecoder();
  for await (const block of pbfBlocks(path, onBytes, from?.offset)) {
    if (block.type === 'OSMData') {
      if (holdsOnlyNodes(block.data)) continue;
      from?.see(block.offset);
      if (readWays(block, way)) {
        yield;
        continue;
      }
    }
    const items = decoder.decode(block);
    // A block may hold the last ways and the first relations (osmium writes such blocks): its ways count too.
    let relations = false;
    for (const item of items) {
      if (item.type === 'relation') {
        relations = true;
        relation?.(item);
      } else if (item.type === 'way') way(objectView(item));
    }
    yield;
    if (relations && !relation) return;
  }
}

/** A decoded way (a block mixing kinds, which osm-pbf-parser read) behind the same interface. */
function objectView(item: OsmWay): WayLike {
  return { id: item.id, tagged: Object.keys(item.tags).length > 0, tags: () => item.tags, refs: () => item.refs };
}
