import { describe, expect, it } from 'vitest';
import { AutocompleteRequest } from '../../src/contract/autocomplete.js';
import { ReverseRequest } from '../../src/contract/reverse.js';
import { ReverseEngine } from '../../src/engine/reverse.js';
import { ChunkBiller } from '../../src/engine/chunk-biller.js';
import { ProviderRunner } from '../../src/engine/fan-out.js';
import { AutocompleteEngine } from '../../src/engine/autocomplete.js';
import { DEFAULT_THRESHOLDS } from '../../src/engine/types.js';
import { ValidateEngine } from '../../src/engine/validate.js';
import { startAhead } from '../../src/engine/work-ahead.js';
import type { ProviderCandidate } from '../../src/providers/provider.js';
import type { ProviderSet } from '../../src/providers/registry.js';
import { MemoryResponseCache } from '../../src/store/cache/memory-cache.js';
import type { ResponseCache } from '../../src/store/cache/response-cache.js';
import { CreditsExhaustedError } from '../../src/engine/errors.js';
import { ManualClock } from '../../src/lib/clock.js';

const DAMRAK: ProviderCandidate = {
  components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
  location: { lat: 52.376, lng: 4.896 },
  precision: 'address',
};

/**
 * A shared cache (Redis) whose reads answer only when the test lets them: what the engine does
 * while a read is on its way is seen by the steps logged before `answer()`.
 */
function slowCache(log: string[]) {
  const memory = new MemoryResponseCache();
  const waiting: (() => void)[] = [];
  const cache: ResponseCache = {
    getText: async (key) => {
      log.push('cache read sent');
      await new Promise<void>((resolve) => waiting.push(resolve));
      log.push('cache answered');
      return memory.getText(key);
    },
    get: (key) => memory.get(key),
    getTexts: (keys) => memory.getTexts(keys),
    set: (key, value, ttlMs) => memory.set(key, value, ttlMs),
    setText: (key, text, ttlMs) => memory.setText(key, text, ttlMs),
    setTexts: (entries) => memory.setTexts(entries),
    close: () => memory.close(),
  };
  /** Answers the reads sent so far, once the turn in which they were sent has ended. */
  const answer = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const release of waiting.splice(0)) release();
  };
  return { cache, answer };
}

/** Turns of the event loop: work started ahead begins on the next one. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Resolves once `log` holds `entry`; fails if a hundred turns pass without it. */
async function logged(log: string[], entry: string): Promise<void> {
  for (let i = 0; i < 100 && !log.includes(entry); i += 1) await turns(1);
  expect(log).toContain(entry);
}

/** The local index alone (answers from our own data), each look-up logged. */
function localOnly(log: string[], ownData: boolean): ProviderSet {
  return {
    enabled: ['local'],
    active: ['local'],
    close: async () => {},
    get: (id) =>
      id === 'local'
        ? {
            id: 'local',
            ...(ownData ? { ownData: true as const } : {}),
            covers: () => true,
            geocode: async () => {
              log.push('look-up');
              return [structuredClone(DAMRAK)];
            },
            autocomplete: async () => {
              log.push('look-up');
              return [structuredClone(DAMRAK)];
            },
            reverse: async () => {
              log.push('look-up');
              return [structuredClone(DAMRAK)];
            },
          }
        : undefined,
  };
}

/** A chunk's bill step with credits enough: the engine's real bill step without a database. */
function biller(credits = 100) {
  const reservation = { id: 'r1', accountId: 'acc', month: '2026-12', grant: credits, extra: 0, total: credits };
  return new ChunkBiller(new ManualClock(0), { reservation, open: true, short: false, plan: 'free', quota: 500 });
}

const ctx = { accountId: 'acc', credentialId: 'key', env: 'live', endpoint: '/v1/validate', source: null, startedAt: 0 };

