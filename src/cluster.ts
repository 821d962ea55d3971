import cluster, { type Worker } from 'node:cluster';
import { isMessage, type ToPrimary, type ToWorker } from './cluster-messages.js';
import type { Config } from './config.js';
import type { Logger } from './lib/logger.js';
import { resolveMasterKey } from './lib/master-key.js';
import { openLocalIndex } from './local-index/index.js';
import { openDatabase } from './store/db/database.js';
import { MemoryRateLimiter } from './store/limits/memory-limiter.js';

/**
 * WORKERS=N: N processes serve one port (node:cluster; the primary hands out connections in
 * turn). Exact on PostgreSQL + Redis, where instances share everything anyway. Correct on SQLite:
 * the workers write one database file (every transaction BEGIN IMMEDIATE, waiting up to the busy
 * timeout for the others), and the primary keeps what would otherwise be per-process: it counts
 * every rate-limit hit for all workers and passes each change (a revocation) on to the others.
 * Each worker keeps its own response cache, which is only ever a copy of provider answers.
 *
 * Before forking, the primary does once what must not race: the master key file, the migrations,
 * the local index's tables. A worker that dies is replaced; SIGTERM drains every worker first.
 */
/** Set by the primary for each worker it forks: the worker's slot. */
export const WORKER_SLOT_ENV = 'ADDRESSD_WORKER_SLOT';

/** A cluster worker's own INSTANCE_ID: the deployment's, plus its slot (credit reservations are per owner). */
export function workerInstanceId(instanceId: string, env: Record<string, string | undefined>): string {
  return `${instanceId}/w${env[WORKER_SLOT_ENV] ?? '0'}`;
}

export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const storage = { dataDir: config.DATA_DIR, ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}) };
  resolveMasterKey(config.MASTER_KEY, config.DATA_DIR);
  await (await openDatabase(storage)).close();
  if (config.PROVIDERS.includes('local')) await (await openLocalIndex(storage)).close();

  const limiter = new MemoryRateLimiter();
  const workers = new Set<Worker>();
  let stopping = false;
  let listening = 0;

  const onMessage = (worker: Worker, message: unknown) => {
    if (!isMessage<ToPrimary>(message)) return;
    const reply = (m: ToWorker) => {
      if (worker.isConnected()) worker.send(m);
    };
    switch (message.addressd) {
      case 'change':
        for (const other of workers) if (other !== worker && other.isConnected()) other.send({ addressd: 'change', change: message.change } satisfies ToWorker);
        return;
      case 'limit':
        limiter.hitAll(message.checks, message.nowMs, message.count).then(
          (result) => reply({ addressd: 'limit-result', id: message.id, result }),
          (error: unknown) => reply({ addressd: 'limit-result', id: message.id, error: error instanceof Error ? error.message : String(error) }),
        );
        return;
      case 'listening':
        if (++listening === config.WORKERS) logger.info({ workers: config.WORKERS, port: config.PORT }, `${config.WORKERS} workers listening`);
        return;
    }
  };
  const slots = new Map<Worker, number>();
  // A worker's slot is its place (0 … WORKERS-1), kept by its replacement: the worker's INSTANCE_ID
  // ends in it, so a replacement releases the credit reservations its predecessor left, and only those.
  const fork = (slot: number) => {
    const worker = cluster.fork({ [WORKER_SLOT_ENV]: String(slot) });
    workers.add(worker);
    slots.set(worker, slot);
    worker.on('message', (message: unknown) => onMessage(worker, message));
  };
  cluster.on('exit', (worker, code, signal) => {
    workers.delete(worker);
    if (stopping) {
      if (workers.size === 0) process.exit(0);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    fork(slots.get(worker) ?? 0);
  });
  for (let slot = 0; slot < config.WORKERS; slot += 1) fork(slot);

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down workers');
    // The signal itself, not worker.kill(): that would cut the IPC channel in-flight requests still use.
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
