import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreCandidate } from '../../src/engine/score.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { readValidateInput } from '../../src/engine/validate-input.js';
import { decideVerdict } from '../../src/engine/verdict.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import type { Provider } from '../../src/providers/provider.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/** A Liechtenstein-shaped index: one street's numbers, and other streets of the same postcode with a number 3. */
const ROWS = [
  ['Äulestrasse', '1', 'Vaduz', '9490'],
  ['Äulestrasse', '3', 'Vaduz', '9490'],
  ['Äulestrasse', '5', 'Vaduz', '9490'],
  ['Landstrasse', '3', 'Schaan', '9494'],
  ['Landstrasse', '30', 'Triesen', '9495'],
  ['Landstrasse', '323', 'Triesen', '9495'],
  ['Landstrasse', '340', 'Triesen', '9495'],
  ['Landstrasse', '342', 'Triesen', '9495'],
  ['Landstrasse', '12', 'Triesen', '9495'],
  ['Gapont', '3', 'Triesen', '9495'],
  ['Dominik Banzer-Strasse', '3', 'Triesen', '9495'],
  // One street in two postcodes.
  ['Kirchstrasse', '1', 'Vaduz', '9490'],
  ['Kirchstrasse', '2', 'Vaduz', '9491'],
];
const CSV = ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH', ...ROWS.map(([street, hn, city, pc], i) => `9.5${i},47.1${i},${hn},${street},,${city},,,${pc},,`)].join('\n');

describe.each(STORAGE_BACKENDS)('what the local index knows (%s)', (backend) => {
  let box: IndexSandbox;
  let provider: Provider;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('li.oa.csv', CSV), { format: 'openaddresses', country: 'LI' });
    provider = createLocalProvider(box.index);
  });
  afterAll(async () => box?.close());

  /** The engine's verdict steps on the local provider's best candidate. */
  const validate = async (query: string) => {
    const read = readValidateInput({ query, country: 'LI' });
    const [candidate] = await provider.geocode(read.query, AbortSignal.timeout(5000));
    const scored = scoreCandidate(read.readFor(candidate!), { ...candidate!, provider: 'local' }, { country: 'LI' });
    return { components: scored.componentVerdicts, ...decideVerdict({ selected: scored, confidence: scored.confidence, thresholds: DEFAULT_THRESHOLDS }) };
  };
  const suggest = async (query: string) =>
    (await provider.autocomplete!({ query, country: 'LI', limit: 5 }, AbortSignal.timeout(5000))).map((c) => `${c.components.street} ${c.components.houseNumber}, ${c.components.city}`);

  it('a number the street does not have is a mismatch: the index knows every number of the street', async () => {
    const r = await validate('Äulestrasse 30, 9490 Vaduz');
    expect(r).toMatchObject({ verdict: 'invalid', components: { street: 'match', houseNumber: 'mismatch' } });
    expect(r.reasons).toContain('no_house_number_match');
    expect(await validate('Äulestrasse 3, 9490 Vaduz')).toMatchObject({ verdict: 'valid', components: { houseNumber: 'match' } });
    // With a wrong postcode too, the street still stands for the input: nothing but the postcode is replaced.
    const wrongPostcode = await validate('Äulestrasse 30, 9491 Vaduz');
    expect(wrongPostcode).toMatchObject({ verdict: 'invalid', components: { houseNumber: 'mismatch', postcode: 'corrected' } });
    expect(wrongPostcode.reasons).toEqual(expect.arrayContaining(['no_house_number_match', 'components_corrected']));
    expect(wrongPostcode.reasons).not.toContain('no_results');
  });

  it("a postcode none of the street's addresses has is a mismatch; one of its postcodes is not", async () => {
    for (const postcode of ['9494', '9499']) {
      const r = await validate(`Kirchstrasse 7, ${postcode} Vaduz`);
      expect(r).toMatchObject({ verdict: 'invalid', components: { street: 'match', houseNumber: 'mismatch', postcode: 'mismatch' } });
      expect(r.reasons).toContain('no_house_number_match');
    }
    expect((await validate('Kirchstrasse 7, 9491 Vaduz')).components).toMatchObject({ houseNumber: 'mismatch', postcode: 'not-checked' });
  });

  it.each(['Landstrasse 3, 9495 Triesen', 'Landstrasse 3, 9495'])("autocomplete of %s lists that street's numbers starting with 3, not other streets' 3", async (query) => {
    expect(await suggest(query)).toEqual(['Landstrasse 30, Triesen', 'Landstrasse 323, Triesen', 'Landstrasse 340, Triesen', 'Landstrasse 342, Triesen']);
  });
});
