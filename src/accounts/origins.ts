/**
 * Exact HTTPS origins (`https://host[:port]`): the only form a publishable token's allowlist and
 * the widget's `Origin` header may take. No path, no trailing slash, no wildcard, no userinfo.
 * Returns the origin in canonical form (lower-case host, default port dropped), or null.
 */
export function parseExactHttpsOrigin(value: string | undefined | null): string | null {
  if (!value || value !== value.trim()) return null;
  if (!/^https:\/\/[^/?#@*\s]+$/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname) return null;
  return url.origin;
}
