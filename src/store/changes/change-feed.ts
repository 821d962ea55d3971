/**
 * What changed, told to every instance of the deployment so that what they cache in process
 * (credentials, account settings) follows at once instead of at the cache's expiry.
 * `credentials`: a key or token was revoked or its origins changed (id: the account);
 * `account`: plan, thresholds or extra credits of the account `id` changed.
 */
export interface Change {
  topic: 'credentials' | 'account';
  id: string;
}

export type ChangeListener = (change: Change) => void;

/**
 * The change feed: in-process by default, Redis pub/sub when REDIS_URL is set, through the
 * cluster primary between WORKERS. Delivery is best effort: a listener must still bound how long
 * it trusts what it caches (AUTH_CACHE_MS), because a message can be lost (Redis restarting).
 */
export interface ChangeFeed {
  /** Tells every listener of every instance, this one included (synchronously here). */
  publish(change: Change): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

/** The listeners of one process; the other feeds deliver remote changes through `deliver`. */
export class LocalChangeFeed implements ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();

  publish(change: Change): void {
    this.deliver(change);
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A listener that throws must not keep the others from hearing about the change. */
  deliver(change: Change): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // ignored on purpose: one cache failing to drop an entry still has its expiry
      }
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}

/** Parses a change received from another process; anything else is ignored. */
export function parseChange(value: unknown): Change | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { topic, id } = value as Record<string, unknown>;
  if ((topic === 'credentials' || topic === 'account') && typeof id === 'string') return { topic, id };
  return undefined;
}
