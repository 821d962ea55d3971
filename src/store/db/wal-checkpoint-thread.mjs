// Worker thread of the SQLite main store's WAL checkpointer (see wal-checkpointer.ts): copies the
// write-ahead log back into the database file, with its two fsyncs, on its own connection, so the
// thread that answers requests never waits for them. Plain JavaScript, so it loads the same beside
// the TypeScript sources and in dist/.
//
// Messages in: { type: 'now', id } (checkpoint at once, reply { type: 'done', id, result } or
// { type: 'failed', id, error }), { type: 'stop' }. Every `intervalMs` (0: only when asked) it
// checkpoints on its own; a failure of those is posted as { type: 'failed', error } once per run of
// failures (the operator hears of a full disk once, not every interval) and the next success as
// { type: 'recovered' }; every run that succeeds as { type: 'ran', result } (the log's length gauge).
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

/** @type {{ file: string; intervalMs: number }} */
const { file, intervalMs } = workerData;

const db = new Database(file, { fileMustExist: true });
// Never waits on a lock: a checkpoint another connection is running does this one's work.
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');

/** PASSIVE: copies what no reader still needs, never blocks the writer or a reader. */
function checkpoint() {
  const [row] = db.pragma('wal_checkpoint(PASSIVE)');
  return { busy: row.busy, log: row.log, checkpointed: row.checkpointed };
}

/** Another connection's checkpoint (a second process on the same file) is not a failure. */
const isBusy = (error) => error && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED');

let failing = false;
let timer;
function tick() {
  try {
    parentPort.postMessage({ type: 'ran', result: checkpoint() });
    if (failing) parentPort.postMessage({ type: 'recovered' });
    failing = false;
  } catch (error) {
    if (!isBusy(error) && !failing) parentPort.postMessage({ type: 'failed', error: String(error?.message ?? error) });
    if (!isBusy(error)) failing = true;
  }
  timer = setTimeout(tick, intervalMs);
}
if (intervalMs > 0) timer = setTimeout(tick, intervalMs);

parentPort.on('message', (message) => {
  if (message.type === 'stop') {
    clearTimeout(timer);
    db.close();
    parentPort.close();
    return;
  }
  if (message.type === 'now') {
    try {
      parentPort.postMessage({ type: 'done', id: message.id, result: checkpoint() });
    } catch (error) {
      parentPort.postMessage({ type: 'failed', id: message.id, error: String(error?.message ?? error) });
    }
  }
});
