import { describe, expect, it } from 'vitest';
import { identityKey, SeenIdentities } from '../../src/local-index/store/seen-identities.js';

describe('SeenIdentities (what a first import has written)', () => {
  it('never says "not seen" of a key it was given, and rarely says "seen" of one it was not', () => {
    const seen = new SeenIdentities();
    const n = 300_000;
    for (let i = 0; i < n; i++) seen.add(`osm:w${i * 7}`);
    for (let i = 0; i < n; i++) expect(seen.mayHave(`osm:w${i * 7}`)).toBe(true);
    let wrong = 0;
    for (let i = 0; i < n; i++) if (seen.mayHave(`osm:w${i * 7 + 3}`)) wrong++;
    // Four probes into 2^27 bits: about one in a million at this count.
    expect(wrong).toBeLessThan(n / 1000);
  });

  it('tells keys apart that differ only in where the street ends and the number begins', () => {
    const seen = new SeenIdentities();
    seen.add(identityKey(null, 'main st', '12'));
    expect(seen.mayHave(identityKey(null, 'main st', '12'))).toBe(true);
    expect(seen.mayHave(identityKey(null, 'main st1', '2'))).toBe(false);
    expect(seen.mayHave(identityKey('osm:n1', 'main st', '12'))).toBe(false);
  });
});
