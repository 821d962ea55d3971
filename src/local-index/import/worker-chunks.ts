import { Worker } from 'node:worker_threads';
import { ImportFormatError } from '../types.js';
import type { KeyedChunk, ReadOptions } from './keyed-chunks.js';
import { type PackedChunk, unpackChunk } from './packed-chunk.js';

/** Messages of the reader thread. */
export type FromReader =
  | { type: 'chunk'; chunk: PackedChunk }
  | { type: 'done' }
  | { type: 'error'; format: boolean; message: string };

type Event = FromReader | { type: 'exit'; code: number };

/**
 * keyedChunks() run in a worker thread: parsing and keying (about 60 % of an import's CPU)
 * then overlap with the store's writes on another core. The reader stays a few chunks ahead
 * at most; its errors arrive as they would in-process (a format error stays one).
 */
export async function* keyedChunksInWorker(path: string, opts: ReadOptions): AsyncGenerator<KeyedChunk> {
  const worker = new Worker(new URL('./read-worker.mjs', import.meta.url), { workerData: { path, opts } });
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  const push = (event: Event) => {
    events.push(event);
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: FromReader) => push(message));
  worker.on('error', (err) => push({ type: 'error', format: false, message: err.message }));
  worker.on('exit', (code) => push({ type: 'exit', code }));
  try {
    for (;;) {
      while (events.length === 0) await new Promise<void>((r) => (wake = r));
      const event = events.shift()!;
      switch (event.type) {
        case 'chunk':
          worker.postMessage('taken');
          yield unpackChunk(event.chunk);
          break;
        case 'done':
          return;
        case 'error':
          throw event.format ? new ImportFormatError(event.message) : new Error(event.message);
        case 'exit':
          throw new Error(`The import's reader thread stopped unexpectedly (exit code ${event.code})`);
      }
    }
  } finally {
    await worker.terminate();
  }
}
