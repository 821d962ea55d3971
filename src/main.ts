import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { warmUpAddressParser } from './address/parse.js';
import { logReachability } from './providers/reachability.js';
import { ClusterChangeFeed } from './store/changes/cluster-change-feed.js';
import { ClusterRateLimiter } from './store/limits/cluster-limiter.js';
import { runPrimary } from './cluster.js';
import { createLogger } from './lib/logger.js';
import { createServices, type ServiceOverrides } from './services.js';

/** Composition root: config → services (stores, providers, engine) → app → listen; graceful shutdown. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (config.WORKERS > 1 && cluster.isPrimary) return runPrimary(config, createLogger(config.LOG_LEVEL));
  const worker = cluster.isWorker;
  // Cluster workers without Redis share limits and changes through their primary (cluster.ts).
  const shared: ServiceOverrides = worker && !config.REDIS_URL ? { changes: new ClusterChangeFeed(), limiter: new ClusterRateLimiter() } : {};
  const services = await createServices(config, shared);
  // The parser builds its classifier once (~0.5 s); do it before the first request, not during it.
  warmUpAddressParser();
  const app = buildApp(services);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    services.logger.info(
      { port: info.port, host: config.HOST, storage: services.database.dialect, cache: config.REDIS_URL ? 'redis' : 'memory', providers: services.runner.active() },
      `listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${info.port}`,
    );
    if (worker) process.send?.({ addressd: 'listening' });
    // Once per deployment: in a cluster the first worker speaks for all.
    if (!worker || cluster.worker?.id === 1) void logReachability(services.providers, services.logger, Math.min(config.PROVIDER_TIMEOUT_MS, 5000));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info({ signal }, 'shutting down');
    server.close(() => {
      void services.close().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
