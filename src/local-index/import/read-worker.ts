import { parentPort, workerData } from 'node:worker_threads';
import { ImportFormatError } from '../types.js';
import { keyedChunks, type ReadOptions } from './keyed-chunks.js';
import { packChunk } from './packed-chunk.js';
import type { FromReader } from './worker-chunks.js';

/** Chunks posted but not yet taken by the writer: bounds memory when the store is the slower side. */
const MAX_AHEAD = 8;

const port = parentPort!;
const { path, opts } = workerData as { path: string; opts: ReadOptions };
let ahead = 0;
let resume: (() => void) | undefined;
port.on('message', () => {
  ahead--;
  resume?.();
  resume = undefined;
});
const post = (message: FromReader) => port.postMessage(message);

try {
  for await (const chunk of keyedChunks(path, opts)) {
    post({ type: 'chunk', chunk: packChunk(chunk) });
    ahead++;
    while (ahead >= MAX_AHEAD) await new Promise<void>((r) => (resume = r));
  }
  post({ type: 'done' });
} catch (err) {
  post({ type: 'error', format: err instanceof ImportFormatError, message: err instanceof Error ? err.message : String(err) });
}
