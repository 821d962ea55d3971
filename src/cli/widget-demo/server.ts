import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { buildApp } from '../../app.js';
import type { Services } from '../../services.js';
import type { DemoCertificate } from './certificate.js';
import { widgetDemoPage } from './page.js';

import { DEMO_ACCOUNT_NAME } from './account.js';

export interface WidgetDemoOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  certificate: DemoCertificate;
  /** The account the token belongs to; default the account named "widget demo", created when missing. */
  accountId?: string;
  country?: string;
}

export interface WidgetDemo {
  /** The page to open. */
  url: string;
  /** `https://host:port`: the page's origin, the only one on the token's allowlist. */
  origin: string;
  token: string;
  accountId: string;
  /** True when this run created the demo account. */
  createdAccount: boolean;
  close(): Promise<void>;
}

/**
 * The whole service over HTTPS on one origin, with a test page at `/`: the page loads the hosted
 * widget from the same origin and a test publishable token allows exactly that origin (SPEC:
 * widget origins are HTTPS only). An existing active token for the origin is reused.
 */
export async function startWidgetDemo(services: Services, options: WidgetDemoOptions): Promise<WidgetDemo> {
  const app = buildApp(services);
  const page = { html: '' };
  const demo = new Hono();
  demo.get('/', (c) => c.html(page.html, 200, { 'Cache-Control': 'no-store' }));
  demo.all('*', (c) => app.fetch(c.req.raw));

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve(
      { fetch: demo.fetch, port: options.port, hostname: options.host, createServer, serverOptions: { key: options.certificate.key, cert: options.certificate.cert } },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    const origin = `https://${options.host.includes(':') ? `[${options.host}]` : options.host}:${(server.address() as AddressInfo).port}`;
    const { accountId, created } = await demoAccount(services, options.accountId);
    const tokens = await services.tokens.list(accountId);
    const reusable = tokens.find((t) => t.env === 'test' && !t.revokedAt && t.origins.includes(origin));
    const token = reusable ?? (await services.tokens.create(accountId, 'test', [origin]));
    page.html = widgetDemoPage({ token: token.token, origin, ...(options.country ? { country: options.country } : {}) });
    return { url: `${origin}/`, origin, token: token.token, accountId, createdAccount: created, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function demoAccount(services: Services, accountId: string | undefined): Promise<{ accountId: string; created: boolean }> {
  if (accountId) return { accountId: (await services.accounts.get(accountId)).id, created: false };
  const existing = (await services.accounts.list()).find((a) => a.name === DEMO_ACCOUNT_NAME);
  if (existing) return { accountId: existing.id, created: false };
  return { accountId: (await services.accounts.create({ name: DEMO_ACCOUNT_NAME })).id, created: true };
}
