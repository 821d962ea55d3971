import { deflateSync } from 'node:zlib';
import parsers from 'osm-pbf-parser/lib/parsers.js';

export interface PbfNode {
  id: number;
  lat: number;
  lon: number;
  tags?: Record<string, string>;
}

export interface PbfWay {
  id: number;
  refs: number[];
  tags?: Record<string, string>;
}

/** One file block: size, BlobHeader, zlib-compressed Blob (the PBF framing). */
function block(type: string, message: Buffer): Buffer {
  const blob = parsers.file.Blob.encode({ raw_size: message.length, zlib_data: deflateSync(message) });
  const header = parsers.file.BlobHeader.encode({ type, datasize: blob.length });
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, blob]);
}

export interface PbfRelation {
  id: number;
  members: { type: 'node' | 'way' | 'relation'; id: number; role: string }[];
  tags?: Record<string, string>;
}

const MEMBER_TYPE = { node: 0, way: 1, relation: 2 } as const;

/** A string table and the index of each string in it (index 0 is the empty string, as PBF wants). */
function stringTable(): { sid(s: string): number; table(): { s: Buffer[] } } {
  const strings = [''];
  return {
    sid(s) {
      let i = strings.indexOf(s);
      if (i < 0) i = strings.push(s) - 1;
      return i;
    },
    table: () => ({ s: strings.map((s) => Buffer.from(s, 'utf8')) }),
  };
}

/** Relations as a primitive group, with their strings in `st`. */
function relationGroup(relations: PbfRelation[], st: ReturnType<typeof stringTable>) {
  return relations.map((r) => ({
    id: r.id,
    keys: Object.keys(r.tags ?? {}).map(st.sid),
    vals: Object.values(r.tags ?? {}).map(st.sid),
    roles_sid: r.members.map((m) => st.sid(m.role)),
    memids: delta(r.members.map((m) => m.id)),
    types: r.members.map((m) => MEMBER_TYPE[m.type]),
  }));
}

/** Relations in their own block after nodes and ways, as sorted OSM files store them. */
function relationBlock(relations: PbfRelation[]): Buffer {
  const st = stringTable();
  const messages = relationGroup(relations, st);
  return block('OSMData', parsers.osm.PrimitiveBlock.encode({ stringtable: st.table(), primitivegroup: [{ relations: messages }], granularity: 100 }));
}

function delta(values: number[]): number[] {
  return values.map((v, i) => (i === 0 ? v : v - values[i - 1]!));
}

/**
 * Writes a small OpenStreetMap PBF (dense nodes, then ways, then relations) with the protobuf
 * codecs that osm-pbf-parser itself ships, so tests build their fixtures instead of committing binaries.
 */
export function writePbf(nodes: PbfNode[], ways: PbfWay[], relations: PbfRelation[] = [], opts: { relationsWithWays?: boolean } = {}): Buffer {
  const st = stringTable();
  const { sid, table } = st;
  const keysVals = nodes.flatMap((n) => [...Object.entries(n.tags ?? {}).flatMap(([k, v]) => [sid(k), sid(v)]), 0]);
  const dense = {
    id: delta(nodes.map((n) => n.id)),
    lat: delta(nodes.map((n) => Math.round(n.lat * 1e7))),
    lon: delta(nodes.map((n) => Math.round(n.lon * 1e7))),
    keys_vals: keysVals,
  };
  const wayMessages = ways.map((w) => ({
    id: w.id,
    keys: Object.keys(w.tags ?? {}).map(sid),
    vals: Object.values(w.tags ?? {}).map(sid),
    refs: delta(w.refs),
  }));
  // Real extracts may close a block with the last ways and the first relations (the Liechtenstein one does).
  const mixed = opts.relationsWithWays && relations.length > 0 ? [{ relations: relationGroup(relations, st) }] : [];
  const primitive = parsers.osm.PrimitiveBlock.encode({
    stringtable: table(),
    primitivegroup: [{ dense }, { ways: wayMessages }, ...mixed],
    granularity: 100,
  });
  const header = parsers.osm.HeaderBlock.encode({ required_features: ['OsmSchema-V0.6', 'DenseNodes'], writingprogram: 'addressd tests' });
  const blocks = [block('OSMHeader', header), block('OSMData', primitive)];
  if (relations.length > 0 && mixed.length === 0) blocks.push(relationBlock(relations));
  return Buffer.concat(blocks);
}
