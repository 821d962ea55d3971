import { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError, Messages } from './errors.js';

/** How long a refused upload may keep sending before its connection is cut. */
const LINGER_MS = 5000;

/**
 * Refuses bodies over `maxSize` with 413 and `Connection: close`, and closes that connection
 * cleanly. Node.js destroys a `Connection: close` socket as soon as the response is flushed; with
 * the client still uploading, unread bytes make the kernel answer with a reset, and the client
 * may lose the 413 itself. So the socket half-closes instead (FIN after the 413) and keeps reading
 * and discarding what the client still sends until it closes its side (or LINGER_MS passes).
 *
 * Hono's bodyLimit would do the size check, but it keeps the body's reader to itself (chunked) or
 * leaves a stream that pauses the socket: the rest of a refused body could not be drained.
 */
export function limitBody(maxSize: number, message: string = Messages.bodyTooLarge): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      // Declared too large: refused before a byte of the body is read (Node.js discards it).
      if (Number.parseInt(length, 10) > maxSize) refuse(c, message);
      return next();
    }
    const body = c.req.raw.body;
    if (!body) return next();
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxSize) refuse(c, message, () => discard(reader));
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, size) });
    return next();
  };
}

function refuse(c: Context, message: string, drain?: () => void): never {
  lingerAfterResponse(c, drain);
  throw new HttpError(413, message, undefined, { Connection: 'close' });
}

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The connection went away: nothing left to drain.
  }
}

/** Replaces the socket's destroy-after-response with a half-close that still reads what comes. */
function lingerAfterResponse(c: Context, drain?: () => void): void {
  // Only on a real Node.js server (tests may call app.request() without one).
  const incoming: unknown = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return;
  const socket = incoming.socket as Socket & { destroySoon?: () => void };
  let lingering = false;
  socket.destroySoon = () => {
    if (lingering) return;
    lingering = true;
    socket.end();
    if (drain) drain();
    else incoming.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
