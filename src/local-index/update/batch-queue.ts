/**
 * Hands the update state's batches from the import's reading (the chunks it receives) to the
 * state's writer, which drains them at its own pace on its own connection. `put` resolves once
 * fewer than `max` batches wait, so a slow writer holds the import's reading back (as the state's
 * own reader thread was held) instead of gathering the whole state in memory; once the writer
 * has stopped (`close`: finished or failed) `put` drops batches at once, so the import never
 * waits on a recording that ended.
 */
export class BatchQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private closed = false;
  private wake: (() => void) | undefined;
  private room: (() => void) | undefined;

  constructor(private readonly max = 4) {}

  async put(item: T): Promise<void> {
    if (this.closed || this.ended) return;
    this.items.push(item);
    this.signal();
    while (!this.closed && this.items.length >= this.max) await new Promise<void>((r) => (this.room = r));
  }

  /** No more items: the iteration ends once they are taken. */
  end(): void {
    this.ended = true;
    this.signal();
  }

  /** The writer stopped: items are dropped from now on, and a waiting `put` returns. */
  close(): void {
    this.closed = true;
    this.items.length = 0;
    this.signal();
    this.freeRoom();
  }

  private signal(): void {
    this.wake?.();
    this.wake = undefined;
  }

  private freeRoom(): void {
    this.room?.();
    this.room = undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    try {
      for (;;) {
        const item = this.items.shift();
        if (item !== undefined) {
          this.freeRoom();
          yield item;
          continue;
        }
        if (this.ended || this.closed) return;
        await new Promise<void>((r) => (this.wake = r));
      }
    } finally {
      this.close();
    }
  }
}
