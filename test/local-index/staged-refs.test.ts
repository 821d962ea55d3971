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
});
