import { describe, expect, it } from 'vitest';
import { newId, pooledRandomBytes } from '../../src/lib/ids.js';
import { Sealer } from '../../src/lib/seal.js';

describe('newId', () => {
  it('draws its random part from a pooled buffer: ids stay distinct, well formed and of fixed width across refills', () => {
    // 4096-byte pool, 9 bytes an id: 2000 ids cross several refills and a refill at a non-multiple.
    const ids = Array.from({ length: 2000 }, () => newId('res'));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(15))).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^res_[0-9a-z]{11,}[A-Za-z0-9_-]{12}$/);
    // The random part is base64url, which may itself hold '_': measured after the prefix, not split on it.
    expect(newId('key', 24).slice('key_'.length).length).toBeGreaterThanOrEqual(11 + 32);
    expect(newId('big', 5000).length).toBeGreaterThan(6000);
  });
});

describe('pooledRandomBytes', () => {
  it('hands out distinct bytes of the asked length across refills, each a copy the pool never overwrites', () => {
    const parts = Array.from({ length: 1000 }, () => pooledRandomBytes(12));
    expect(new Set(parts.map((b) => b.toString('hex'))).size).toBe(parts.length);
    for (const b of parts) expect(b.length).toBe(12);
    const kept = pooledRandomBytes(12);
    const copy = Buffer.from(kept);
    for (let i = 0; i < 1000; i++) pooledRandomBytes(12);
    expect(kept.equals(copy)).toBe(true);
    expect(pooledRandomBytes(5000).length).toBe(5000);
  });
});

describe('Sealer', () => {
  it('seals the same text differently each time (a fresh IV), and each opens to it only under its associated data', () => {
    const sealer = new Sealer(Buffer.alloc(32, 7));
    const sealed = Array.from({ length: 500 }, () => sealer.seal('pdok:0363200000123', 'tok_1'));
    expect(new Set(sealed).size).toBe(sealed.length);
    expect(new Set(sealed.map((s) => Buffer.from(s, 'base64url').subarray(0, 12).toString('hex'))).size).toBe(sealed.length);
    for (const s of sealed.slice(0, 20)) {
      expect(sealer.open(s, 'tok_1')).toBe('pdok:0363200000123');
      expect(sealer.open(s, 'tok_2')).toBeNull();
    }
  });
});
