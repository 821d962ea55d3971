import type { CreditLedger, UsageEventInput } from '../../src/billing/credit-ledger.js';
import type { ManualClock } from '../../src/lib/clock.js';

/** One call as the test remembers it, to compute the expected report independently of SQL. */
export interface KnownEvent {
  ms: number;
  env: 'live' | 'test';
  endpoint: string;
  verdict: string | null;
  provider: string | null;
  latencyMs: number;
  cached: boolean;
  credits: number;
  query: string | null;
  source: string | null;
}

const HOUR = 3_600_000;
const SOURCES = ['checkout', 'signup', null, 'crm'] as const;
const VERDICTS = ['valid', 'correctable', 'invalid'] as const;

/** Small seeded generator, so the history is the same on every run and backend. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Drives a known history through the ledger: from `firstDay` up to and including the day of
 * `until`, several calls a day except every sixth day, across sources, endpoints, verdicts,
 * both key environments and cache hits, plus one call either side of midnight on the 1st.
 */
export async function driveHistory(
  ledger: CreditLedger,
  clock: ManualClock,
  accountId: string,
  firstDay: number,
  until: number,
): Promise<KnownEvent[]> {
  const random = seeded(20261106);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const plan: Array<Omit<KnownEvent, 'credits' | 'provider'> & { answered: number }> = [];
  for (let day = firstDay, index = 0; day <= until; day += 24 * HOUR, index++) {
    if (index % 6 === 5) continue;
    const calls = 6 + Math.floor(random() * 8);
    for (let c = 0; c < calls; c++) {
      const ms = day + 6 * HOUR + c * HOUR + Math.floor(random() * 3_000_000);
      if (ms > until) break;
      const endpoint = random() < 0.6 ? '/v1/validate' : '/v1/autocomplete';
      plan.push({
        ms,
        env: random() < 0.7 ? 'live' : 'test',
        endpoint,
        verdict: endpoint === '/v1/validate' ? pick(VERDICTS) : null,
        latencyMs: 5 + Math.floor(random() * 900),
        cached: random() < 0.2,
        query: random() < 0.9 ? `Query ${plan.length} straat` : null,
        source: pick(SOURCES),
        answered: random() < 0.1 ? 0 : 3,
      });
    }
  }
  const boundary = Date.UTC(2026, 10, 1);
  for (const ms of [boundary - 1000, boundary]) {
    plan.push({ ms, env: 'live', endpoint: '/v1/validate', verdict: 'valid', latencyMs: 40, cached: false, query: 'midnight', source: 'checkout', answered: 2 });
  }
  plan.sort((a, b) => a.ms - b.ms);

  const events: KnownEvent[] = [];
  for (const { answered, ...call } of plan) {
    clock.set(call.ms);
    const provider = call.cached || answered > 0 ? (call.endpoint === '/v1/validate' ? 'pdok' : 'photon') : null;
    const input: UsageEventInput = {
      accountId,
      credentialId: call.env === 'live' ? 'key_live' : 'key_test',
      env: call.env,
      endpoint: call.endpoint,
      verdict: call.verdict,
      provider,
      latencyMs: call.latencyMs,
      cached: call.cached,
      query: call.query,
      source: call.source,
    };
    if (call.cached) {
      await ledger.recordFree(input);
      events.push({ ...call, provider, credits: 0 });
      continue;
    }
    const reservation = await ledger.reserve(accountId, 3);
    if (!reservation) throw new Error('The history account ran out of credits; give it more extra credits');
    const credits = Math.min(answered, reservation.total);
    await ledger.settle(reservation, credits, input);
    events.push({ ...call, provider, credits });
  }
  return events;
}
