import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { App } from '../../src/http/context.js';
import { pageCertificate } from './https-page-server.js';

/** The same app also served over HTTPS on 127.0.0.1 (trusted by launchBrowser), for secure-context pages. */
export async function serveHttps(app: App): Promise<{ origin: string; close(): Promise<void> }> {
  const { key, cert } = await pageCertificate();
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: { key, cert } }, () => resolve(s));
  });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
