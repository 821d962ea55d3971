import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLocalIndex } from '../../src/local-index/index.js';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { fixture, openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

describe.each(STORAGE_BACKENDS)('local provider (%s)', (backend) => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox(backend);
  });
  afterEach(async () => {
    await box.close();
  });

  it('covers nothing while the index is empty, then exactly the imported countries', async () => {
    const provider = createLocalProvider(box.index);
    expect(provider.id).toBe('local');
    expect(provider.covers(undefined)).toBe(false);
    expect(provider.covers('NL')).toBe(false);
    expect(provider.available?.()).toBe(false);
    await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    expect(provider.covers(undefined)).toBe(true);
    expect(provider.covers('NL')).toBe(true);
    expect(provider.covers('nl')).toBe(true);
    expect(provider.covers('DE')).toBe(false);
    expect(provider.available?.()).toBe(true);
  });

  it('notices an import made by another process (the CLI) without a restart', async () => {
    // Only setInterval is faked: the index's periodic re-check, advanced here instead of waited for.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const server = await openLocalIndex({
      dataDir: box.sandbox.dataDir,
      ...(box.sandbox.databaseUrl ? { databaseUrl: box.sandbox.databaseUrl, schema: box.sandbox.schema } : {}),
    });
    try {
      const provider = createLocalProvider(server);
      await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
      // SQLite sees the commit at once (its version is read per macrotask); PostgreSQL without
      // LISTEN (`follow`) at its next poll.
      await vi.advanceTimersByTimeAsync(2000);
      await vi.waitFor(() => expect(provider.covers('NL')).toBe(true));
      expect(provider.available?.()).toBe(true);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it('maps hits to candidates: address precision for house numbers, street precision otherwise, a 0-1 confidence', async () => {
    await box.index.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    const provider = createLocalProvider(box.index);
    const signal = new AbortController().signal;
    const [hit] = await provider.geocode({ query: 'Damrak 1, 1012 LG Amsterdam', components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam' } }, signal);
    expect(hit).toMatchObject({
      precision: 'address',
      providerConfidence: 1,
      label: 'Damrak 1, 1012 LG Amsterdam',
      components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL', state: 'Noord-Holland' },
      location: { lat: 52.3749, lng: 4.89421 },
    });
    const [street] = await provider.geocode({ components: { street: 'Herengracht', city: 'Amsterdam' } }, signal);
    expect(street).toMatchObject({ precision: 'street', components: { street: 'Herengracht', postcode: '1015 BA' } });
    const suggestions = await provider.autocomplete!({ query: 'Keizersgracht 12', limit: 2 }, signal);
    expect(suggestions.map((s) => s.label)).toEqual(['Keizersgracht 12, 1015 CJ Amsterdam', 'Keizersgracht 120, 1015 CW Amsterdam']);
    for (const s of suggestions) expect(s.providerConfidence).toBeGreaterThan(0);
  });

  it('does not start work for an aborted request', async () => {
    const provider = createLocalProvider(box.index);
    const aborted = AbortSignal.abort();
    await expect(provider.geocode({ components: { street: 'Damrak' } }, aborted)).rejects.toThrow();
    await expect(provider.autocomplete!({ query: 'Damrak', limit: 5 }, aborted)).rejects.toThrow();
  });
});
