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

function delta(values: number[]): number[] {
  return values.map((v, i) => (i === 0 ? v : v - values[i - 1]!));
}

/**
 * Writes a small OpenStreetMap PBF (dense nodes, then ways) with the protobuf codecs that
 * osm-pbf-parser itself ships, so tests build their fixtures instead of committing binaries.
 */
export function writePbf(nodes: PbfNode[], ways: PbfWay[]): Buffer {
  const strings = [''];
  const sid = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
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
  const primitive = parsers.osm.PrimitiveBlock.encode({
    stringtable: { s: strings.map((s) => Buffer.from(s, 'utf8')) },
    primitivegroup: [{ dense }, { ways: wayMessages }],
    granularity: 100,
  });
  const header = parsers.osm.HeaderBlock.encode({ required_features: ['OsmSchema-V0.6', 'DenseNodes'], writingprogram: 'addressd tests' });
  return Buffer.concat([block('OSMHeader', header), block('OSMData', primitive)]);
}
