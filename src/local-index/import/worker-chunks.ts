import { itemsFromWorker } from '../../lib/worker-stream.js';
import { ImportFormatError } from '../types.js';
import type { KeyedChunk, ReadOptions } from './keyed-chunks.js';
import { type PackedChunk, unpackChunk } from './packed-chunk.js';

/**
 * keyedChunks() run in a worker thread (read-worker.ts): parsing and keying (about 60 % of an
 * import's CPU) then overlap with the store's writes on another core. The reader stays a few
 * chunks ahead at most; its errors arrive as they would in-process (a format error stays one).
 */
export async function* keyedChunksInWorker(path: string, opts: ReadOptions): AsyncGenerator<KeyedChunk> {
  const chunks = itemsFromWorker<PackedChunk>(new URL('./read-worker.mjs', import.meta.url), { path, opts }, {
    name: "The import's reader thread",
    fail: (message, format) => (format ? new ImportFormatError(message) : new Error(message)),
  });
  for await (const chunk of chunks) yield unpackChunk(chunk);
}
