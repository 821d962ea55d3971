import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_DATASET, type EmulatorAddress, readFixture } from './dataset.js';

/** How the next requests misbehave; stays in force until set again. */
export type Fault =
  | { mode: 'none' }
  | { mode: 'hang' }
  | { mode: 'status'; status: 500 | 429 | 503 }
  | { mode: 'malformed' }
  | { mode: 'wrong-content-type' }
  | { mode: 'slow'; delayMs: number }
  /** Well-formed JSON that is not the provider's wire format (a schema failure, not a parse failure). */
  | { mode: 'wrong-shape' };

export interface RecordedRequest {
  /** Path relative to the emulator's base URL, e.g. `/free` or `/api`. */
  path: string;
  /** Query parameters; a repeated key keeps its last value (all values are in `queryAll`). */
  query: Record<string, string>;
  queryAll: Record<string, string[]>;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
}

export interface Emulator {
  /** Base URL to configure the adapter with (PDOK: …/bzk/locatieserver/search/v3_1). */
  url: string;
  requests: RecordedRequest[];
  setFault(f: Fault): void;
  setDataset(d: EmulatorAddress[]): void;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  contentType: string;
  body: string;
}

/** What makes one emulator that provider: its routes and its error bodies. */
export interface Behaviour {
  basePath: string;
  handle(request: RecordedRequest, params: URLSearchParams, dataset: EmulatorAddress[]): Reply;
  errorReply(status: number): Reply;
}

export function json(status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Reply {
  return { status, contentType, body: JSON.stringify(body, null, 1) };
}

/** Fills `{{name}}` placeholders of a canned fixture body; strings are JSON-escaped. */
export function template(name: string, values: Record<string, string | number>): string {
  return readFixture(name).replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    return typeof value === 'number' ? String(value) : JSON.stringify(value ?? '').slice(1, -1);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': reply.contentType, 'access-control-allow-origin': '*' });
  res.end(reply.body);
}

function record(req: IncomingMessage, basePath: string): { request: RecordedRequest; params: URLSearchParams } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const queryAll: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) queryAll[k] = [...(queryAll[k] ?? []), v];
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
  const query = Object.fromEntries(Object.entries(queryAll).map(([k, v]) => [k, v[v.length - 1]!]));
  return { request: { path, query, queryAll, headers }, params: url.searchParams };
}

export async function startEmulator(behaviour: Behaviour, dataset: EmulatorAddress[] = DEFAULT_DATASET): Promise<Emulator> {
  let fault: Fault = { mode: 'none' };
  let data = dataset;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const { request, params } = record(req, behaviour.basePath);
    requests.push(request);
    const answer = () => behaviour.handle(request, params, data);
    switch (fault.mode) {
      case 'hang':
        return; // never answer; close() drops the socket
      case 'status':
        return send(res, behaviour.errorReply(fault.status));
      case 'wrong-content-type':
        return send(res, { status: 200, contentType: 'text/html; charset=utf-8', body: readFixture('wrong-content-type.html') });
      case 'wrong-shape':
        return send(res, { status: 200, contentType: 'application/json; charset=utf-8', body: readFixture('wrong-shape.json') });
      case 'malformed': {
        const reply = answer();
        // Cut the real body short, like a connection dropped by a proxy mid-response.
        return send(res, { ...reply, body: reply.body.slice(0, Math.max(1, Math.floor(reply.body.length * 0.6))) });
      }
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, answer());
        }, fault.delayMs);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'none':
        return send(res, answer());
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${behaviour.basePath}`,
    requests,
    setFault: (f) => {
      fault = f;
    },
    setDataset: (d) => {
      data = d;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
