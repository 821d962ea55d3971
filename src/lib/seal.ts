import { createCipheriv, createDecipheriv } from 'node:crypto';
import { pooledRandomBytes } from './ids.js';

/**
 * AES-256-GCM sealing with the server master key: secret keys are stored sealed so the console
 * can re-reveal them, and widget suggestion ids are sealed so the browser sees nothing inside.
 * Format: base64url(iv(12) | tag(16) | ciphertext).
 */
export class Sealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The master key must be 32 bytes');
  }

  seal(plain: string, associated?: string): string {
    // A fresh random IV per seal (GCM needs it unique under the key), from the CSPRNG's pooled bytes.
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (associated) cipher.setAAD(Buffer.from(associated));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** Returns null for anything tampered with, truncated, or sealed under other associated data. */
  open(sealed: string, associated?: string): string | null {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      if (raw.length < 29) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      if (associated) decipher.setAAD(Buffer.from(associated));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
}
