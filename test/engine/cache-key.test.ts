import { describe, expect, it } from 'vitest';
import { cacheKey, withDataGenerations } from '../../src/engine/cache-key.js';

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
