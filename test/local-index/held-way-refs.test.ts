import { describe, expect, it } from 'vitest';
import { HELD_REFS_BUDGET, HeldWayRefs } from '../../src/local-index/import/held-way-refs.js';

describe('HeldWayRefs', () => {
  it('gives the ways in the staging table order: multipolygons (negated ids) first, then ways by id', () => {
    const held = new HeldWayRefs();
    held.add(10, [1, 2, 1], false);
    held.add(12, [3], true);
    held.add(40, [], false);
    held.add(-5, [7, 8], false); // relation 5
    held.add(-9, [9], false); // relation 9
    expect(Array.from(held.idOrder()!, (i) => held.id(i))).toEqual([-9, -5, 10, 12, 40]);
    expect(Array.from(held.refsAt(0))).toEqual([1, 2, 1]);
    expect(Array.from(held.refsAt(2))).toEqual([]);
    expect(Array.from(held.refsAt(4))).toEqual([9]);
    expect(held.interpolation(1)).toBe(true);
    expect(held.interpolation(0)).toBe(false);
  });

  it('grows past its first arrays', () => {
    const held = new HeldWayRefs();
    for (let i = 1; i <= 20_000; i++) held.add(i, [i, i + 1, i + 2, i + 3, i + 4], false);
    expect(held.idOrder()?.length).toBe(20_000);
    expect(Array.from(held.refsAt(19_999))).toEqual([20_000, 20_001, 20_002, 20_003, 20_004]);
  });

  it('keeps a way on one page, a way longer than a page on a page of its own, and counts against its budget', () => {
    const held = new HeldWayRefs();
    const long = Array.from({ length: (1 << 20) + 5 }, (_, i) => i);
    held.add(1, [1, 2, 3], false);
    held.add(2, long, false);
    held.add(3, [7, 8], false);
    expect(held.refsAt(1).length).toBe(long.length);
    expect(held.refsAt(1)[long.length - 1]).toBe(long.length - 1);
    expect(Array.from(held.refsAt(0))).toEqual([1, 2, 3]);
    expect(Array.from(held.refsAt(2))).toEqual([7, 8]);
    expect(held.fits(HELD_REFS_BUDGET - long.length - 5)).toBe(true);
    expect(held.fits(HELD_REFS_BUDGET - long.length - 4)).toBe(false);
  });

  it('declines a file whose ways are not in id order, or name an id twice (the table is read instead)', () => {
    const unsorted = new HeldWayRefs();
    unsorted.add(5, [1], false);
    unsorted.add(3, [1], false);
    expect(unsorted.idOrder()).toBeUndefined();
    const twice = new HeldWayRefs();
    twice.add(5, [1], false);
    twice.add(5, [2], false);
    expect(twice.idOrder()).toBeUndefined();
    const relations = new HeldWayRefs();
    relations.add(5, [1], false);
    relations.add(-9, [1], false);
    relations.add(-5, [1], false);
    expect(relations.idOrder()).toBeUndefined();
  });
});
