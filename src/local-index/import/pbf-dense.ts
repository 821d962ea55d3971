import { pbfBlocks, PbfDecoder, readingBlock, type PbfBlock } from './pbf-blocks.js';

/**
 * A direct reader of PBF node blocks (DenseNodes), for the importer's node passes. A country
 * file holds ~13 untagged nodes per address; decoding each into an object (osm-pbf-parser)
 * cost most of an OSM import's time and garbage. This walks the protobuf wire format once,
 * keeps only running sums, and hands out coordinates, and tags only for the nodes that have
 * some (strings decoded on first use). Blocks that hold anything else (ways, relations, non-dense nodes) are left to
 * osm-pbf-parser: `readDenseBlock` returns false for them without calling back.
 */

/** Protobuf wire reader over one uncompressed block; values exact up to 2^53 (ids, offsets). */
export class Wire {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  varint(): number {
    const b = this.buf;
    let byte = b[this.pos++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    do {
      byte = b[this.pos++]!;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80);
    return value;
  }
  /** zigzag (sint64) */
  svarint(): number {
    const v = this.varint();
    return v % 2 === 0 ? v / 2 : -(v + 1) / 2;
  }
  /** Skips a field of this wire type. */
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      // Not `this.pos += this.varint()`: that adds the length to the position from before the length was read.
      const length = this.varint();
      this.pos += length;
    }
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  /** A length-delimited field's [start, end). */
  range(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    return [start, start + length];
  }
}

export type DenseVisitor = (id: number, lat: number, lon: number, tags: Record<string, string> | undefined) => void;

/**
 * Calls `visit` for every node of a block made only of DenseNodes groups, in file order, with
 * the same coordinates osm-pbf-parser computes; `tags` only for tagged nodes.
 * Returns false, having called nothing, when the block holds other element kinds.
 */
export function readDenseBlock(data: Buffer, visit: DenseVisitor): boolean {
  const header = readHeader(data);
  if (!header) return false;
  const { strings, dense, granularity, latOffset, lonOffset } = header;
  const table = stringTable(data, strings);
  const NANO = 1e-9;
  const g = NANO * granularity;
  const latBase = NANO * latOffset;
  const lonBase = NANO * lonOffset;
  for (const [start, end] of dense) {
    const fields = new Map<number, [number, number]>();
    const d = new Wire(data, start, end);
    while (d.pos < d.end) {
      const key = d.varint();
      if ((key & 7) === 2) fields.set(key >>> 3, d.range());
      else d.skip(key & 7);
    }
    const ids = packed(data, fields.get(1));
    const lats = packed(data, fields.get(8));
    const lons = packed(data, fields.get(9));
    const kv = packed(data, fields.get(10));
    let id = 0;
    let lat = 0;
    let lon = 0;
    while (ids.pos < ids.end) {
      id += ids.svarint();
      lat += lats.svarint();
      lon += lons.svarint();
      // keys_vals: each node's key and value string indexes, then a 0 (absent when no node has tags).
      let tags: Record<string, string> | undefined;
      while (kv.pos < kv.end) {
        const k = kv.varint();
        if (k === 0) break;
        (tags ??= {})[table(k)] = table(kv.varint());
      }
      visit(id, latBase + g * lat, lonBase + g * lon, tags);
    }
  }
  return true;
}

interface BlockHeader {
  strings: [number, number] | undefined;
  dense: [number, number][];
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** The block's string table, DenseNodes groups and coordinate scale; undefined when it holds anything but dense nodes. */
function readHeader(data: Buffer): BlockHeader | undefined {
  const block = new Wire(data, 0, data.length);
  let strings: [number, number] | undefined;
  const groups: [number, number][] = [];
  let granularity = 100;
  let latOffset = 0;
  let lonOffset = 0;
  while (block.pos < block.end) {
    const key = block.varint();
    const field = Math.floor(key / 8);
    if (field === 1) strings = block.range();
    else if (field === 2) groups.push(block.range());
    else if (field === 17) granularity = block.varint();
    else if (field === 19) latOffset = varintSigned(block.varint());
    else if (field === 20) lonOffset = varintSigned(block.varint());
    else block.skip(key & 7);
  }
  const dense: [number, number][] = [];
  for (const [start, end] of groups) {
    const group = new Wire(data, start, end);
    while (group.pos < group.end) {
      const key = group.varint();
      if (key >>> 3 !== 2) return undefined;
      dense.push(group.range());
    }
  }
  return { strings, dense, granularity, latOffset, lonOffset };
}

/** Whether a block holds nodes only (DenseNodes): the ways pass skips it without reading a node. */
export function holdsOnlyNodes(data: Buffer): boolean {
  return readHeader(data) !== undefined;
}

/** int64 fields arrive as two's complement varints: a negative offset is 2^64 minus it. */
function varintSigned(v: number): number {
  return v >= 2 ** 63 ? v - 2 ** 64 : v;
}

export function packed(data: Buffer, range: [number, number] | undefined): Wire {
  return range ? new Wire(data, range[0], range[1]) : new Wire(data, 0, 0);
}

/** The block's strings, each decoded the first time a tagged element asks for it. */
export function stringTable(data: Buffer, range: [number, number] | undefined): (i: number) => string {
  const spans: [number, number][] = [];
  if (range) {
    const w = new Wire(data, range[0], range[1]);
    while (w.pos < w.end) {
      const key = w.varint();
      if (key >>> 3 === 1 && (key & 7) === 2) spans.push(w.range());
      else w.skip(key & 7);
    }
  }
  const decoded: (string | undefined)[] = [];
  return (i) => {
    let s = decoded[i];
    if (s === undefined) {
      const span = spans[i];
      s = decoded[i] = span ? data.toString('utf8', span[0], span[1]) : '';
    }
    return s;
  };
}

/** readDenseBlock on a block of the file (false for any block but dense nodes); a block it cannot read is the file's fault. */
export function readNodes(block: PbfBlock, visit: DenseVisitor): boolean {
  return block.type === 'OSMData' && readingBlock(block, () => readDenseBlock(block.data, visit));
}

/**
 * A pass over the file's nodes, stopping where they end: dense blocks read from the wire, any
 * other node block by osm-pbf-parser. `visit` is synchronous (a country has tens of millions of
 * nodes: a call that yields, or an array, per node cost more than reading them); the pass yields
 * after each block, so a caller can hand on what it gathered.
 */
export async function* nodePass(path: string, visit: DenseVisitor, onBytes?: (n: number) => void): AsyncGenerator<void> {
  const decoder = new PbfDecoder();
  for await (const block of pbfBlocks(path, onBytes)) {
    if (!readNodes(block, visit)) {
      const items = decoder.decode(block);
      if (items.length > 0 && items[0]!.type !== 'node') return;
      for (const item of items) if (item.type === 'node') visit(item.id, item.lat, item.lon, item.tags);
    }
    yield;
  }
}
