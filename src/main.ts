import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { warmUpAddressParser } from './address/parse.js';
import { ConfigError, loadConfig } from './config.js';
import { ensureDataDir } from './lib/data-dir.js';
import { describeError } from './lib/describe-error.js';
import { createLogger } from './lib/logger.js';
import { logReachability } from './providers/reachability.js';
import { type HttpServer, listen } from './server.js';
import { createServices, type ServiceOverrides, type Services } from './services.js';
import { runPrimary, workerInstanceId } from './cluster.js';
import { ClusterChangeFeed } from './store/changes/cluster-change-feed.js';
import { ClusterRateLimiter } from './store/limits/cluster-limiter.js';

/** Time past the grace period for closing the stores before the exit is forced. */
const HARD_EXIT_AFTER_GRACE_MS = 2000;

/**
 * Composition root: config → services (stores, providers, engine) → app → listen; graceful shutdown.
 * A start that fails says why in exactly one line on stderr and exits non-zero (2: configuration,
 * 1: anything else); the details go to the JSON log on stdout.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    // Before anything opens a file there: a DATA_DIR that cannot be made is one line and exit 2.
    ensureDataDir(config.DATA_DIR);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  // WORKERS > 1: this process only forks and supervises the workers (cluster.ts).
  if (config.WORKERS > 1 && cluster.isPrimary) {
    await runPrimary(config, logger).catch((error: unknown) => {
      logger.error({ err: error }, 'start failed');
      fail(describeError(error), 1);
    });
    return;
  }
  const worker = cluster.isWorker;
  if (worker) config = { ...config, INSTANCE_ID: workerInstanceId(config.INSTANCE_ID, process.env) };
  // Cluster workers without Redis share limits and changes through their primary.
  const shared: ServiceOverrides = worker && !config.REDIS_URL ? { changes: new ClusterChangeFeed(), limiter: new ClusterRateLimiter() } : {};
  let services: Services | undefined;
  let http: HttpServer | undefined;

  // Installed before anything starts: a signal during start-up (or the instant after `listening`
  // was logged) must stop the service, not kill it with the default action.
  // Requests in flight finish (a provider call ends within its timeout); new ones go elsewhere.
  const graceMs = config.PROVIDER_TIMEOUT_MS + 5000;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Whatever hangs (a store that does not close, a log destination, a stray handle), the
    // process is gone shortly after its grace: a supervisor's SIGTERM always ends it.
    setTimeout(() => process.exit(1), graceMs + HARD_EXIT_AFTER_GRACE_MS).unref();
    // drain() stops listening at once; the line comes after, so it is true when read.
    const draining = http ? http.drain(graceMs) : Promise.resolve(true);
    logger.info({ signal, graceMs }, 'shutting down: no new connections, finishing requests in flight');
    const drained = await draining;
    await services?.close();
    logger.info({ drained }, drained ? 'stopped' : 'stopped: requests still running after the grace period were cut');
    process.exit(drained ? 0 : 1);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    // pelias-parser's classifier (0.5-2 s of CPU, most of a start's) is built in a worker thread
    // while this one opens the stores and listens: a restarted instance answers without waiting for
    // it, and only a request that needs it (few do) waits until it is built.
    warmUpAddressParser({ peliasThread: true });
    services = await createServices(config, { logger, ...shared });
    http = await listen(buildApp(services), config);
  } catch (error) {
    logger.error({ err: error }, 'start failed');
    await services?.close().catch(() => undefined);
    fail(describeError(error), 1);
  }
  logger.info(
    { port: http.port, host: config.HOST, storage: services.database.dialect, cache: config.REDIS_URL ? 'redis' : 'memory', providers: services.runner.active() },
    `listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${http.port}`,
  );
  if (worker) process.send?.({ addressd: 'listening' });
  // Every process probes (each /healthz drops the providers it could not reach); once per
  // deployment it is logged: in a cluster the first worker speaks for all.
  const speaks = !worker || cluster.worker?.id === 1;
  const { runner } = services;
  void logReachability(services.providers, speaks ? logger : undefined, Math.min(config.PROVIDER_TIMEOUT_MS, 5000), (id) => runner.probeFailed(id));
}

function fail(line: string, code: number): never {
  process.stderr.write(`addressd: ${line}\n`);
  process.exit(code);
}

main().catch((error: unknown) => fail(`failed to start: ${describeError(error)}`, 1));
