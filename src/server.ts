import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Config } from './config.js';
import type { App } from './http/context.js';

/**
 * The Node.js HTTP server around the app, set up to sit behind a load balancer: idle keep-alive
 * connections outlive the balancer's (KEEP_ALIVE_TIMEOUT_MS), and a drain mode answers every
 * request still running with `Connection: close` so clients stop reusing the socket.
 */
export interface HttpServer {
  server: Server;
  port: number;
  /**
   * Stops accepting, closes idle connections, lets requests in flight finish (each answered with
   * `Connection: close`). Resolves once every connection is gone, or after `graceMs` by cutting
   * the rest (resolves `false` then).
   */
  drain(graceMs: number): Promise<boolean>;
}

export class ListenError extends Error {
  constructor(host: string, port: number, cause: NodeJS.ErrnoException) {
    const why = cause.code === 'EADDRINUSE' ? 'the port is already in use' : cause.code === 'EACCES' ? 'permission denied' : cause.message;
    super(`cannot listen on ${host}:${port}: ${why}${cause.code ? ` (${cause.code})` : ''}`, { cause });
    this.name = 'ListenError';
  }
}

type ServerConfig = Pick<Config, 'PORT' | 'HOST' | 'KEEP_ALIVE_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS'>;

export async function listen(app: App, config: ServerConfig): Promise<HttpServer> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;

  let draining = false;
  // Responses not yet written: when draining starts they get `Connection: close` too.
  const pending = new Set<ServerResponse>();
  // Runs after the app's listener has started the request, before its response is written.
  server.on('request', (_req, res: ServerResponse) => {
    if (draining) {
      res.setHeader('Connection', 'close');
      return;
    }
    pending.add(res);
    res.once('close', () => pending.delete(res));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(new ListenError(config.HOST, config.PORT, error));
    server.once('error', onError);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', onError);
      resolve();
    });
  });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    drain(graceMs) {
      draining = true;
      for (const res of pending) if (!res.headersSent) res.setHeader('Connection', 'close');
      pending.clear();
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve(false);
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve(true);
        });
        // Idle keep-alive sockets would otherwise hold close() open until their timeout.
        server.closeIdleConnections();
      });
    },
  };
}
