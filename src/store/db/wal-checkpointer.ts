import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * The SQLite main store's checkpoints, off the thread that answers requests.
 *
 * In WAL mode a commit appends pages to the log; SQLite's own automatic checkpoint then runs inside
 * the commit that crosses 1,000 pages, on the committing thread: it copies the log into the
 * database file and fsyncs both. better-sqlite3 is synchronous, so one billed call in every
 * 20-40 stalled the event loop for that copy and two fsyncs (7-18 ms at p99 on a plain disk,
 * measured: per-commit p99 7.2 ms with it, 0.6 ms without), and whichever request came next
 * waited. Here a worker thread with its own connection runs PASSIVE checkpoints every
 * `intervalMs`; the serving connection keeps an automatic checkpoint only as a fallback at
 * FALLBACK_PAGES (a thread that died or fell behind never lets the log grow without bound).
 */
export const FALLBACK_PAGES = 10_000;
/** Often enough that the log rarely holds more than a few hundred pages between two runs. */
export const CHECKPOINT_INTERVAL_MS = 200;

export interface CheckpointResult {
  /** Readers (or another checkpoint) kept part of the log from being copied. */
  busy: number;
  /** Pages in the log. */
  log: number;
  /** Pages of it now in the database file. */
  checkpointed: number;
}

export interface WalCheckpointerOptions {
  /** 0: only when asked (`now`), for tests that need to see the log grow. */
  intervalMs?: number;
  /** A checkpoint failed (a full disk, say); said once per run of failures. */
  onError?: (error: Error) => void;
  /** The first success after failures. */
  onRecovered?: () => void;
  /** Each checkpoint the thread ran on its own. */
  onRun?: (result: CheckpointResult) => void;
}

type Reply =
  | { type: 'done'; id: number; result: CheckpointResult }
  | { type: 'ran'; result: CheckpointResult }
  | { type: 'failed'; id?: number; error: string }
  | { type: 'recovered' };

export class WalCheckpointer {
  #next = 0;
  readonly #waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  #stopped = false;
  #exited = false;

  private constructor(
    private readonly worker: Worker,
    options: WalCheckpointerOptions,
  ) {
    worker.on('message', (reply: Reply) => {
      if (reply.type === 'recovered') return options.onRecovered?.();
      if (reply.type === 'ran') return options.onRun?.(reply.result);
      const waiting = reply.id === undefined ? undefined : this.#waiting.get(reply.id);
      if (reply.id !== undefined) this.#waiting.delete(reply.id);
      if (reply.type === 'done') return waiting?.resolve(reply.result);
      const error = new Error(`SQLite checkpoint failed: ${reply.error}`);
      if (waiting) waiting.reject(error);
      else options.onError?.(error);
    });
    // A thread that cannot run (the file went away, the module failed to load) leaves the
    // fallback checkpoint of the serving connection in charge; the operator hears of it.
    worker.on('error', (error) => {
      options.onError?.(new Error(`SQLite checkpoint thread stopped: ${error.message}`, { cause: error }));
      this.#failAll(error);
    });
    worker.on('exit', () => {
      this.#exited = true;
      this.#failAll(new Error('SQLite checkpoint thread exited'));
    });
  }

  /** Starts the thread on `file` (which must exist, in WAL mode). It never keeps the process alive. */
  static start(file: string, options: WalCheckpointerOptions = {}): WalCheckpointer {
    const worker = new Worker(new URL('./wal-checkpoint-thread.mjs', import.meta.url), {
      workerData: { file, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS },
    });
    worker.unref();
    return new WalCheckpointer(worker, options);
  }

  /** Checkpoints at once (on the thread) and says how far the log got. */
  now(): Promise<CheckpointResult> {
    if (this.#stopped) return Promise.reject(new Error('SQLite checkpoint thread stopped'));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'now', id });
    });
  }

  /** Stops the thread after the checkpoint it may be running; closing the database checkpoints the rest. */
  async stop(): Promise<void> {
    if (this.#exited) return;
    this.#stopped = true;
    const exited = once(this.worker, 'exit').catch(() => undefined);
    // Held while it stops: a caller awaiting this at the end of a script (nothing else left to
    // run) would otherwise see its process exit under it, with the await unsettled.
    this.worker.ref();
    this.worker.postMessage({ type: 'stop' });
    await exited;
  }

  #failAll(error: Error): void {
    this.#stopped = true;
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}
