import { workerData } from 'node:worker_threads';
import { serveItems } from '../../lib/worker-stream.js';
import { ImportFormatError } from '../types.js';
import { keyedChunks, type ReadOptions } from './keyed-chunks.js';
import { chunkTransfer, packChunk } from './packed-chunk.js';

const { path, opts } = workerData as { path: string; opts: ReadOptions };

async function* packed() {
  for await (const chunk of keyedChunks(path, opts)) yield packChunk(chunk);
}
await serveItems(packed(), { isFormat: (err) => err instanceof ImportFormatError, transfer: chunkTransfer });
