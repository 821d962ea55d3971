import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import osm, { type OsmItem, type RawBlob } from 'osm-pbf-parser';
import parsers from 'osm-pbf-parser/lib/parsers.js';
import { ImportFormatError } from '../types.js';

const inflateAsync = promisify(inflate);
const NOT_PBF = 'Not an OpenStreetMap PBF file';

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reads the first block header: a PBF file starts with a small `OSMHeader` block. */
export async function checkPbfHeader(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4 + 256);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead < 4) throw new ImportFormatError(`${NOT_PBF}: the file is too short`);
    const size = head.readUInt32BE(0);
    if (size === 0 || size > 256 || 4 + size > bytesRead) throw new ImportFormatError(`${NOT_PBF}: no block header at the start`);
    let type: unknown;
    try {
      type = parsers.file.BlobHeader.decode(head.subarray(4, 4 + size)).type;
    } catch (err) {
      throw new ImportFormatError(`${NOT_PBF}: ${describe(err)}`);
    }
    if (type !== 'OSMHeader') throw new ImportFormatError(`${NOT_PBF}: first block is ${JSON.stringify(type)}, not OSMHeader`);
  } finally {
    await file.close();
  }
}

/**
 * Streams the elements of a PBF file, one decoded block at a time (constant memory). It
 * drives osm-pbf-parser's block splitter and decoder directly rather than through its
 * piped streams, so that a corrupt block becomes an error here instead of an uncaught throw.
 */
export async function* pbfElements(path: string, onBytes?: (n: number) => void): AsyncGenerator<OsmItem[]> {
  const blobs = new osm.BlobParser();
  const primitives = new osm.PrimitivesParser();
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      try {
        blobs.write(chunk);
      } catch (err) {
        throw new ImportFormatError(`Corrupt PBF file: ${describe(err)}`);
      }
      let blob: RawBlob | null;
      while ((blob = blobs.read() as RawBlob | null) !== null) {
        let data: Buffer;
        try {
          data = await inflateAsync(blob.zlib_data);
          primitives.write({ type: blob.type, data });
        } catch (err) {
          throw new ImportFormatError(`Corrupt PBF block at byte ${blob.offset}: ${describe(err)}`);
        }
        let items: OsmItem[] | null;
        while ((items = primitives.read() as OsmItem[] | null) !== null) yield items;
      }
      onBytes?.(input.bytesRead);
    }
  } finally {
    input.destroy();
  }
}
