/**
 * The commit of a batch failed after its work was done (the COMMIT itself, or the connection
 * lost on the way): it may or may not have landed, so its items must not be written again.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super(`commit outcome unknown: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CommitOutcomeUnknown';
  }
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted while a batch is being written, or in the same turn of the event
 * loop, go together, so under load many requests share one transaction and at rest each goes at
 * once (no timer; the wait is one turn of the loop). Every `submit` resolves only once the transaction holding its item
 * committed: nothing is acknowledged that is not durable.
 *
 * A failed batch: when the transaction failed before its commit (it rolled back, nothing was
 * written), each item is retried alone, so one bad item fails only its own request and the
 * others still land exactly once. When the outcome of the commit is unknown (CommitOutcomeUnknown)
 * every item of the batch fails without a retry: retrying could write it twice.
 */
export class GroupCommit<T> {
  #queue: Waiting<T>[] = [];
  #running: Promise<void> | undefined;

  constructor(
    private readonly commit: (items: T[]) => Promise<void>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /** Resolves once everything submitted so far is written (or failed). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    // Let every request that arrived in this turn of the event loop join the first batch: an
    // embedded SQLite commit finishes within microtasks, before the next request could arrive.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxBatch);
      await this.#write(batch);
    }
    this.#running = undefined;
  }

  async #write(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.commit(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (error) {
      if (batch.length === 1 || error instanceof CommitOutcomeUnknown) {
        for (const w of batch) w.reject(error);
        return;
      }
      for (const w of batch) await this.#write([w]);
    }
  }
}
