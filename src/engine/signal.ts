/**
 * The caller's abort signal, or a way to get it. HTTP routes pass a getter: @hono/node-server makes
 * the AbortController only when `c.req.raw.signal` is read, and making one costs more than a whole
 * cache hit's other work, so only a call that reaches the providers asks for it.
 */
export type SignalSource = AbortSignal | (() => AbortSignal | undefined);

export function signalOf(source: SignalSource | undefined): AbortSignal | undefined {
  return typeof source === 'function' ? source() : source;
}
