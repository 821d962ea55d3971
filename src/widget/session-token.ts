/** A fresh correlation id for one focus session (SPEC: at most 64 characters). */
export function newSessionToken(): string {
  const c = globalThis.crypto;
  // randomUUID exists only in secure contexts; the widget also runs on plain-HTTP dev pages.
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = c.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
