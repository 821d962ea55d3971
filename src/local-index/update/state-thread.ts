import { Worker } from 'node:worker_threads';
import type { StateBatch } from './osm-state.js';
import type { StateReadOptions } from './state-reader.js';

/** Messages of the state reader's thread. */
export type FromStateReader = { type: 'batch'; batch: StateBatch } | { type: 'done' } | { type: 'error'; message: string };

type Event = FromStateReader | { type: 'exit'; code: number };

/**
 * readOsmState() on a worker thread: decoding the extract and screening its nodes (a quarter of
 * a recording's CPU) overlap with the import's reader and the writes. The reader stays a few
 * batches ahead at most; node batches move between threads without a copy.
 */
export async function* readOsmStateInThread(path: string, opts: StateReadOptions = {}, signal?: AbortSignal): AsyncGenerator<StateBatch> {
  if (signal?.aborted) return;
  const worker = new Worker(new URL('./state-worker.mjs', import.meta.url), { workerData: { path, opts } });
  // Stopped from outside (a failed import): the thread ends now, not at its next batch.
  const onAbort = () => push({ type: 'error', message: 'stopped' });
  signal?.addEventListener('abort', onAbort, { once: true });
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  const push = (event: Event) => {
    events.push(event);
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: FromStateReader) => push(message));
  worker.on('error', (err) => push({ type: 'error', message: err.message }));
  worker.on('exit', (code) => push({ type: 'exit', code }));
  try {
    for (;;) {
      while (events.length === 0) await new Promise<void>((r) => (wake = r));
      const event = events.shift()!;
      switch (event.type) {
        case 'batch':
          worker.postMessage('taken');
          yield event.batch;
          break;
        case 'done':
          return;
        case 'error':
          throw new Error(event.message);
        case 'exit':
          throw new Error(`The update state's reader thread stopped unexpectedly (exit code ${event.code})`);
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}
