import { parentPort } from 'node:worker_threads';
import { describeError } from '../../lib/describe-error.js';
import { systemClock } from '../../lib/clock.js';
import type { LookupSetup, ToPool, ToWorker } from './lookup-pool.js';
import { openLookupDeps } from './lookup-deps.js';
import { PrimedAhead } from './primed-ahead.js';
import { lookupRows } from './row-lookup.js';

/**
 * A lookup thread of `addressd validate`: its own read-only handles on the local index (and the
 * other providers' HTTP clients, and the response cache: Redis when configured, else its own
 * copy), running the batches the main thread sends through the API's engine. It never writes the
 * database: the charges go back with the results, and the main thread settles them.
 */
const port = parentPort!;
const post = (message: ToPool) => port.postMessage(message);

/** The thread loads its modules as soon as it starts; it opens its handles once the main thread sends its setup (LookupPool.spawn). */
port.once('message', (first: ToWorker) => {
  if (first.type !== 'open') {
    post({ type: 'failed', id: -1, message: `expected the setup, got ${first.type}` });
    return;
  }
  void serve(first.setup);
});

async function serve(setup: LookupSetup): Promise<void> {
  const stopFlag = new Int32Array(setup.stop);
  try {
    const deps = await openLookupDeps(setup.config, systemClock);
    const ahead = new PrimedAhead(deps.prime);
    port.on('message', (message: ToWorker) => {
      if (message.type === 'close') {
        void deps.close().finally(() => port.close());
        return;
      }
      if (message.type === 'prime') {
        ahead.add(message.rows);
        return;
      }
      if (message.type !== 'batch') return;
      lookupRows(deps, setup.caller, message.batch, setup.concurrency, () => Atomics.load(stopFlag, 0) === 1, ahead).then(
        (outcome) => post({ type: 'done', id: message.id, outcome }),
        (error: unknown) => post({ type: 'failed', id: message.id, message: describeError(error) }),
      );
    });
    post({ type: 'ready' });
  } catch (error) {
    post({ type: 'failed', id: -1, message: describeError(error) });
  }
}
