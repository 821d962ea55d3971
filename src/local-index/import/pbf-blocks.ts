import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import osm, { type OsmItem } from 'osm-pbf-parser';
import parsers from 'osm-pbf-parser/lib/parsers.js';
import { ImportFormatError } from '../types.js';

const inflateAsync = promisify(inflate);
const NOT_PBF = 'Not an OpenStreetMap PBF file';
/** Size limits of the PBF format: a BlobHeader is under 64 KiB, a Blob under 32 MiB. */
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;
/** zlib's output piece sizes: its least, and ours for a block that declares no size. */
const MIN_CHUNK = 64;
const DEFAULT_CHUNK = 1024 * 1024;

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether a file starts like a PBF file: a 4-byte size, then a BlobHeader of type `OSMHeader`. */
export function looksLikePbf(head: Buffer): boolean {
  if (head.length < 4) return false;
  const size = head.readUInt32BE(0);
  if (size === 0 || size > 256 || 4 + size > head.length) return false;
  try {
    return parsers.file.BlobHeader.decode(head.subarray(4, 4 + size)).type === 'OSMHeader';
  } catch {
    return false;
  }
}

/** Reads the first block header: a PBF file starts with a small `OSMHeader` block. */
export async function checkPbfHeader(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4 + 256);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (bytesRead < 4) throw new ImportFormatError(`${NOT_PBF}: the file is too short`);
    if (!looksLikePbf(head.subarray(0, bytesRead))) throw new ImportFormatError(`${NOT_PBF}: no OSMHeader block at the start`);
  } finally {
    await file.close();
  }
}

interface Block {
  type: string;
  /** File offset of the block (its size field), for error messages. */
  offset: number;
  blob: Record<string, unknown>;
}

/**
 * Splits the PBF byte stream into file blocks (4-byte size, BlobHeader, Blob). Done here
 * rather than by osm-pbf-parser's BlobParser because that one cannot tell a file that ends
 * inside a block from a complete one: a truncated download would import part of the data,
 * and with `--replace` delete the rest.
 */
class BlockSplitter {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Bytes needed before the next block can be framed. */
  private need = 4;
  /** File offset of the first buffered byte. */
  private offset = 0;

  write(chunk: Buffer): Block[] {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length < this.need) return [];
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
    const blocks: Block[] = [];
    let pos = 0;
    for (;;) {
      const framed = this.frame(buf, pos);
      if (typeof framed === 'number') {
        this.need = framed;
        break;
      }
      blocks.push(framed.block);
      pos = framed.end;
    }
    const rest = buf.subarray(pos);
    this.offset += pos;
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return blocks;
  }

  /** Throws when the stream ended inside a block. */
  end(): void {
    if (this.length > 0) {
      throw new ImportFormatError(`Truncated PBF file: it ends inside the block at byte ${this.offset} (${this.length} of ${this.need} bytes present)`);
    }
  }

  /** The block at `pos`, or the number of bytes (from `pos`) needed to frame it. */
  private frame(buf: Buffer, pos: number): { block: Block; end: number } | number {
    const at = this.offset + pos;
    const avail = buf.length - pos;
    if (avail < 4) return 4;
    const headerSize = buf.readUInt32BE(pos);
    if (headerSize === 0 || headerSize > MAX_HEADER) throw new ImportFormatError(`Corrupt PBF file: bad block header size ${headerSize} at byte ${at}`);
    if (avail < 4 + headerSize) return 4 + headerSize;
    let type: unknown;
    let datasize: unknown;
    try {
      ({ type, datasize } = parsers.file.BlobHeader.decode(buf.subarray(pos + 4, pos + 4 + headerSize)));
    } catch (err) {
      throw new ImportFormatError(`Corrupt PBF block header at byte ${at}: ${describe(err)}`);
    }
    if (typeof type !== 'string' || typeof datasize !== 'number' || datasize < 0 || datasize > MAX_BLOB) {
      throw new ImportFormatError(`Corrupt PBF block header at byte ${at}`);
    }
    const total = 4 + headerSize + datasize;
    if (avail < total) return total;
    let blob: Record<string, unknown>;
    try {
      blob = parsers.file.Blob.decode(buf.subarray(pos + 4 + headerSize, pos + total));
    } catch (err) {
      throw new ImportFormatError(`Corrupt PBF block at byte ${at}: ${describe(err)}`);
    }
    return { block: { type, offset: at, blob }, end: pos + total };
  }
}

/**
 * The uncompressed content of a block: raw or zlib (the two encodings PBF writers use). A block
 * may not inflate past the format's 32 MiB nor past the `raw_size` it declares: a 600 KB file of
 * zeros would otherwise take gigabytes (issue 36). The declared size is checked before inflating,
 * and zlib stops at the bound (maxOutputLength), so nothing past it is ever allocated.
 */
