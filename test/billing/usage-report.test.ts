import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageReporter } from '../../src/billing/usage-report.js';
import { UsageResponse } from '../../src/contract/usage.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { driveHistory, type KnownEvent } from './history.js';
import { eventRows, type LedgerFixture, newAccount, openLedgerFixture } from './storage.js';

const DAY = 86_400_000;
const NOVEMBER = Date.UTC(2026, 10, 1);
const NOW = Date.UTC(2026, 10, 6, 15, 0, 0);
const EXTRA = 1000;

const pad = (n: number) => String(n).padStart(2, '0');
const dayLabel = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};
const stamp = (ms: number) => {
  const d = new Date(ms);
  return `${dayLabel(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};
const total = (events: KnownEvent[]) => events.reduce((sum, e) => sum + e.credits, 0);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The report the test expects, computed from the remembered calls with plain array code. */
function expectedReport(events: KnownEvent[], now: number, source: string | null, environment: 'live' | 'test') {
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const thisMonth = events.filter((e) => e.ms >= monthStart && e.ms <= now);
  const kept = source === null ? events : events.filter((e) => e.source === source);
  const keptThisMonth = thisMonth.filter((e) => kept.includes(e));
  const today = Math.floor(now / DAY) * DAY;

  const daily = Array.from({ length: 14 }, (_, i) => {
    const start = today - (13 - i) * DAY;
    const onDay = kept.filter((e) => e.ms >= start && e.ms < start + DAY);
    return { day: dayLabel(start), n: onDay.length, credits: total(onDay) };
  });
  const summary = [...new Set(keptThisMonth.map((e) => `${e.endpoint}|${e.verdict ?? ''}`))]
    .map((group) => {
      const rows = keptThisMonth.filter((e) => `${e.endpoint}|${e.verdict ?? ''}` === group);
      return { endpoint: rows[0]!.endpoint, verdict: rows[0]!.verdict, n: rows.length, credits: total(rows) };
    })
    .sort((a, b) => compare(a.endpoint, b.endpoint) || compare(a.verdict ?? '', b.verdict ?? ''));
  const sources = [...new Set(thisMonth.map((e) => e.source ?? ''))]
    .map((tag) => {
      const rows = thisMonth.filter((e) => (e.source ?? '') === tag);
      return { source: tag, n: rows.length, credits: total(rows) };
    })
    .sort((a, b) => b.credits - a.credits || compare(a.source, b.source));
  const recent = kept
    .slice(-50)
    .reverse()
    .map((e) => ({
      endpoint: e.endpoint,
      verdict: e.verdict,
      provider: e.provider,
      latency_ms: e.latencyMs,
      cached: e.cached ? 1 : 0,
      credits: e.credits,
      query: e.query,
      source: e.source,
      at: stamp(e.ms),
    }));
  // Each month's grant is spent first; what a month used beyond it came out of the extra credits.
  const months = [...new Set(events.map((e) => dayLabel(e.ms).slice(0, 7)))];
  const extraSpent = months
    .map((m) => total(events.filter((e) => dayLabel(e.ms).startsWith(m))))
    .reduce((sum, used) => sum + Math.max(0, used - 500), 0);
  return {
    plan: 'free',
    quota: 500,
    extraCredits: EXTRA - extraSpent,
    creditsUsedThisMonth: total(thisMonth),
    environment,
    filteredBySource: source,
    daily,
    summary,
    sources,
    recent,
    // No feedback was given in this history (test/feedback/ covers the counts).
    feedback: { validated_used: 0, user_used: 0, unvalidated_used: 0, unused: 0 },
  };
}

describe.each(STORAGE_BACKENDS)('usage report on %s', (backend) => {
  let f: LedgerFixture;
  let reporter: UsageReporter;
  let acc: string;
  let events: KnownEvent[];

  beforeAll(async () => {
    f = await openLedgerFixture(backend);
    acc = await newAccount(f, 'free', EXTRA);
    events = await driveHistory(f.ledger, f.clock, acc, Date.UTC(2026, 9, 1), NOW);
    reporter = new UsageReporter(f.database.db, f.ledger, f.clock);
    f.clock.set(NOW);
  }, 120_000);
  afterAll(async () => {
    await f.cleanup();
  });

  it('built the history the report has to cover', () => {
    const november = events.filter((e) => e.ms >= NOVEMBER);
    const daysWithCalls = new Set(events.map((e) => dayLabel(e.ms)));
    expect(daysWithCalls.size).toBeGreaterThan(14);
    expect(november.length).toBeGreaterThan(50);
    expect(events.filter((e) => e.source === 'checkout').length).toBeGreaterThan(50);
    expect(total(events.filter((e) => e.ms < NOVEMBER))).toBeGreaterThan(500);
    const kinds = (pick: (e: KnownEvent) => unknown) => new Set(november.map(pick)).size;
    expect([kinds((e) => e.env), kinds((e) => e.cached), kinds((e) => e.endpoint), kinds((e) => e.verdict), kinds((e) => e.source)]).toEqual([2, 2, 2, 4, 4]);
    expect(november.some((e) => !e.cached && e.credits === 0)).toBe(true);
    const expected = expectedReport(events, NOW, null, 'live');
    expect(expected.daily.some((d) => d.n === 0)).toBe(true);
    expect(expected.daily[0]!.day < '2026-11-01').toBe(true);
  });

  it('reports every field for the whole account', async () => {
    const report = await reporter.report({ accountId: acc, environment: 'live', source: null });
    expect(UsageResponse.parse(report)).toEqual(report);
    expect(report).toEqual(expectedReport(events, NOW, null, 'live'));
    expect(report.extraCredits).toBeLessThan(EXTRA);
    expect(report.recent[0]!.at).toBe(stamp(events[events.length - 1]!.ms));
  });

  it('names the calling environment but keeps both environments in every figure', async () => {
    const live = await reporter.report({ accountId: acc, environment: 'live', source: null });
    const test = await reporter.report({ accountId: acc, environment: 'test', source: null });
    expect(test).toEqual({ ...live, environment: 'test' });
    expect(new Set(live.recent.map((r) => r.cached))).toEqual(new Set([0, 1]));
  });

  it('filters daily, summary and recent by source, never sources', async () => {
    const all = await reporter.report({ accountId: acc, environment: 'live', source: null });
    const checkout = await reporter.report({ accountId: acc, environment: 'test', source: 'checkout' });
    expect(checkout).toEqual(expectedReport(events, NOW, 'checkout', 'test'));
    expect(checkout.sources).toEqual(all.sources);
    expect(checkout.recent).toHaveLength(50);
    expect(checkout.recent.every((r) => r.source === 'checkout')).toBe(true);
    expect(checkout.daily.reduce((s, d) => s + d.n, 0)).toBeLessThan(all.daily.reduce((s, d) => s + d.n, 0));
  });

  it('answers an unknown source with zero days and empty lists', async () => {
    const report = await reporter.report({ accountId: acc, environment: 'live', source: 'nobody-uses-this' });
    expect(report.filteredBySource).toBe('nobody-uses-this');
    expect(report.daily.map((d) => [d.n, d.credits])).toEqual(Array.from({ length: 14 }, () => [0, 0]));
    expect(report.summary).toEqual([]);
    expect(report.recent).toEqual([]);
    expect(report.sources).toEqual(expectedReport(events, NOW, null, 'live').sources);
  });

  it('costs nothing and writes no event', async () => {
    const before = [await f.ledger.balance(acc), (await eventRows(f.database, acc)).length];
    await reporter.report({ accountId: acc, environment: 'live', source: null });
    await reporter.report({ accountId: acc, environment: 'live', source: 'checkout' });
    expect([await f.ledger.balance(acc), (await eventRows(f.database, acc)).length]).toEqual(before);
  });

  it('starts a new month at 00:00 UTC on the 1st, keeping the last 14 days', async () => {
    const december = Date.UTC(2026, 11, 1, 0, 0, 5);
    f.clock.set(december);
    try {
      const report = await reporter.report({ accountId: acc, environment: 'live', source: null });
      expect(report).toEqual(expectedReport(events, december, null, 'live'));
      expect(report).toMatchObject({ creditsUsedThisMonth: 0, summary: [], sources: [] });
      expect(report.daily.map((d) => d.day)).toEqual([
        ...Array.from({ length: 13 }, (_, i) => `2026-11-${pad(18 + i)}`),
        '2026-12-01',
      ]);
    } finally {
      f.clock.set(NOW);
    }
  });
});
