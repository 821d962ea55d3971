import { type Inbox, isMessage, type ToPrimary, type ToWorker } from '../../cluster-messages.js';
import { type Change, type ChangeFeed, type ChangeListener, LocalChangeFeed, parseChange } from './change-feed.js';

/**
 * The change feed of a cluster worker without Redis: a change is heard here at once and sent to
 * the primary, which passes it to the other workers (src/cluster.ts).
 */
export class ClusterChangeFeed implements ChangeFeed {
  readonly #local = new LocalChangeFeed();
  readonly #onMessage = (message: unknown) => {
    if (!isMessage<ToWorker>(message) || message.addressd !== 'change') return;
    const change = parseChange(message.change);
    if (change) this.#local.deliver(change);
  };

  constructor(
    private readonly send: (message: ToPrimary) => void = (m) => process.send?.(m),
    private readonly inbox: Inbox = process,
  ) {
    inbox.on('message', this.#onMessage);
  }

  publish(change: Change): void {
    this.#local.deliver(change);
    this.send({ addressd: 'change', change });
  }

  subscribe(listener: ChangeListener): () => void {
    return this.#local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.inbox.off('message', this.#onMessage);
    await this.#local.close();
  }
}