async function blockData(block: Block): Promise<Buffer> {
  const { raw, zlib_data: zlib, raw_size: rawSize } = block.blob;
  if (Buffer.isBuffer(raw)) return raw;
  if (!Buffer.isBuffer(zlib)) throw new ImportFormatError(`Unsupported PBF block at byte ${block.offset}: only raw and zlib blocks are read`);
  const declared = typeof rawSize === 'number' && rawSize > 0 ? rawSize : undefined;
  if (declared !== undefined && declared > MAX_BLOB) {
    throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: it declares ${declared} bytes uncompressed, over the format's limit of ${MAX_BLOB} (32 MiB)`);
  }
  const limit = declared ?? MAX_BLOB;
  try {
    // The output in one piece of the declared size: zlib's default pieces of 16 KiB cost a
    // callback each into JavaScript (some 60 a block) and a join at the end.
    return await inflateAsync(zlib, { maxOutputLength: limit, chunkSize: Math.max(MIN_CHUNK, Math.min(limit, declared ?? DEFAULT_CHUNK)) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      const what = declared === undefined ? `the format's limit of ${MAX_BLOB} bytes (32 MiB)` : `the ${declared} bytes it declares`;
      throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: it inflates past ${what} (a decompression bomb or a damaged file)`);
    }
    throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: ${describe(err)}`);
  }
}

/** Runs a reader of one block's contents; what it cannot read is the file's fault (ImportFormatError, naming the block). */
export function readingBlock<T>(block: PbfBlock, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: ${describe(err)}`);
  }
}

/** One uncompressed block of a PBF file. */
export interface PbfBlock {
  type: string;
  offset: number;
  data: Buffer;
}

/**
 * Blocks inflated ahead of the one being read. Inflating runs on libuv's thread pool: waiting for
 * each block in turn left the reading thread idle for a third of a pass (on the 1M country:
 * 10 s of its first passes held 3 s of waiting), while another core had nothing to do. A few
 * blocks ahead (each at most 32 MiB, most about a megabyte) keep memory bounded.
 */
const AHEAD = 3;

/**
 * Streams the uncompressed blocks of a PBF file (constant memory), for readers that decode them
 * their own way, in order, the next AHEAD already inflating. Data blocks before byte `from` (a
 * block's offset an earlier pass noted) are framed but neither inflated nor yielded: a pass over
 * the ways need not inflate the nodes. A damaged file fails where it did, after every block
 * before the damage.
 */
export async function* pbfBlocks(path: string, onBytes?: (n: number) => void, from = 0): AsyncGenerator<PbfBlock> {
  const splitter = new BlockSplitter();
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  const ahead: { type: string; offset: number; data: Promise<Buffer> }[] = [];
  const next = async (): Promise<PbfBlock> => {
    const { type, offset, data } = ahead.shift()!;
    return { type, offset, data: await data };
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      let blocks: Block[];
      try {
        blocks = splitter.write(chunk);
      } catch (err) {
        while (ahead.length > 0) yield await next();
        throw err;
      }
      for (const block of blocks) {
        if (block.offset < from && block.type === 'OSMData') continue;
        const data = blockData(block);
        // Its failure is thrown when its turn comes (below), not as an unhandled rejection now.
        data.catch(() => undefined);
        ahead.push({ type: block.type, offset: block.offset, data });
        while (ahead.length > AHEAD) yield await next();
      }
      onBytes?.(input.bytesRead);
    }
    while (ahead.length > 0) yield await next();
    splitter.end();
  } finally {
    input.destroy();
  }
}

/** Decodes blocks into elements with osm-pbf-parser's decoder (fed the file's header block first). */
export class PbfDecoder {
  private readonly primitives = new osm.PrimitivesParser();

  decode(block: PbfBlock): OsmItem[] {
    try {
      this.primitives.write({ type: block.type, data: block.data });
    } catch (err) {
      throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: ${describe(err)}`);
    }
    const out: OsmItem[] = [];
    let items: OsmItem[] | null;
    while ((items = this.primitives.read() as OsmItem[] | null) !== null) out.push(...items);
    return out;
  }
}

/**
 * Streams the elements of a PBF file, one decoded block at a time (constant memory),
 * decoded by osm-pbf-parser's decoder driven directly rather than through its piped
 * streams, so that a corrupt block becomes an error here instead of an uncaught throw.
 */
export async function* pbfElements(path: string, onBytes?: (n: number) => void): AsyncGenerator<OsmItem[]> {
  const decoder = new PbfDecoder();
  for await (const block of pbfBlocks(path, onBytes)) {
    const items = decoder.decode(block);
    if (items.length > 0) yield items;
  }
}
