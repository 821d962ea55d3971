import { describe, expect, it } from 'vitest';
import { StagedRefs } from '../../src/local-index/import/staged-refs.js';

describe('StagedRefs (staged ways\' node lists in memory)', () => {
  it('gives back each list kept, across growing, and refuses a list past its cap', () => {
    const kept = new StagedRefs(3000);
    const lists = Array.from({ length: 300 }, (_, i) => Array.from({ length: i % 7 }, (_, j) => i * 1000 + j + 0.5 * (j % 2)));
    const at = lists.map((l) => kept.put(l));
    expect(at.every((a) => a >= 0)).toBe(true);
    expect(at.map((a) => Array.from(kept.at(a)))).toEqual(lists);
    // 300 lists of 0-6 ids plus their lengths: 1,197 numbers; 2,000 more would pass 3,000.
    expect(kept.put(Array.from({ length: 2000 }, (_, i) => i))).toBe(-1);
    expect(kept.put([7, 8])).toBeGreaterThan(0);
  });

  it('keeps lists across its blocks (of 2^20 numbers), each within one', () => {
    const kept = new StagedRefs(3_000_000);
    const lists = Array.from({ length: 5 }, (_, i) => Array.from({ length: 400_000 }, (_, j) => i * 1e6 + j));
    const at = lists.map((l) => kept.put(l));
    // Two lists of 400,001 numbers fill a block; the third starts the next.
    expect(at).toEqual([0, 400_001, 1 << 20, (1 << 20) + 400_001, 2 << 20]);
    expect(at.map((a) => Array.from(kept.at(a)))).toEqual(lists);
    expect(kept.put(Array.from({ length: 1 << 20 }, () => 1))).toBe(-1);
  });
});
