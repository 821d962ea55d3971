import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Console passwords: scrypt (memory-hard, in Node itself) with a per-person salt, at OWASP's
 * current minimum for scrypt (N=2^17, r=8, p=1: 128 MiB and a few hundred milliseconds a hash).
 * The stored form names its cost, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, so hashes made at an
 * older cost still verify, and are made again at today's cost at the next successful log-in.
 */
export interface ScryptCost {
  log2N: number;
  r: number;
  p: number;
}
export const SCRYPT_COST: ScryptCost = { log2N: 17, r: 8, p: 1 };
const KEY_BYTES = 32;
/** A stored cost outside this range is not ours (a damaged or planted row): never derived. */
const LOG2N_RANGE = [10, 20] as const;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/** What the console needs of a password hash; injected, so tests can see the work being done. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time; a malformed stored hash never verifies. */
  verify(password: string, stored: string): Promise<boolean>;
  /** True when `stored` was made at another cost than today's: make it again after a log-in. */
  isOutdated(stored: string): boolean;
  /** A hash of nothing anyone knows: an unknown email costs the same derivation as a known one. */
  decoy(): Promise<string>;
}

function derive(password: string, salt: Buffer, { log2N, r, p }: ScryptCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (128 MiB at today's cost); Node's default ceiling is 32 MiB.
  const maxmem = 2 * 128 * 2 ** log2N * r;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { N: 2 ** log2N, r, p, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function parse(stored: string): { cost: ScryptCost; salt: Buffer; hash: Buffer } | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  const cost = { log2N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || rest.length || salt === undefined || !hash) return null;
  if (!Number.isInteger(cost.log2N) || cost.log2N < LOG2N_RANGE[0] || cost.log2N > LOG2N_RANGE[1]) return null;
  if (!Number.isInteger(cost.r) || cost.r < 1 || cost.r > 32 || !Number.isInteger(cost.p) || cost.p < 1 || cost.p > 16) return null;
  return { cost, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export function scryptHasher(cost: ScryptCost = SCRYPT_COST): PasswordHasher {
  let decoy: Promise<string> | undefined;
  const hasher: PasswordHasher = {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, cost);
      return ['scrypt', cost.log2N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
    },
    async verify(password, stored) {
      const parsed = parse(stored);
      if (!parsed) return false;
      const actual = await derive(password, parsed.salt, parsed.cost);
      return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
    },
    isOutdated(stored) {
      const parsed = parse(stored);
      return !parsed || parsed.cost.log2N !== cost.log2N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
    },
    decoy() {
      decoy ??= hasher.hash(randomBytes(16).toString('base64url'));
      return decoy;
    },
  };
  return hasher;
}

/** Today's hasher, shared by the service's stores. */
export const passwordHasher = scryptHasher();
export const hashPassword = (password: string): Promise<string> => passwordHasher.hash(password);
export const verifyPassword = (password: string, stored: string): Promise<boolean> => passwordHasher.verify(password, stored);

/**
 * The most common passwords (zxcvbn-ts's list of about 49 000 from public breach corpora), loaded
 * on first use: a few hundred milliseconds once, not at every start. Compared case-insensitively,
 * so `Password123` is as refused as `password123`.
 */
let common: Promise<ReadonlySet<string>> | undefined;
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())));
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize('NFKC').trim().toLowerCase());
}

export class WeakPasswordError extends Error {
  constructor() {
    super('This password is one of the most common ones (attackers try those first): choose another');
    this.name = 'WeakPasswordError';
  }
}
