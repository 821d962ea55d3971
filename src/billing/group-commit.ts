import { newId } from '../lib/ids.js';

/**
 * What a failed batch means. `retry`: the database is away or the commit's outcome is unknown —
 * the same batch, under the same id, is written again after a pause (the writer's `commit` makes a
 * re-run of a batch that did commit write nothing: see CreditLedger). `refused`: the database
 * refused it while running it (bad data, a bug), nothing was written and nothing ever will be.
 */
export type FailureKind = 'retry' | 'refused';

export interface GroupCommitOptions<T = unknown> {
  /** Items per transaction at most. */
  maxBatch?: number;
  /**
   * How long a batch short of `maxBatch` waits for more items before it is written (default 0: at
   * once). Cut short whenever someone waits for the writes (`flushed`, `submit`, `stop`) or the
   * batch fills: only writes nobody waits for are held, so they share one transaction.
   */
  lingerMs?: number;
  /**
   * Whether an item may be held for `lingerMs` (default: all): one a crash would lose for good is
   * written without it, and everything accepted before it with it.
   */
  mayLinger?: (item: T) => boolean;
  /** Items held (waiting or being written) before `enqueue` waits for room: back-pressure, never a drop. */
  maxQueued?: number;
  /** Default: every failure is `refused`. */
  classify?: (error: unknown) => FailureKind;
  /** The pause before retry number `attempt` (1, 2, …) of a batch. */
  pause?: (attempt: number) => Promise<void>;
  /** A batch failed and will be written again. */
  onRetry?: (error: unknown, attempt: number) => void;
  /** Items given up: refused, or still failing when a shutdown's grace ran out. */
  onDropped?: (error: unknown, items: number) => void;
  /** Items held, after every change: the queue-length gauge. */
  onLength?: (length: number) => void;
}

interface Waiting<T> {
  item: T;
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** 50 ms, doubling up to 2 s: a database restart is waited out without hammering it. */
const backoff = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** Math.min(attempt - 1, 6))));

/**
 * Group commit, in the background: items submitted while a batch is being written, or in the same
 * turn of the event loop, go together, so under load many requests share one transaction and at
 * rest each goes at once (the wait is one turn of the loop), unless `lingerMs` lets writes nobody
 * waits for gather for a few milliseconds more. `enqueue` resolves as soon
 * as the item is accepted — a request answers without waiting for its write — and hands back
 * `written`, which settles once the item's batch committed (or it was given up).
 *
 * Every batch gets an id (`commit(items, batchId)`). A batch that failed for a transient reason is
 * written again, same items, same id, until it commits; the writer's commit must make that re-run
 * a no-op when the first run did commit after all (CreditLedger records the id with the batch).
 * A batch refused on its first run is split: each item alone, so one bad item is the only one lost.
 * The queue is bounded: when full, `enqueue` waits for room. `stop` drains it.
 */
export class GroupCommit<T> {
  #queue: Waiting<T>[] = [];
  #running: Promise<void> | undefined;
  #held = 0;
  #seq = 0;
  #doneThrough = 0;
  #givenUp = false;
  /** The last batch failed and waits to be written again: the database is away. */
  #failing = false;
  #room: (() => void)[] = [];
  #flushes: { seq: number; resolve: () => void }[] = [];
  /** Ends the current linger (see GroupCommitOptions.lingerMs); unset while none runs. */
  #hurry: (() => void) | undefined;
  /** Someone waits for the writes: no linger until everything held now is written. */
  #urgentThrough = 0;
  private readonly maxBatch: number;
  private readonly maxQueued: number;

  constructor(
    private readonly commit: (items: T[], batchId: string) => Promise<void>,
    private readonly options: GroupCommitOptions<T> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.maxQueued = Math.max(1, options.maxQueued ?? 10_000);
  }

  /** Items waiting or being written. */
  get length(): number {
    return this.#held;
  }

