import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusAddresses } from '../../bench/accuracy/corpus.js';
import { RECIPIENT_LINES, streetPart, UNIT_FORMS, written } from '../../bench/accuracy/kinds.js';
import { parseAddress } from '../../src/address/parse.js';

/**
 * Issue 27: a unit or a recipient line added to any address of the accuracy corpus, in any of the
 * places people write it, leaves the reading of street, number, postcode and town as it was, and
 * the unit comes back. Each text is compared with the same address written the same way without it.
 */
const addresses = corpusAddresses().filter((a) => written(a).startsWith(`${streetPart(a)}, `));
const FALLBACK_UNITS = [['Apt 3B', 'Apt 3B'], ['Unit 5', 'Unit 5']] as const;

/** [with the part, the same text without it]. */
function placed(clean: string, house: string, part: string, where: number, afterOnly: boolean): [string, string] {
  const rest = clean.slice(house.length + 2);
  const noCommas = rest.replace(/,/g, '');
  const forms: [string, string][] = [
    [`${house}, ${part}, ${rest}`, clean],
    [`${house} ${part}, ${rest}`, clean],
    [`${house} ${part} ${noCommas}`, `${house} ${noCommas}`],
    ...(afterOnly ? [] : ([[`${part}, ${clean}`, clean], [`${part} ${clean}`, clean]] as [string, string][])),
  ];
  return forms[where % forms.length]!;
}

describe('a unit or recipient line never changes how the house is read (corpus property)', () => {
  it('a unit: same street, number, postcode and town, and the unit read', () => {
    fc.assert(
      fc.property(fc.constantFrom(...addresses), fc.nat(), fc.nat(), (a, pick, where) => {
        const forms = UNIT_FORMS[a.country] ?? FALLBACK_UNITS;
        const [typed, unit, only] = forms[pick % forms.length]!;
        const [text, plain] = placed(written(a), streetPart(a), typed, where, only === 'after');
        expect(parseAddress(text, { country: a.country }), text).toEqual({ ...parseAddress(plain, { country: a.country }), unit });
      }),
      { numRuns: 400 },
    );
  });

  it('a recipient line before the address: same reading, no unit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...addresses), fc.nat(), fc.boolean(), (a, pick, comma) => {
        const lines = RECIPIENT_LINES[a.country] ?? ['c/o Jane Doe'];
        const line = lines[pick % lines.length]!;
        const clean = written(a);
        const text = `${line}${comma ? ',' : ''} ${clean}`;
        expect(parseAddress(text, { country: a.country }), text).toEqual(parseAddress(clean, { country: a.country }));
      }),
      { numRuns: 400 },
    );
  });
});
