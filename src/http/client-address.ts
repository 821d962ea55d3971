import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { clientIp } from '../demo/client-ip.js';

/** The socket peer; undefined when the app is driven without a socket (app.request in tests). */
export function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The visitor's IP for per-IP limits, honouring X-Forwarded-For only with TRUST_PROXY. */
export function visitorIp(c: Context, trustProxy: boolean): string {
  return clientIp({ remoteAddress: remoteAddress(c), forwardedFor: c.req.header('x-forwarded-for'), trustProxy });
}
