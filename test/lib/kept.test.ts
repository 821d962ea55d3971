import { describe, expect, it } from 'vitest';
import { Kept } from '../../src/lib/kept.js';

describe('Kept', () => {
  it('computes a value once per key and hands back the kept one after', () => {
    const kept = new Kept<number>(10);
    let made = 0;
    const make = () => (made += 1);
    expect(kept.get('a', make)).toBe(1);
    expect(kept.get('a', make)).toBe(1);
    expect(made).toBe(1);
  });

  it('keeps at most max values, the oldest going first, and keeps computing right once full', () => {
    const kept = new Kept<string>(16);
    for (let i = 0; i < 100; i++) kept.get(`k${i}`, () => `v${i}`);
    expect(kept.size).toBeLessThanOrEqual(16);
    // The newest are kept: asking for them computes nothing.
    expect(kept.get('k99', () => 'again')).toBe('v99');
    expect(kept.get('k98', () => 'again')).toBe('v98');
    // The oldest went: asked again, they are computed again.
    expect(kept.get('k0', () => 'again')).toBe('again');
    expect(kept.size).toBeLessThanOrEqual(16);
  });
});