describe('a request asked for the first time: its look-up starts beside the shared cache read', () => {
  it('validate: the look-up runs while the read travels, once; the repeat is a hit that looks nothing up', async () => {
    const log: string[] = [];
    const { cache, answer } = slowCache(log);
    const bill = biller();
    const engine = new ValidateEngine({ runner: new ProviderRunner(localOnly(log, true), { timeoutMs: 5_000 }), cache, biller: bill, cacheTtlMs: 60_000 });
    const request = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
    const first = engine.validate(request, { ...ctx, thresholds: DEFAULT_THRESHOLDS });
    // The read is held: the look-up does not wait for it.
    await logged(log, 'look-up');
    expect(log).toEqual(['cache read sent', 'look-up']);
    await answer();
    const answered = await first;
    expect(answered).toMatchObject({ cached: false, verdict: 'valid' });
    // Looked up once and charged once: the early look-up's answer is the one served.
    expect(log).toEqual(['cache read sent', 'look-up', 'cache answered']);
    expect(bill.charges.map((c) => c.credits)).toEqual([1]);
    // The answer is cached in the background: give it its turn, then ask again.
    await turns(1);
    log.length = 0;
    const again = engine.validate(request, { ...ctx, thresholds: DEFAULT_THRESHOLDS });
    await turns(5);
    expect(log).toEqual(['cache read sent']);
    await answer();
    expect(await again).toMatchObject({ cached: true, verdict: 'valid' });
    expect(log).toEqual(['cache read sent', 'cache answered']);
    expect(bill.charges.map((c) => c.credits)).toEqual([1, 0]);
  });

  it('autocomplete: the same; and a provider that costs a call is never asked before the cache has missed', async () => {
    for (const ownData of [true, false]) {
      const log: string[] = [];
      const { cache, answer } = slowCache(log);
      const engine = new AutocompleteEngine({ runner: new ProviderRunner(localOnly(log, ownData), { timeoutMs: 5_000 }), cache, biller: biller(), cacheTtlMs: 60_000 });
      const asking = engine.autocomplete(AutocompleteRequest.parse({ query: 'Damrak 1', country: 'NL' }), { ...ctx, endpoint: '/v1/autocomplete' });
      if (ownData) await logged(log, 'look-up');
      else await turns(5);
      expect(log).toEqual(ownData ? ['cache read sent', 'look-up'] : ['cache read sent']);
      await answer();
      const { suggestions, cached } = await asking;
      expect(cached).toBe(false);
      expect(suggestions.map((s) => s.components.street)).toEqual(['Damrak']);
      expect(log).toEqual(ownData ? ['cache read sent', 'look-up', 'cache answered'] : ['cache read sent', 'cache answered', 'look-up']);
    }
  });

  it('a bulk run (its engine remembers no request): the look-up waits for the cache read, as rows per second matter there, not a row\'s latency', async () => {
    const log: string[] = [];
    const { cache, answer } = slowCache(log);
    const engine = new ValidateEngine({ runner: new ProviderRunner(localOnly(log, true), { timeoutMs: 5_000 }), cache, biller: biller(), cacheTtlMs: 60_000, rememberRequests: false });
    const asking = engine.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { ...ctx, thresholds: DEFAULT_THRESHOLDS });
    await turns(5);
    expect(log).toEqual(['cache read sent']);
    await answer();
    expect((await asking).cached).toBe(false);
    expect(log).toEqual(['cache read sent', 'cache answered', 'look-up']);
  });

  it('reverse: its look-up waits for the cache read (its statement is shorter than the reservation it would delay); a repeat is a hit from the kept answer', async () => {
    const log: string[] = [];
    const { cache, answer } = slowCache(log);
    const engine = new ReverseEngine({ runner: new ProviderRunner(localOnly(log, true), { timeoutMs: 5_000 }), cache, biller: biller(), cacheTtlMs: 60_000 });
    const ask = () => engine.reverse(ReverseRequest.parse({ lat: 52.37602, lng: 4.89601 }), { ...ctx, endpoint: '/v1/reverse' });
    const first = ask();
    await turns(5);
    expect(log).toEqual(['cache read sent']);
    await answer();
    expect((await first).cached).toBe(false);
    expect(log).toEqual(['cache read sent', 'cache answered', 'look-up']);
    await turns(1);
    log.length = 0;
    const again = ask();
    await turns(5);
    await answer();
    const { suggestions, cached } = await again;
    expect(cached).toBe(true);
    expect(suggestions.map((s) => s.components.street)).toEqual(['Damrak']);
    expect(log).toEqual(['cache read sent', 'cache answered']);
  });

  it('an in-process cache that holds the answer for a request new to this engine: nothing is looked up', async () => {
    const log: string[] = [];
    const cache = new MemoryResponseCache();
    const runner = new ProviderRunner(localOnly(log, true), { timeoutMs: 5_000 });
    const request = { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' };
    // Another engine (another instance's answer in a shared cache) cached it.
    await new ValidateEngine({ runner, cache, biller: biller(), cacheTtlMs: 60_000 }).validate(request, { ...ctx, thresholds: DEFAULT_THRESHOLDS });
    await turns(1);
    log.length = 0;
    const fresh = new ValidateEngine({ runner, cache, biller: biller(), cacheTtlMs: 60_000 });
    expect(await fresh.validate(request, { ...ctx, thresholds: DEFAULT_THRESHOLDS })).toMatchObject({ cached: true });
    await turns(5);
    expect(log).toEqual([]);
  });

  it('fewer credits than providers: the early look-up is dropped and the call asks what the credits allow', async () => {
    const log: string[] = [];
    const { cache, answer } = slowCache(log);
    const bill = biller(0);
    const engine = new ValidateEngine({ runner: new ProviderRunner(localOnly(log, true), { timeoutMs: 5_000 }), cache, biller: bill, cacheTtlMs: 60_000 });
    const asking = engine.validate({ query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { ...ctx, thresholds: DEFAULT_THRESHOLDS });
    await answer();
    await expect(asking).rejects.toBeInstanceOf(CreditsExhaustedError);
    expect(bill.charges).toEqual([]);
  });
});

describe('work started ahead, then not wanted', () => {
  const answered = { value: 'answer', answered: 1, outcome: { verdict: null, provider: 'local', query: 'Damrak' } };

  it('dropped before its turn: it never starts', async () => {
    const steps: string[] = [];
    const ahead = startAhead(async () => {
      steps.push('started');
      return answered;
    });
    ahead.drop();
    expect('error' in (await ahead.outcome)).toBe(true);
    expect(steps).toEqual([]);
  });

  it('dropped while its providers are asked: it stops before scoring what they answered', async () => {
    const steps: string[] = [];
    let answer = () => undefined as void;
    const providers = new Promise<void>((resolve) => (answer = resolve));
    const ahead = startAhead(async (stillWanted) => {
      steps.push('asked');
      await providers;
      stillWanted();
      steps.push('scored');
      return answered;
    });
    await logged(steps, 'asked');
    ahead.drop();
    answer();
    expect('error' in (await ahead.outcome)).toBe(true);
    expect(steps).toEqual(['asked']);
  });

  it('kept: its result', async () => {
    const ahead = startAhead(async (stillWanted) => {
      stillWanted();
      return answered;
    });
    expect(await ahead.outcome).toEqual({ result: answered });
  });
});
