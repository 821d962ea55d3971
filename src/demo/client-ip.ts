export interface ClientIpSource {
  /** The TCP peer address, when the request came in over a socket. */
  remoteAddress: string | undefined;
  /** The raw `X-Forwarded-For` header. */
  forwardedFor: string | undefined;
  /** config.TRUST_PROXY: the header is honoured only behind a proxy that sets it. */
  trustProxy: boolean;
}

/** Requests without any address share one bucket instead of going unlimited. */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * The visitor's IP for per-IP limits. Without TRUST_PROXY the header is ignored, since any client
 * could forge it to get a fresh allowance. With it, the last hop is the one our proxy appended (the
 * peer it saw); earlier hops come from the client and could be forged to the same end.
 */
export function clientIp(source: ClientIpSource): string {
  if (source.trustProxy && source.forwardedFor) {
    const last = source.forwardedFor.split(',').map((hop) => hop.trim()).filter(Boolean).at(-1);
    if (last) return normalizeIp(last);
  }
  return source.remoteAddress ? normalizeIp(source.remoteAddress) : UNKNOWN_CLIENT;
}

/** `::ffff:203.0.113.5` and `203.0.113.5` are the same visitor on a dual-stack socket. */
function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}
