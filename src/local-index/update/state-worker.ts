import { parentPort, workerData } from 'node:worker_threads';
import { readOsmState, type StateReadOptions } from './state-reader.js';
import type { FromStateReader } from './state-thread.js';

/** Batches posted but not yet taken by the writer: bounds memory when the store is the slower side. */
const MAX_AHEAD = 8;

const port = parentPort!;
const { path, opts } = workerData as { path: string; opts: StateReadOptions };
let ahead = 0;
let resume: (() => void) | undefined;
port.on('message', () => {
  ahead--;
  resume?.();
  resume = undefined;
});
const post = (message: FromStateReader) => port.postMessage(message, message.type === 'batch' && message.batch.kind === 'nodes' ? [message.batch.packed.buffer as ArrayBuffer] : []);

try {
  for await (const batch of readOsmState(path, opts)) {
    post({ type: 'batch', batch });
    ahead++;
    while (ahead >= MAX_AHEAD) await new Promise<void>((r) => (resume = r));
  }
  post({ type: 'done' });
} catch (err) {
  post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
}
