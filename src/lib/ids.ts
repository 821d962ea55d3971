import { hash, randomBytes, randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * Random bytes drawn from the system's CSPRNG a page at a time: one `randomBytes` call per id cost
 * ~8 µs on this machine, and a billed call makes two or three ids (its reservation, its usage batch);
 * a widget call seals each suggestion (an IV each) and counts its limits (a nonce).
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/** `bytes` random bytes (a copy) from the pool: for the ids below, IVs and nonces on a request's path. */
export function pooledRandomBytes(bytes: number): Buffer {
  if (bytes > pool.length) return randomBytes(bytes);
  if (poolAt + bytes > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const out = Buffer.from(pool.subarray(poolAt, poolAt + bytes));
  poolAt += bytes;
  return out;
}

const randomPart = (bytes: number): string => pooledRandomBytes(bytes).toString('base64url');

/**
 * Prefixed ids (`acc_…`, `key_…`): a fixed-width time part then randomness, so they sort in
 * creation order (lists are stable) and stay unguessable.
 */
export function newId(prefix: string, bytes = 9): string {
  const now = Date.now();
  sequence = now === lastMs ? sequence + 1 : 0;
  lastMs = now;
  const time = now.toString(36).padStart(9, '0') + sequence.toString(36).padStart(2, '0');
  return `${prefix}_${time}${randomPart(bytes)}`;
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** One-shot `crypto.hash` (Node ≥ 20.12): a tenth of createHash's cost, and every request hashes its key. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
