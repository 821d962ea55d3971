import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.js';
import type { BulkCaller, LookupBatch, LookupOutcome, RowJob } from './row-lookup.js';
import { lookupWorkerEntry } from './worker-entry.js';

/** What every lookup thread is started with. */
export interface LookupSetup {
  config: Config;
  caller: BulkCaller;
  /** Rows each thread looks up at once (its provider calls in flight). */
  concurrency: number;
  /** One Int32: 1 once the run was asked to stop (Ctrl-C); each thread checks it before a row starts. */
  stop: SharedArrayBuffer;
}

export type ToWorker =
  | { type: 'open'; setup: LookupSetup }
  | { type: 'batch'; id: number; batch: LookupBatch }
  | { type: 'prime'; rows: RowJob[] }
  | { type: 'close' };
export type ToPool = { type: 'ready' } | { type: 'done'; id: number; outcome: LookupOutcome } | { type: 'failed'; id: number; message: string };

interface Thread {
  worker: Worker;
  busy: number;
}

/**
 * The lookup threads of a bulk run (`--workers`): the main thread reads, bills, journals and
 * writes; the threads search. Each batch goes to the thread with the fewest rows in hand. A thread
 * that fails or exits fails the batches it held (the run stops; its chunk was never settled, so
 * --resume runs it again).
 */
export class LookupPool {
  private readonly pending = new Map<number, { resolve: (o: LookupOutcome) => void; reject: (e: Error) => void; thread: Thread; rows: number }>();
  private nextId = 0;

  constructor(
    private readonly threads: Thread[],
    private readonly stopFlag: Int32Array,
  ) {
    for (const thread of threads) {
      thread.worker.on('message', (message: ToPool) => {
        if (message.type === 'ready') return;
        const job = this.pending.get(message.id);
        if (!job) return;
        this.pending.delete(message.id);
        job.thread.busy -= job.rows;
        if (message.type === 'done') job.resolve(message.outcome);
        else job.reject(new Error(`a lookup thread failed: ${message.message}`));
      });
      const lost = (why: string) => {
        for (const [id, job] of this.pending) {
          if (job.thread !== thread) continue;
          this.pending.delete(id);
          job.reject(new Error(`a lookup thread stopped: ${why}`));
        }
      };
      thread.worker.on('error', (error) => lost(error.message));
      thread.worker.on('exit', (code) => lost(`exit code ${code}`));
    }
  }

  /** Starts `count` threads and waits until each has opened its index and providers. */
  static async start(count: number, setup: Omit<LookupSetup, 'stop'>): Promise<LookupPool> {
    return (await LookupPool.spawn(count)).open(setup);
  }

  /**
   * Starts `count` threads that load their modules (most of a thread's start: ~0.3-0.8 s) while
   * the caller opens the database and the account; `open` then hands them their setup. The threads
   * open nothing before it: the main thread opens the index first (it may bring its schema up to
   * date, which the threads' read-only handles must not race).
   */
  static async spawn(count: number): Promise<SpawnedPool> {
    const entry = await lookupWorkerEntry();
    return new SpawnedPool(Array.from({ length: count }, () => new Worker(entry)));
  }

  get size(): number {
    return this.threads.length;
  }

  run(batch: LookupBatch): Promise<LookupOutcome> {
    return this.send(this.threads.reduce((a, b) => (b.busy < a.busy ? b : a)), batch);
  }

  /**
   * A chunk's equal parts (`equalParts`), part i to thread i: the thread that primed a part ahead
   * (`primeAhead`) looks it up.
   */
  runParts(parts: LookupBatch[]): Promise<LookupOutcome[]> {
    return Promise.all(parts.map((batch, i) => this.send(this.threads[i % this.threads.length]!, batch)));
  }

  /**
   * The next chunk's rows as `runParts` will give them, sent now so each thread reads and primes
   * its part while it still looks up the chunk before (primed-ahead.ts). Nothing comes back: the
   * rows are looked up only when their batch is sent, and answered the same either way.
   */
  primeAhead(parts: RowJob[][]): void {
    parts.forEach((rows, i) => {
      if (rows.length > 0) this.threads[i % this.threads.length]!.worker.postMessage({ type: 'prime', rows } satisfies ToWorker);
    });
  }

  private send(thread: Thread, batch: LookupBatch): Promise<LookupOutcome> {
    const id = this.nextId++;
    thread.busy += batch.rows.length;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, thread, rows: batch.rows.length });
      thread.worker.postMessage({ type: 'batch', id, batch } satisfies ToWorker);
    });
  }

  /** One batch for all threads together, each taking rows as it goes (`LookupBatch.shared`); the outcome of each. */
  runShared(batch: Omit<LookupBatch, 'shared'>, group: number): Promise<LookupOutcome[]> {
    const shared = { next: new SharedArrayBuffer(4), group };
    return Promise.all(this.threads.map((thread) => this.send(thread, { ...batch, shared })));
  }

  /** No thread starts another row (the rows running finish). */
  stop(): void {
    Atomics.store(this.stopFlag, 0, 1);
  }

  async close(): Promise<void> {
    await Promise.all(
      this.threads.map(async (t) => {
        const exited = new Promise<void>((resolve) => t.worker.once('exit', () => resolve()));
        t.worker.postMessage({ type: 'close' } satisfies ToWorker);
        // A thread that does not close its handles in time is ended: the run is over either way.
        const timer = setTimeout(() => void t.worker.terminate(), 5000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}

/** Threads loading their modules, not yet given their setup (`LookupPool.spawn`). */
export class SpawnedPool {
  /** Why a thread stopped while loading: its error or exit is kept for `open` (an unheard 'error' event would end the process). */
  private readonly lost: Promise<never>;

  constructor(private readonly workers: Worker[]) {
    this.lost = new Promise<never>((_, reject) => {
      for (const worker of workers) {
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`a lookup thread exited at start (code ${code})`)));
      }
    });
    // Heard once `open` waits on it; a rejection before that must not count as unhandled.
    this.lost.catch(() => undefined);
  }

  get size(): number {
    return this.workers.length;
  }

  /** Hands every thread its setup and waits until each has opened its index and providers. */
  async open(setup: Omit<LookupSetup, 'stop'>): Promise<LookupPool> {
    const stop = new SharedArrayBuffer(4);
    try {
      await Promise.race([this.lost, Promise.all(this.workers.map((w) => {
        const opened = ready(w);
        w.postMessage({ type: 'open', setup: { ...setup, stop } } satisfies ToWorker);
        return opened;
      }))]);
    } catch (error) {
      await this.terminate();
      throw error;
    }
    return new LookupPool(this.workers.map((worker) => ({ worker, busy: 0 })), new Int32Array(stop));
  }

  /** Ends the threads (the run stopped before they were opened). */
  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

function ready(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      worker.off('message', onMessage);
      worker.off('error', settle);
      worker.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (message: ToPool) => {
      if (message.type === 'ready') settle();
      else if (message.type === 'failed') settle(new Error(`a lookup thread could not start: ${message.message}`));
    };
    const onExit = (code: number) => settle(new Error(`a lookup thread exited at start (code ${code})`));
    worker.on('message', onMessage);
    worker.on('error', settle);
    worker.on('exit', onExit);
  });
}
