import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToPrimary } from '../../src/cluster-messages.js';
import type { Change } from '../../src/store/changes/index.js';
import { ClusterChangeFeed } from '../../src/store/changes/cluster-change-feed.js';
import { ClusterRateLimiter } from '../../src/store/limits/cluster-limiter.js';

/** The worker side of the cluster's IPC, with the primary played by the test. */
const inbox = new EventEmitter();
const fromPrimary = (message: unknown) => inbox.emit('message', message);
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('ClusterChangeFeed', () => {
  it('hears its own changes at once, sends them to the primary, and hears the other workers through it', async () => {
    const sent: ToPrimary[] = [];
    const feed = new ClusterChangeFeed((m) => sent.push(m), inbox);
    closers.push(() => feed.close());
    const heard: Change[] = [];
    feed.subscribe((c) => heard.push(c));
    feed.publish({ topic: 'credentials', id: 'acc_1' });
    expect(heard).toEqual([{ topic: 'credentials', id: 'acc_1' }]);
    expect(sent).toEqual([{ addressd: 'change', change: { topic: 'credentials', id: 'acc_1' } }]);
    fromPrimary({ addressd: 'change', change: { topic: 'account', id: 'acc_2' } });
    fromPrimary({ addressd: 'change', change: { topic: 'nonsense', id: 3 } });
    fromPrimary('not ours');
    expect(heard).toEqual([
      { topic: 'credentials', id: 'acc_1' },
      { topic: 'account', id: 'acc_2' },
    ]);
  });
});

describe('ClusterRateLimiter', () => {
  it('asks the primary for each hit and answers with what it says', async () => {
    const sent: ToPrimary[] = [];
    const limiter = new ClusterRateLimiter((m) => (sent.push(m), true), inbox);
    closers.push(() => limiter.close());
    const windows = [{ name: 'minute', max: 1, periodSeconds: 60 }];
    const first = limiter.hit('widget:token:t', windows, 1000);
    const second = limiter.hit('widget:token:t', windows, 1001, 5);
    // A batch's items are one message: the primary counts them together, all or nothing.
    expect(sent).toMatchObject([
      { addressd: 'limit', checks: [{ key: 'widget:token:t', windows }], nowMs: 1000, count: 1 },
      { addressd: 'limit', checks: [{ key: 'widget:token:t', windows }], nowMs: 1001, count: 5 },
    ]);
    const [a, b] = sent as Array<Extract<ToPrimary, { addressd: 'limit' }>>;
    fromPrimary({ addressd: 'limit-result', id: b!.id, result: { allowed: false, exhausted: [[{ name: 'minute', max: 1, periodSeconds: 60, retryAfterSeconds: 60 }]] } });
    fromPrimary({ addressd: 'limit-result', id: a!.id, result: { allowed: true, exhausted: [[]] } });
    expect(await first).toEqual({ allowed: true, exhausted: [] });
    expect((await second).allowed).toBe(false);
  });

  it("sends a request's several limits as one message, and hands back each key's full windows", async () => {
    const sent: ToPrimary[] = [];
    const limiter = new ClusterRateLimiter((m) => (sent.push(m), true), inbox);
    closers.push(() => limiter.close());
    const windows = [{ name: 'minute', max: 120, periodSeconds: 60 }];
    const hit = limiter.hitAll([{ key: 'widget:token:t', windows }, { key: 'widget:origin:https://a.example', windows }], 1000);
    expect(sent).toMatchObject([{ addressd: 'limit', checks: [{ key: 'widget:token:t', windows }, { key: 'widget:origin:https://a.example', windows }], nowMs: 1000, count: 1 }]);
    const full = { name: 'minute', max: 120, periodSeconds: 60, retryAfterSeconds: 7 };
    fromPrimary({ addressd: 'limit-result', id: (sent[0] as { id: number }).id, result: { allowed: false, exhausted: [[], [full]] } });
    expect(await hit).toEqual({ allowed: false, exhausted: [[], [full]] });
  });

  it('fails closed when the primary cannot be reached or answers with an error', async () => {
    const unreachable = new ClusterRateLimiter(() => false, inbox);
    closers.push(() => unreachable.close());
    await expect(unreachable.hit('k', [{ name: 'minute', max: 1, periodSeconds: 60 }], 0)).rejects.toThrow(/unreachable/);

    const sent: ToPrimary[] = [];
    const failing = new ClusterRateLimiter((m) => (sent.push(m), true), inbox);
    closers.push(() => failing.close());
    const hit = failing.hit('k', [{ name: 'minute', max: 1, periodSeconds: 60 }], 0);
    fromPrimary({ addressd: 'limit-result', id: (sent[0] as { id: number }).id, error: 'bad windows' });
    await expect(hit).rejects.toThrow(/bad windows/);
  });
});
