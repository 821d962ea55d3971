import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheKey, withDataGenerations } from '../../src/engine/cache-key.js';
import { nearCell, nearDecay } from '../../src/engine/near.js';

describe('cache keys and data generations (issue 28 item 1)', () => {
  const request = cacheKey('validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', providers: ['pdok', 'photon'] });

  it('leaves the key of an answer local took no part in as it was: those entries keep their lifetime', () => {
    expect(withDataGenerations(request, [])).toBe(request);
  });

  it('gives an answer local took part in a new key with each generation of its data', () => {
    const before = withDataGenerations(request, [['local', 7]]);
    const after = withDataGenerations(request, [['local', 8]]);
    expect(before).not.toBe(request);
    expect(after).not.toBe(before);
    expect(withDataGenerations(request, [['local', 7]])).toBe(before);
  });
});

describe('cache keys with the customer position and result types (issue 35)', () => {
  const base = { query: 'Mühlenweg 56', country: 'DE', limit: 5, providers: ['local', 'photon'] };

  it('hold the position as its ~1 km cell: two points of one cell share a key, points 20 km apart do not', () => {
    const a = cacheKey('autocomplete', { ...base, near: nearCell({ lat: 50.0012, lng: 8.3012 }) });
    const b = cacheKey('autocomplete', { ...base, near: nearCell({ lat: 49.9961, lng: 8.3038 }) });
    const far = cacheKey('autocomplete', { ...base, near: nearCell({ lat: 50.0012, lng: 8.5812 }) });
    expect(a).toBe(b);
    expect(far).not.toBe(a);
    expect(a).not.toBe(cacheKey('autocomplete', base));
  });

  it('hold the types as a set: order and repeats do not matter, the kinds do', () => {
    const one = cacheKey('autocomplete', { ...base, types: ['street', 'postcode'] });
    expect(cacheKey('autocomplete', { ...base, types: ['postcode', 'street', 'street'] })).toBe(one);
    expect(cacheKey('autocomplete', { ...base, types: ['street'] })).not.toBe(one);
    expect(cacheKey('autocomplete', base)).not.toBe(one);
  });

  it('leave a validate request without a position with the key it had: its 30-day entries stay reachable', () => {
    const parts = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL', providers: ['pdok', 'photon'] };
    // The key of this request before issue 35 added `near`: the material's digest is unchanged.
    const before = 'validate:' + hash('sha256', JSON.stringify(['validate', 'damrak 1 1012 lg amsterdam', null, 'NL', null, null, ['pdok', 'photon']]), 'base64url');
    expect(cacheKey('validate', parts)).toBe(before);
    expect(cacheKey('validate', { ...parts, near: { lat: 52.37, lng: 4.89 } })).not.toBe(before);
  });
});

describe('the near formulas (issue 35)', () => {
  it('rounds to two decimals, written exactly, so one cell never has two keys', () => {
    expect(nearCell({ lat: 52.374_999, lng: 4.895_001 })).toEqual({ lat: 52.37, lng: 4.9 });
    expect(nearCell({ lat: -33.868_8, lng: 151.209_3 })).toEqual({ lat: -33.87, lng: 151.21 });
    expect(nearCell({ lat: 89.999, lng: -179.999 })).toEqual({ lat: 90, lng: -180 });
  });

  it('decays from 1 at the point, halved every 10 km, to nothing from 100 km', () => {
    const at = { lat: 50, lng: 8 };
    const north = (km: number) => ({ lat: 50 + km / 111.195, lng: 8 });
    expect(nearDecay(at, at)).toBe(1);
    expect(nearDecay(at, north(3))).toBeCloseTo(0.81, 2);
    expect(nearDecay(at, north(10))).toBeCloseTo(0.5, 2);
    expect(nearDecay(at, north(99))).toBeGreaterThan(0);
    expect(nearDecay(at, north(101))).toBe(0);
    expect(nearDecay(at, undefined)).toBe(0);
  });
});
