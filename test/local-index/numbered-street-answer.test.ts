import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readValidateInput } from '../../src/engine/validate-input.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import { answeringEngine } from '../engine/support/answering-engine.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';
import { osmFixture } from './support/osm-fixture.js';

const signal = new AbortController().signal;

/**
 * Issue 34 item 6 through a real import: every street of the local index holds its house numbers,
 * so a street typed without one (or with one the reader could not take) is incomplete, never
 * `valid`; a number in quotes or after `Nr.` is read and the house found.
 */
describe.each(STORAGE_BACKENDS)('a numbered street without its number (%s)', (backend) => {
  let box: IndexSandbox;
  beforeAll(async () => {
    box = await openIndexSandbox(backend);
    await box.index.importFile(box.file('li.osm.pbf', osmFixture()), { format: 'osm', country: 'LI' });
  });
  afterAll(async () => box?.close());

  /** The engine over what the real local provider answers for this request. */
  async function answer(query: string) {
    const local = createLocalProvider(box.index);
    const read = readValidateInput({ query, country: 'LI' });
    const candidates: ProviderCandidate[] = await local.geocode(read.query, signal);
    return { candidates, answer: await answeringEngine({ local: candidates })({ query, country: 'LI' }) };
  }

  it('Städtle, 9490 Vaduz: the street is found, its number is missing, the action is fix', async () => {
    const { candidates, answer: a } = await answer('Städtle, 9490 Vaduz');
    expect(candidates[0]).toMatchObject({ precision: 'street', houseNumbersKnown: true, components: { street: 'Städtle' } });
    expect(a.verdict).not.toBe('valid');
    expect(a).toMatchObject({ components: { street: 'match', houseNumber: 'missing' }, granularity: { validated: 'street' }, action: 'fix' });
    expect(a.reasons).toContain('components_incomplete');
  });

  it.each(['Städtle "12", 9490 Vaduz', 'Städtle Nr. 12, 9490 Vaduz', 'Städtle nº 12, 9490 Vaduz'])('%s: house 12 is read and valid', async (query) => {
    const { answer: a } = await answer(query);
    expect(a).toMatchObject({ verdict: 'valid', action: 'accept', components: { houseNumber: 'match' }, address: { houseNumber: '12', lines: ['Städtle 12', '9490 Vaduz'] } });
  });
});
