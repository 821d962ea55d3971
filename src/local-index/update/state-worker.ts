import { workerData } from 'node:worker_threads';
import { serveItems } from '../../lib/worker-stream.js';
import { readOsmState, type StateReadOptions } from './state-reader.js';

const { path, opts } = workerData as { path: string; opts: StateReadOptions };
await serveItems(readOsmState(path, opts), { transfer: (batch) => (batch.kind === 'nodes' ? [batch.packed.buffer as ArrayBuffer] : []) });
