import { describe, expect, it } from 'vitest';
import type { GeoPoint } from '../../src/contract/address.js';
import { AutocompleteRequest, Suggestion } from '../../src/contract/autocomplete.js';
import type { ProviderId } from '../../src/contract/enums.js';
import { AutocompleteEngine } from '../../src/engine/autocomplete.js';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import type { AutocompleteQuery, ProviderCandidate } from '../../src/providers/provider.js';
import type { ProviderSet } from '../../src/providers/registry.js';
import { MemoryResponseCache } from '../../src/store/cache/memory-cache.js';

/** One street and number in five towns along a line eastwards from Oberbach, 0.3° (about 20 km) apart. */
const TOWNS = ['Oberbach', 'Mittelbach', 'Unterbach', 'Hinterbach', 'Vorderbach'];
const house = (i: number): ProviderCandidate => ({
  components: { street: 'Mühlenweg', houseNumber: '56', postcode: `1000${i}`, city: TOWNS[i] as string, country: 'DE' },
  location: { lat: 50, lng: 8 + 0.3 * i },
  precision: 'address',
});
const street: ProviderCandidate = { components: { street: 'Mühlenweg', postcode: '10000', city: 'Oberbach', country: 'DE' }, location: { lat: 50, lng: 8 }, precision: 'street' };
const postcode: ProviderCandidate = { components: { postcode: '10000', city: 'Oberbach', country: 'DE' }, location: { lat: 50, lng: 8 }, precision: 'postcode' };
const town: ProviderCandidate = { components: { city: 'Mühlhausen', country: 'DE' }, location: { lat: 51.2, lng: 10.4 }, precision: 'locality' };

interface Fake {
  answers: ProviderCandidate[];
  ranksByNear?: true;
}

/** The real autocomplete engine (fan-out, merge, cache) over providers answering what the test says; each call's query is recorded. */
function engineWith(fakes: Partial<Record<ProviderId, Fake>>) {
  const ids = Object.keys(fakes) as ProviderId[];
  const asked: { provider: ProviderId; query: AutocompleteQuery }[] = [];
  const providers: ProviderSet = {
    enabled: ids,
    active: ids,
    close: async () => {},
    get: (id) => {
      const fake = fakes[id as ProviderId];
      if (!fake) return undefined;
      return {
        id: id as ProviderId,
        covers: () => true,
        ...(fake.ranksByNear ? { ranksByNear: true as const } : {}),
        geocode: async () => [],
        autocomplete: async (query: AutocompleteQuery) => {
          asked.push({ provider: id as ProviderId, query });
          return structuredClone(fake.answers);
        },
      };
    },
  };
  const engine = new AutocompleteEngine({
    runner: new ProviderRunner(providers, { timeoutMs: 5_000 }),
    cache: new MemoryResponseCache(),
    biller: { ensureCredits: async () => {}, billed: async (_ctx, want, work) => (await work(want)).value, free: async () => {} },
    cacheTtlMs: 60_000,
  });
  const ctx = { accountId: 'acc_1', credentialId: 'key_1', env: 'live', endpoint: '/v1/autocomplete', source: null, startedAt: 0 };
  const ask = (body: Record<string, unknown>) => engine.autocomplete(AutocompleteRequest.parse(body), ctx);
  return { ask, asked };
}

const cities = (s: readonly Suggestion[]) => s.map((x) => x.components.city);
const at = (lat: number, lng: number): GeoPoint => ({ lat, lng });

