import { parentPort, Worker } from 'node:worker_threads';

/** Messages of a worker that streams items to its parent (serveItems). */
export type FromWorker<T> = { type: 'item'; item: T } | { type: 'done' } | { type: 'error'; format: boolean; message: string };

type Event<T> = FromWorker<T> | { type: 'exit'; code: number };

/** Items posted but not yet taken by the parent: bounds memory when the parent is the slower side. */
const MAX_AHEAD = 8;

/**
 * In the worker: posts each item of `items` to the parent, staying at most a few items ahead of
 * what it has taken; `transfer` names the buffers an item hands over without a copy. An error
 * reaches the parent as a message (`format`: the input's fault, which `isFormat` tells).
 */
export async function serveItems<T>(items: AsyncIterable<T>, opts: { transfer?: (item: T) => ArrayBuffer[]; isFormat?: (err: unknown) => boolean } = {}): Promise<void> {
  const port = parentPort!;
  let ahead = 0;
  let resume: (() => void) | undefined;
  port.on('message', () => {
    ahead--;
    resume?.();
    resume = undefined;
  });
  const post = (message: FromWorker<T>) => port.postMessage(message, message.type === 'item' && opts.transfer ? opts.transfer(message.item) : []);
  try {
    for await (const item of items) {
      post({ type: 'item', item });
      ahead++;
      while (ahead >= MAX_AHEAD) await new Promise<void>((r) => (resume = r));
    }
    post({ type: 'done' });
  } catch (err) {
    post({ type: 'error', format: opts.isFormat?.(err) ?? false, message: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * In the parent: the items a worker started on `entry` serves (serveItems), in order. The worker
 * ends when the iteration does (finished, broken off, or `signal` aborted: then at once, not at
 * its next item); its error is rethrown as `fail` makes it.
 */
export async function* itemsFromWorker<T>(
  entry: URL,
  workerData: unknown,
  opts: { fail: (message: string, format: boolean) => Error; name: string; signal?: AbortSignal },
): AsyncGenerator<T> {
  if (opts.signal?.aborted) return;
  const worker = new Worker(entry, { workerData });
  const events: Event<T>[] = [];
  let wake: (() => void) | undefined;
  const push = (event: Event<T>) => {
    events.push(event);
    wake?.();
    wake = undefined;
  };
  const onAbort = () => push({ type: 'error', format: false, message: 'stopped' });
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('message', (message: FromWorker<T>) => push(message));
  worker.on('error', (err) => push({ type: 'error', format: false, message: err.message }));
  worker.on('exit', (code) => push({ type: 'exit', code }));
  try {
    for (;;) {
      while (events.length === 0) await new Promise<void>((r) => (wake = r));
      const event = events.shift()!;
      switch (event.type) {
        case 'item':
          worker.postMessage('taken');
          yield event.item;
          break;
        case 'done':
          return;
        case 'error':
          throw opts.fail(event.message, event.format);
        case 'exit':
          throw new Error(`${opts.name} stopped unexpectedly (exit code ${event.code})`);
      }
    }
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}
