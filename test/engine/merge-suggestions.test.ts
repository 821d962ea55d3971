import { describe, expect, it } from 'vitest';
import { Suggestion } from '../../src/contract/autocomplete.js';
import type { ProviderAttempt } from '../../src/engine/fan-out.js';
import { mergeSuggestions } from '../../src/engine/merge-suggestions.js';
import { postalLines } from '../../src/engine/postal-lines.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';

const baader = { street: 'Baaderstraße', houseNumber: '22', postcode: '80469', city: 'München', country: 'DE' };
const street = { street: 'Baaderstraße', postcode: '80469', city: 'München', country: 'DE' };

function attempt(provider: string, candidates: ProviderCandidate[]): ProviderAttempt {
  return { provider, answered: true, candidates, step: { provider, status: 'ok' } };
}
const house = (units?: string[], components = baader): ProviderCandidate => ({
  components,
  location: { lat: 48.13, lng: 11.58 },
  precision: 'address',
  ...(units ? { units } : {}),
});

// Issue 27: the house's units (ProviderCandidate.units, from the local index) decide whether the form asks for one.
describe('mergeSuggestions and units', () => {
  it('asks for the unit (action add_unit) when the house lists two or more units and none was typed', () => {
    const [s] = mergeSuggestions([attempt('local', [house(['Whg. 1', 'Whg. 2', 'Whg. 5'])])], 5, { country: 'DE' });
    expect(s).toMatchObject({ action: 'add_unit', components: baader, provider: 'local' });
    expect(s?.components.unit).toBeUndefined();
    // It is what the contract declares, so the OpenAPI document and the widget agree with it.
    expect(Suggestion.parse(s)).toEqual(s);
  });

  it('does not ask when a unit was typed: it is carried on the house and in its label', () => {
    const [s] = mergeSuggestions([attempt('local', [house(['Whg. 1', 'Whg. 5'])])], 5, { country: 'DE', unit: 'Whg. 5' });
    expect(s?.action).toBeUndefined();
    expect(s?.components).toEqual({ ...baader, unit: 'Whg. 5' });
    expect(s?.label).toBe(postalLines({ ...baader, unit: 'Whg. 5' }, 'DE').formatted);
  });

  it('does not ask for a house with one unit or none listed, nor for a street', () => {
    const out = mergeSuggestions(
      [attempt('local', [house(['Whg. 1']), house(undefined, { ...baader, houseNumber: '24' }), { components: street, precision: 'street', units: ['1', '2'] }])],
      5,
      { country: 'DE' },
    );
    expect(out).toHaveLength(3);
    expect(out.map((s) => s.action)).toEqual([undefined, undefined, undefined]);
  });

  it('carries a typed unit only on house-level suggestions', () => {
    const out = mergeSuggestions([attempt('photon', [house(), { components: street, precision: 'street' }])], 5, { unit: 'Whg. 5' });
    expect(out.map((s) => s.components.unit)).toEqual(['Whg. 5', undefined]);
  });

  it('labels with postalLines and deduplicates across providers by that label, in provider order', () => {
    const out = mergeSuggestions(
      [attempt('local', [house(['1', '2'])]), attempt('photon', [{ ...house(), label: 'Baaderstr. 22, München' }, { components: street, precision: 'street' }])],
      5,
      { country: 'DE' },
    );
    expect(out.map((s) => [s.provider, s.label])).toEqual([
      ['local', postalLines(baader, 'DE').formatted],
      ['photon', postalLines(street, 'DE').formatted],
    ]);
  });
});