describe('near in autocomplete (issue 35)', () => {
  it('without near nothing changes: the provider order stands', async () => {
    const { ask } = engineWith({ photon: { answers: [0, 1, 2, 3, 4].map(house) } });
    expect(cities((await ask({ query: 'Mühlenweg 56', limit: 5 })).suggestions)).toEqual(TOWNS);
  });

  it('re-ranks a provider that does not rank by position: the nearby town first, equally far ones in its order', async () => {
    const { ask, asked } = engineWith({ photon: { answers: [0, 1, 2, 3, 4].map(house) } });
    const { suggestions } = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(50.01, 8.61) });
    const order = cities(suggestions);
    expect(order[0]).toBe('Unterbach');
    // Mittelbach and Hinterbach lie equally far (about 21 km), Oberbach and Vorderbach too (about 43 km).
    expect(order.indexOf('Mittelbach')).toBeLessThan(order.indexOf('Hinterbach'));
    expect(order.indexOf('Oberbach')).toBeLessThan(order.indexOf('Vorderbach'));
    // The provider is asked with the position's ~1 km cell.
    expect(asked[0]?.query.near).toEqual({ lat: 50.01, lng: 8.61 });
  });

  it('beyond about 100 km the position changes nothing', async () => {
    const { ask } = engineWith({ photon: { answers: [0, 1, 2, 3, 4].map(house) } });
    const { suggestions } = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(55, 8) });
    expect(cities(suggestions)).toEqual(TOWNS);
  });

  it("keeps the order of a provider that ranks by position itself, and hands it the position's cell", async () => {
    const { ask, asked } = engineWith({ local: { answers: [0, 1, 2, 3, 4].map(house), ranksByNear: true } });
    const { suggestions } = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(50.0049, 9.2051) });
    expect(cities(suggestions)).toEqual(TOWNS);
    expect(asked[0]?.query.near).toEqual({ lat: 50, lng: 9.21 });
  });
});

describe('types and type in autocomplete (issue 35)', () => {
  const mixed = { answers: [house(0), street, postcode, town] };

  it('says the type of every suggestion and keeps every type by default', async () => {
    const { ask } = engineWith({ photon: mixed });
    const { suggestions } = await ask({ query: 'Mühl', limit: 5 });
    expect(suggestions.map((s) => s.type)).toEqual(['address', 'street', 'postcode', 'locality']);
    for (const s of suggestions) expect(Suggestion.parse(s)).toEqual(s);
  });

  it('passes the kinds wanted on and drops the others a provider returned anyway', async () => {
    const { ask, asked } = engineWith({ photon: mixed });
    const { suggestions } = await ask({ query: 'Mühl', limit: 5, types: ['postcode', 'street'] });
    expect(suggestions.map((s) => s.type)).toEqual(['street', 'postcode']);
    expect(asked[0]?.query.types).toEqual(['street', 'postcode']);
    const towns = await ask({ query: 'Mühl', limit: 5, types: ['locality'] });
    expect(towns.suggestions.map((s) => [s.type, s.label])).toEqual([['locality', 'Mühlhausen']]);
  });

  it('asks for all four like for none: the same answer, from the same cache entry', async () => {
    const { ask, asked } = engineWith({ photon: mixed });
    const all = await ask({ query: 'Mühl', limit: 5, types: ['locality', 'address', 'street', 'postcode'] });
    const none = await ask({ query: 'Mühl', limit: 5 });
    expect(none).toEqual({ ...all, cached: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.query.types).toBeUndefined();
  });

  it('marks what was typed in each label', async () => {
    const { ask } = engineWith({ photon: { answers: [house(0)] } });
    const [s] = (await ask({ query: 'muhlenweg 5', limit: 5 })).suggestions;
    expect(s?.label).toBe('Mühlenweg 56, 10000 Oberbach');
    expect(s?.matches.map((m) => s.label.slice(m.offset, m.offset + m.length))).toEqual(['Mühlenweg', '5']);
  });
});

describe('the cache key with near and types (issue 35)', () => {
  it('neighbours within the same ~1 km cell share an entry; 20 km away is another', async () => {
    const { ask, asked } = engineWith({ photon: { answers: [0, 1, 2].map(house) } });
    const first = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(50.0012, 8.3012) });
    // About 600 m from the first, in the same cell.
    const neighbour = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(49.9961, 8.3038) });
    const away = await ask({ query: 'Mühlenweg 56', limit: 5, near: at(50.0012, 8.5812) });
    expect(first.cached).toBe(false);
    expect(neighbour).toEqual({ ...first, cached: true });
    expect(away.cached).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it('a request with a position, or with types, never gets the answer cached without them', async () => {
    const { ask, asked } = engineWith({ photon: { answers: [0, 1, 2].map(house) } });
    await ask({ query: 'Mühlenweg 56', limit: 5 });
    expect((await ask({ query: 'Mühlenweg 56', limit: 5, near: at(50, 8.6) })).cached).toBe(false);
    expect((await ask({ query: 'Mühlenweg 56', limit: 5, types: ['street'] })).cached).toBe(false);
    expect((await ask({ query: 'Mühlenweg 56', limit: 5, types: ['address'] })).cached).toBe(false);
    expect((await ask({ query: 'Mühlenweg 56', limit: 5 })).cached).toBe(true);
    expect(asked).toHaveLength(4);
  });
});