  /**
   * Accepts `item` (waiting first while the queue is full); `written` settles once it is durable,
   * or rejects when it was given up. Nobody needs to listen to `written`: a loss is reported to
   * onDropped.
   */
  async enqueue(item: T): Promise<{ written: Promise<void> }> {
    while (this.#held >= this.maxQueued) await new Promise<void>((resolve) => this.#room.push(resolve));
    this.#held++;
    this.options.onLength?.(this.#held);
    const written = new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, seq: ++this.#seq, resolve, reject });
    });
    written.catch(() => undefined);
    if (this.options.mayLinger?.(item) === false) this.#urge();
    else if (this.#queue.length >= this.maxBatch) this.#hurry?.();
    this.#running ??= this.#drain();
    return { written };
  }

  /** Resolves once `item` is written (the old, waiting way: tests, and callers that must know). */
  async submit(item: T): Promise<void> {
    const { written } = await this.enqueue(item);
    this.#urge();
    await written;
  }

  /** Everything held now is wanted on disk soon: written without lingering. */
  #urge(): void {
    this.#urgentThrough = this.#seq;
    this.#hurry?.();
  }

  /** The linger before a batch short of maxBatch (GroupCommitOptions.lingerMs), unless someone waits for it. */
  async #linger(): Promise<void> {
    const ms = this.options.lingerMs ?? 0;
    if (ms <= 0 || this.#queue.length >= this.maxBatch || this.#urgentThrough > this.#doneThrough) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#hurry?.(), ms);
      this.#hurry = () => {
        clearTimeout(timer);
        this.#hurry = undefined;
        resolve();
      };
    });
  }

  /**
   * Resolves once everything accepted before this call is written or given up (read your own
   * writes); at once while the database is away (a batch failed and waits to be retried, or fails
   * while this waits): a reader then fails on its own read rather than wait for the database with
   * the writer.
   */
  flushed(): Promise<void> {
    const seq = this.#seq;
    if (this.#doneThrough >= seq || this.#failing) return Promise.resolve();
    this.#urge();
    return new Promise((resolve) => this.#flushes.push({ seq, resolve }));
  }

  /** Resolves once nothing is waiting or being written. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /**
   * Shutdown: writes everything held; a batch still failing `graceMs` after this call is given
   * up (reported to onDropped) so a database that never comes back cannot hold the process.
   */
  async stop(graceMs: number): Promise<void> {
    const timer = setTimeout(() => {
      this.#givenUp = true;
    }, graceMs);
    this.#urge();
    try {
      await this.idle();
    } finally {
      clearTimeout(timer);
    }
  }

  async #drain(): Promise<void> {
    // Let every request that arrived in this turn of the event loop join the first batch: an
    // embedded SQLite commit finishes within microtasks, before the next request could arrive.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      await this.#linger();
      const batch = this.#queue.splice(0, this.maxBatch);
      await this.#write(batch, newId('batch'));
    }
    this.#running = undefined;
  }

  async #write(batch: Waiting<T>[], batchId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commit(
          batch.map((w) => w.item),
          batchId,
        );
        this.#done(batch);
        return;
      } catch (error) {
        const kind = this.options.classify?.(error) ?? 'refused';
        if (kind === 'retry' && !this.#givenUp) {
          this.#failing = true;
          // Whoever waits to read after these writes reads now, and fails on its own read (see flushed).
          for (const f of this.#flushes.splice(0)) f.resolve();
          this.options.onRetry?.(error, attempt);
          await (this.options.pause ?? backoff)(attempt);
          continue;
        }
        // Split only a batch that never ran before: after an unknown outcome its items keep their id.
        if (kind === 'refused' && attempt === 1 && batch.length > 1) {
          for (const w of batch) await this.#write([w], newId('batch'));
          return;
        }
        this.options.onDropped?.(error, batch.length);
        this.#done(batch, error);
        return;
      }
    }
  }

  #done(batch: Waiting<T>[], error?: unknown): void {
    for (const w of batch) {
      if (error === undefined) w.resolve();
      else w.reject(error);
    }
    this.#failing = false;
    this.#held -= batch.length;
    this.#doneThrough = Math.max(this.#doneThrough, batch[batch.length - 1]?.seq ?? 0);
    this.options.onLength?.(this.#held);
    for (const wake of this.#room.splice(0, Math.max(0, this.maxQueued - this.#held))) wake();
    const due = this.#flushes.filter((f) => f.seq <= this.#doneThrough);
    this.#flushes = this.#flushes.filter((f) => f.seq > this.#doneThrough);
    for (const f of due) f.resolve();
  }
}
