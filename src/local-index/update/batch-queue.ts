/**
 * Items handed from a producer that must not wait long (the import's loop) to a consumer that
 * writes them (the state's recording), in order. `put` waits only while `max` items are
 * waiting; `close` (the consumer failed, or the import stopped) drops what is left and lets
 * every put through, so a producer never waits on a consumer that is gone.
 */
export class BatchQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private closed = false;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducer: (() => void) | undefined;

  constructor(private readonly max = 4) {}

  async put(item: T): Promise<void> {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
    while (this.items.length > this.max && !this.closed) await new Promise<void>((r) => (this.wakeProducer = r));
  }

  /** No more items: the consumer ends after the last one. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.items.length = 0;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        this.wakeProducer?.();
        this.wakeProducer = undefined;
        yield item;
        continue;
      }
      if (this.closed) throw new Error('stopped');
      if (this.ended) return;
      await new Promise<void>((r) => (this.wakeConsumer = r));
    }
  }

  private wake(): void {
    this.wakeConsumer?.();
    this.wakeConsumer = undefined;
    this.wakeProducer?.();
    this.wakeProducer = undefined;
  }
}
