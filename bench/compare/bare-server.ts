import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/**
 * The yardstick: the same framework the service runs on (hono on @hono/node-server), answering
 * `POST /echo` with the JSON it was sent and nothing else. Every ratio the bench prints is a
 * path's req/s over this one's, measured in the same run. argv: <port> [workers].
 */
const port = Number(process.argv[2]);
const workers = Number(process.argv[3] ?? 1);

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i += 1) cluster.fork();
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === workers) process.stdout.write('ready\n');
  });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const app = new Hono();
  app.post('/echo', async (c) => c.json(await c.req.json()));
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => {
    if (workers === 1) process.stdout.write('ready\n');
  });
  process.on('SIGTERM', () => process.exit(0));
}
