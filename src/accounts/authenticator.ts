import { LRUCache } from 'lru-cache';
import type { Clock } from '../lib/clock.js';
import { sha256Hex } from '../lib/ids.js';
import type { ChangeFeed } from '../store/changes/index.js';
import type { Account, AccountStore } from './accounts.js';
import type { PublishableTokenStore, VerifiedToken } from './publishable-tokens.js';
import { type KeyCheck, SECRET_KEY_PATTERN, type SecretKeyStore, type VerifiedKey } from './secret-keys.js';

export type SecretKeyAuth = { ok: true; key: VerifiedKey; account: Account } | Extract<KeyCheck, { ok: false }>;

type Entry = { key: VerifiedKey; account: Account } | VerifiedToken | true;

/**
 * Credentials verified from a short-lived in-process cache (AUTH_CACHE_MS), so the hot path does
 * not ask the database who a key belongs to on every request. Only successes are kept (a failure
 * is asked again next time). Bound: a key or token revoked anywhere stops working on every
 * instance within AUTH_CACHE_MS — sooner, at once, when the change feed carries the revocation
 * (the same process, the cluster's workers, or every instance sharing Redis). A change of any
 * credential or account empties the whole cache: changes are rare, requests are not.
 */
export class Authenticator {
  readonly #cache: LRUCache<string, Entry> | undefined;
  /**
   * Look-ups of a key in flight: the requests that arrive together once its entry expired (every
   * connection of a busy client at once) share one database read instead of making one each.
   */
  readonly #verifying = new Map<string, Promise<SecretKeyAuth>>();
  /** Bumped by every change: a look-up that started before one is not kept or shared after it. */
  #generation = 0;

  constructor(
    private readonly deps: { secretKeys: SecretKeyStore; tokens: PublishableTokenStore; accounts: AccountStore; clock: Clock; changes: ChangeFeed },
    ttlMs: number,
    maxEntries = 50_000,
  ) {
    if (ttlMs <= 0) return;
    const clock = deps.clock;
    // lru-cache memoizes "now" for a while unless told otherwise; an injected clock is read every time.
    this.#cache = new LRUCache<string, Entry>({ max: maxEntries, ttl: ttlMs, perf: { now: () => clock.now() }, ttlResolution: 0 });
    deps.changes.subscribe(() => {
      this.#generation += 1;
      this.#verifying.clear();
      this.#cache?.clear();
    });
  }

  /** A secret key and its account (thresholds, plan), or why it is refused. */
  async secretKey(presented: string): Promise<SecretKeyAuth> {
    // Malformed keys never reach the cache or the database.
    if (!SECRET_KEY_PATTERN.test(presented)) return { ok: false, reason: 'malformed' };
    const cacheKey = `key:${sha256Hex(presented)}`;
    const cached = this.#cache?.get(cacheKey);
    if (cached && typeof cached === 'object' && 'account' in cached) return { ok: true, ...cached };
    if (!this.#cache) return this.#verify(presented);
    const pending = this.#verifying.get(cacheKey);
    if (pending) return pending;
    const generation = this.#generation;
    const verifying = this.#verify(presented).then((result) => {
      if (result.ok && generation === this.#generation) this.#cache?.set(cacheKey, { key: result.key, account: result.account });
      return result;
    });
    this.#verifying.set(cacheKey, verifying);
    const forget = () => {
      if (this.#verifying.get(cacheKey) === verifying) this.#verifying.delete(cacheKey);
    };
    verifying.then(forget, forget);
    return verifying;
  }

  async #verify(presented: string): Promise<SecretKeyAuth> {
    const check = await this.deps.secretKeys.verify(presented);
    if (!check.ok) return check;
    return { ok: true, key: check.key, account: await this.deps.accounts.get(check.key.accountId) };
  }

  /** A publishable token bound to this exact origin, or null. */
  async widgetToken(presented: string, origin: string): Promise<VerifiedToken | null> {
    const cacheKey = `token:${sha256Hex(presented)} ${origin}`;
    const cached = this.#cache?.get(cacheKey);
    if (cached && typeof cached === 'object' && 'tokenId' in cached) return cached;
    const token = await this.deps.tokens.verify(presented, origin);
    if (token) this.#cache?.set(cacheKey, token);
    return token;
  }

  /** Preflight: is the origin on some active token's allowlist? */
  async originAllowed(origin: string): Promise<boolean> {
    const cacheKey = `origin:${origin}`;
    if (this.#cache?.get(cacheKey) === true) return true;
    const allowed = await this.deps.tokens.originAllowed(origin);
    if (allowed) this.#cache?.set(cacheKey, true);
    return allowed;
  }
}
