import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { listen } from '../src/server.js';
import { startTestServer, type TestServer } from './support/server.js';

interface RawExchange {
  response: string;
  /** Socket events in order: `end` (the server's FIN), `error <code>`, `close`. */
  events: string[];
}

/** Sends a POST with a body of `size` bytes over a raw socket, as fast as the server reads it. */
function rawPost(port: number, path: string, size: number, chunked: boolean, headers = ''): Promise<RawExchange> {
  return new Promise((resolve) => {
    // Half-open allowed: the client keeps sending after the server's FIN, like curl uploading.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let response = '';
    const events: string[] = [];
    let sent = 0;
    socket.on('data', (d: Buffer) => (response += d.toString('latin1')));
    socket.on('end', () => {
      events.push('end');
      if (sent >= size) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => events.push(`error ${e.code}`));
    socket.on('close', () => {
      events.push('close');
      resolve({ response, events });
    });
    const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}${length}\r\n\r\n`);
    const block = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (sent < size) {
        const n = Math.min(block.length, size - sent);
        sent += n;
        const piece = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), block.subarray(0, n), Buffer.from('\r\n')]) : block.subarray(0, n);
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (chunked) socket.write('0\r\n\r\n');
      // The server already said goodbye: close our side now that everything is sent.
      if (socket.readableEnded) socket.end();
    };
    pump();
  });
}

describe('the HTTP server', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => server.close());

  it.each([
    ['declared by Content-Length', 420 * 1024, false],
    ['chunked', 420 * 1024, true],
    ['much larger, declared', 8 * 1024 * 1024, false],
  ])('answers a body too large (%s) with 413 and Connection: close, then ends the connection without a reset', async (_name, size, chunked) => {
    const { response, events } = await rawPost(port, '/v1/validate', size, chunked);
    const [head = '', body] = response.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/^connection: close$/im);
    expect(JSON.parse(body ?? '')).toEqual({ message: 'Request body too large: the limit is 64 KiB' });
    expect(events).toEqual(['end', 'close']);
  });

  it('takes a body under the limit as before', async () => {
    const res = await server.post('/v1/validate', { query: 'x'.repeat(400) });
    expect(res.status).toBe(401); // reached the route: no key
  });

  it('keeps idle connections longer than load balancers do, and header timeouts above that', async () => {
    const defaults = loadConfig({});
    expect(defaults.KEEP_ALIVE_TIMEOUT_MS).toBe(65_000);
    expect(defaults.HEADERS_TIMEOUT_MS).toBe(66_000);
    const http = await listen(server.app, { PORT: 0, HOST: '127.0.0.1', KEEP_ALIVE_TIMEOUT_MS: 120_000, HEADERS_TIMEOUT_MS: 121_000 });
    try {
      expect(http.server.keepAliveTimeout).toBe(120_000);
      expect(http.server.headersTimeout).toBe(121_000);
    } finally {
      await http.drain(1000);
    }
  });
});
