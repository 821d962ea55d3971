import { isIPv4, isIPv6 } from 'node:net';

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

/**
 * `::ffff:203.0.113.5` and `203.0.113.5` are the same visitor on a dual-stack socket. An IPv6
 * visitor is its /64: one subscriber line gets a whole /64 and could rotate through it freely.
 */
function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && isIPv4(lower.slice(7))) return lower.slice(7);
  return isIPv6(lower) ? ipv6Prefix64(lower) : lower;
}

/** `2001:db8::1` → `2001:db8:0:0::/64`: the first four groups of the expanded address. */
function ipv6Prefix64(ip: string): string {
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // `::` stands for as many zero groups as are missing; a trailing dotted IPv4 part fills two.
  const written = left.length + right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - written).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
