import { LRUCache } from 'lru-cache';
import type { Clock } from '../lib/clock.js';
import type { ChangeFeed } from '../store/changes/index.js';
import type { Balance } from './credit-ledger.js';

/**
 * The shared quota gate (SPEC: 429 once the account is exhausted) from a balance read at most
 * `ttlMs` ago, instead of two queries on every request. The gate only decides whether a request
 * may start; it never spends: a billed call still reserves its credits exactly (credit-ledger.ts),
 * so a stale "has credits" can only let a free call (a cache hit, /v1/usage) through, for at most
 * `ttlMs` after the account ran out. A reservation that found nothing marks the account exhausted
 * at once; credits given back here, a plan change or purchased credits (the change feed) make it
 * read again at once. Another instance's refund reaches this gate within `ttlMs`: near exhaustion
 * it may refuse for that long while credits held by calls in flight come back.
 */
export class QuotaGate {
  readonly #balances: LRUCache<string, Balance> | undefined;

  constructor(
    private readonly read: (accountId: string) => Promise<Balance>,
    clock: Clock,
    ttlMs: number,
    changes?: ChangeFeed,
    maxAccounts = 50_000,
  ) {
    if (ttlMs <= 0) return;
    this.#balances = new LRUCache<string, Balance>({ max: maxAccounts, ttl: ttlMs, perf: { now: () => clock.now() }, ttlResolution: 0 });
    changes?.subscribe((change) => {
      if (change.topic === 'account') this.#balances?.delete(change.id);
    });
  }

  /** The account's balance as the gate sees it (cached up to ttlMs). */
  async balance(accountId: string): Promise<Balance> {
    const cached = this.#balances?.get(accountId);
    if (cached) return cached;
    const balance = await this.read(accountId);
    this.#balances?.set(accountId, balance);
    return balance;
  }

  /** What a reservation just learnt (the account has nothing left, say). */
  learn(accountId: string, balance: Balance): void {
    this.#balances?.set(accountId, balance);
  }

  /**
   * Credits came back (a call charged less than it reserved, or failed): what the gate saw while
   * they were held is stale, possibly "exhausted". Read again next time.
   */
  refunded(accountId: string): void {
    this.#balances?.delete(accountId);
  }

  /** Credits this process just charged: the cached balance follows, so one instance's gate is exact. */
  spent(accountId: string, credits: number): void {
    const cached = this.#balances?.get(accountId);
    if (!cached || credits <= 0) return;
    const balance = { ...cached, usedThisMonth: cached.usedThisMonth + credits, available: Math.max(0, cached.available - credits) };
    this.#balances?.set(accountId, balance, { noUpdateTTL: true });
  }
}
