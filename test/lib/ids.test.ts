import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';

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
