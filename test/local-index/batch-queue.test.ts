import { describe, expect, it } from 'vitest';
import { BatchQueue } from '../../src/local-index/update/batch-queue.js';

/** The hand-over between the import's loop and the update state's recording (record-alongside.ts). */
describe('BatchQueue', () => {
  it('hands every item over in order and ends after the last one', async () => {
    const queue = new BatchQueue<number>(2);
    const taken: number[] = [];
    const consumer = (async () => {
      for await (const item of queue) taken.push(item);
    })();
    for (let i = 0; i < 10; i++) await queue.put(i);
    queue.end();
    await consumer;
    expect(taken).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('holds the producer while the consumer is behind, and lets it on as items are taken', async () => {
    const queue = new BatchQueue<number>(1);
    await queue.put(1);
    let second = false;
    const putting = queue.put(2).then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    const items = queue[Symbol.asyncIterator]();
    expect((await items.next()).value).toBe(1);
    await putting;
    expect(second).toBe(true);
    expect((await items.next()).value).toBe(2);
  });

  it('once closed (the recording failed), lets a waiting producer on and takes nothing more', async () => {
    const queue = new BatchQueue<number>(1);
    await queue.put(1);
    const waiting = queue.put(2);
    queue.close();
    await waiting;
    await queue.put(3);
    await expect(queue[Symbol.asyncIterator]().next()).rejects.toThrow('stopped');
  });
});
