import { hash, randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * Prefixed ids (`acc_…`, `key_…`): a fixed-width time part then randomness, so they sort in
 * creation order (lists are stable) and stay unguessable.
 */
export function newId(prefix: string, bytes = 9): string {
  const now = Date.now();
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  const time = now.toString(36).padStart(9, '0') + sequence.toString(36).padStart(2, '0');
  return `${prefix}_${time}${randomBytes(bytes).toString('base64url')}`;
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** One-shot `crypto.hash` (Node ≥ 20.12): a tenth of createHash's cost, and every request hashes its key. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
