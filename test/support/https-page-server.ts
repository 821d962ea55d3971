import { createHash, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface PageCertificate {
  key: string;
  cert: string;
  /** base64 SHA-256 of the public key: `--ignore-certificate-errors-spki-list` trusts exactly this key. */
  spki: string;
}

let certificate: Promise<PageCertificate> | undefined;

/** One self-signed certificate for 127.0.0.1 per test process (RSA key generation takes a moment). */
export function pageCertificate(): Promise<PageCertificate> {
  certificate ??= (async () => {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    const publicKey = new X509Certificate(pems.cert).publicKey.export({ type: 'spki', format: 'der' });
    return { key: pems.private, cert: pems.cert, spki: createHash('sha256').update(publicKey).digest('base64') };
  })();
  return certificate;
}

export type PageHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface HttpsPageServer {
  /** `https://127.0.0.1:<port>`: the page origin the browser sees. */
  origin: string;
  url(path: string): string;
  /** Serves `html` at `path` (text/html). */
  page(path: string, html: string): void;
  /** Handles `path` (any method) with a custom handler, e.g. a scripted API. */
  route(path: string, handler: PageHandler): void;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1, port 0, holding test pages; unknown paths are 404, /favicon.ico is 204. */
export async function startHttpsPageServer(): Promise<HttpsPageServer> {
  const { key, cert } = await pageCertificate();
  const routes = new Map<string, PageHandler>();
  // Browsers ask for it on every page; a 404 would be logged as a console error.
  routes.set('/favicon.ico', (_req, res) => void res.writeHead(204).end());
  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const handler = routes.get(path);
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    page: (path, html) =>
      routes.set(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      }),
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
