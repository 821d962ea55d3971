import { itemsFromWorker } from '../../lib/worker-stream.js';
import type { StateBatch } from './osm-state.js';
import type { StateReadOptions } from './state-reader.js';

/**
 * readOsmState() on a worker thread (state-worker.ts): decoding the extract and screening its
 * nodes overlap with the import's reader and the writes. The reader stays a few batches ahead at
 * most; node batches move between threads without a copy. `signal` stops it at once.
 */
export function readOsmStateInThread(path: string, opts: StateReadOptions = {}, signal?: AbortSignal): AsyncGenerator<StateBatch> {
  return itemsFromWorker<StateBatch>(new URL('./state-worker.mjs', import.meta.url), { path, opts }, {
    name: "The update state's reader thread",
    fail: (message) => new Error(message),
    ...(signal ? { signal } : {}),
  });
}
