import type { GeoPoint } from '../contract/address.js';
import type { TraceStep } from '../contract/validate.js';
import type { TraceStatus } from '../contract/enums.js';
import { PROVIDER_IDS } from '../contract/enums.js';
import type { Logger } from '../lib/logger.js';
import type { CircuitStateName, Metrics } from '../lib/metrics.js';
import type { AutocompleteQuery, GeocodeQuery, Provider, ProviderCandidate, ReverseQuery } from '../providers/provider.js';
import type { ProviderSet } from '../providers/registry.js';
import { type BreakerOptions, type GuardOutcome, ProviderGuard } from './provider-guard.js';

/**
 * The fan-out (DESIGN §2): every eligible provider in parallel, each behind its own timeout
 * and circuit breaker, every enabled provider reported as one TraceStep in config order.
 * A provider failing never fails the request: run() never rejects.
 */
export interface ProviderAttempt {
  step: TraceStep;
  /** A well-formed response, even with zero results: what gets billed. */
  answered: boolean;
  candidates: ProviderCandidate[];
  provider: string;
}

export type Kind = 'geocode' | 'autocomplete' | 'reverse';
type AnyQuery = GeocodeQuery | AutocompleteQuery | ReverseQuery;

/** A provider and the generation of the data it answered from (Provider.dataGeneration). */
export type DataGeneration = readonly [provider: string, generation: number];

export interface RunnerOptions {
  timeoutMs: number;
  breaker?: BreakerOptions;
  /** Every attempt is counted and timed here (provider, kind, outcome). */
  metrics?: Metrics;
  /** Failed calls and circuit transitions are logged at `warn`. */
  logger?: Logger;
}

export interface RunOptions {
  /** Call only these of the eligible providers (the credits reserved); the rest are `skipped`. */
  only?: readonly string[];
  /** The request this run serves: its provider warnings carry it as `reqId`. */
  requestId?: string | undefined;
}

/** The country a query is asked for; a position names none: every provider that covers "no country given" is asked. */
function countryOf(query: AnyQuery): string | undefined {
  return 'country' in query ? (query.country ?? ('components' in query ? query.components.country : undefined)) : undefined;
}

type Plan = { id: string; provider: Provider } | { id: string; status: TraceStatus; error?: string };

export class ProviderRunner {
  private readonly guards = new Map<string, ProviderGuard>();
  /** Providers the start-up probe could not reach, until one of their calls is answered. */
  private readonly unreachable = new Set<string>();

  constructor(
    private readonly providers: ProviderSet,
    private readonly opts: RunnerOptions,
  ) {}

  /** Whether the provider's own autocomplete order already uses the customer's position (Provider.ranksByNear). */
  ranksByNear(id: string): boolean {
    return this.providers.get(id)?.ranksByNear === true;
  }

  /** Whether every one of `ids` answers from data this service holds (Provider.ownData): their work may start before the reservation. */
  ownData(ids: readonly string[]): boolean {
    return ids.length > 0 && ids.every((id) => this.providers.get(id)?.ownData === true);
  }

  /** Enabled providers that exist and can answer now: what /healthz reports and cache keys include. */
  active(): string[] {
    return this.providers.active.filter((id) => this.providers.get(id)?.available?.() ?? true);
  }

  /**
   * Active providers that can answer right now (/healthz): circuit not open, and not found
   * unreachable at start-up unless they have answered since.
   */
  usable(): string[] {
    return this.active().filter((id) => !this.knownDown(id));
  }

  /**
   * The start-up probe could not reach `id`: it is not listed as usable until it answers a call.
   * A provider that reports its own availability (`local`: whether its index holds data) is
   * listed by that instead, so it appears as soon as data is imported.
   */
  probeFailed(id: string): void {
    if (this.providers.get(id)?.available) return;
    this.unreachable.add(id);
  }

  /**
   * The `allowed` of `eligible` most likely to answer this query, for when the credits do not
   * cover them all: `local` first when its index holds the country (it answers from disk, in
   * milliseconds, online or not), then the providers not known to be down, each group in
   * PROVIDERS order. Config order alone would spend the last credit on a provider that
   * cannot answer while one that can is left out.
   */
  likeliest(eligible: readonly string[], allowed: number, country: string | undefined): string[] {
    if (allowed >= eligible.length) return [...eligible];
    const rank = (id: string) => (id === 'local' && country !== undefined ? 0 : 1) + (this.knownDown(id) ? 2 : 0);
    return eligible
      .map((id, order) => ({ id, order, rank: rank(id) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .slice(0, Math.max(0, allowed))
      .map((p) => p.id);
  }

  private knownDown(id: string): boolean {
    return this.unreachable.has(id) || this.guards.get(id)?.circuit === 'open';
  }

  /** Each active provider's breaker state (closed until first called), for the circuit gauge. */
  circuits(): [string, CircuitStateName][] {
    return this.providers.active.map((id) => [id, this.guards.get(id)?.circuit ?? 'closed']);
  }

  /**
   * Providers that would be called (enabled, known, covering, supporting the kind): the
   * worst-case cost the credit gate reserves. An open circuit still counts, since it may
   * half-open before run(); reserving too much is settled afterwards, too little is not.
   */
  eligible(kind: Kind, country: string | undefined, position?: GeoPoint): string[] {
    return this.plan(kind, country, position).flatMap((p) => ('provider' in p ? [p.id] : []));
  }

  /**
   * The data generations of the eligible providers that report one (local), for the cache key:
   * empty when none takes part, so answers that never asked `local` keep their key.
   */
  dataGenerations(eligible: readonly string[], country: string | undefined): DataGeneration[] {
    const out: DataGeneration[] = [];
    for (const id of eligible) {
      const generation = this.providers.get(id)?.dataGeneration?.(country);
      if (generation !== undefined) out.push([id, generation]);
    }
    return out;
  }

  run(kind: 'geocode', query: GeocodeQuery, signal?: AbortSignal, opts?: RunOptions): Promise<ProviderAttempt[]>;
  run(kind: 'autocomplete', query: AutocompleteQuery, signal?: AbortSignal, opts?: RunOptions): Promise<ProviderAttempt[]>;
  run(kind: 'reverse', query: ReverseQuery, signal?: AbortSignal, opts?: RunOptions): Promise<ProviderAttempt[]>;
  async run(kind: Kind, query: AnyQuery, signal?: AbortSignal, opts: RunOptions = {}): Promise<ProviderAttempt[]> {
    const country = countryOf(query);
    const plan = this.plan(kind, country, kind === 'reverse' ? { lat: (query as ReverseQuery).lat, lng: (query as ReverseQuery).lng } : undefined);
    return Promise.all(
      plan.map((p) => {
        if (!('provider' in p)) return notCalled(p.id, p.status, p.error);
        if (opts.only && !opts.only.includes(p.id)) return notCalled(p.id, 'skipped', 'not covered by the credits reserved');
        if (signal?.aborted) return notCalled(p.id, 'aborted', 'request aborted by the caller');
        return this.attempt(kind, p.id, p.provider, query, signal, opts.requestId);
      }),
    );
  }

  /**
   * Geocodes about to be asked (a batch's items not in the cache): each provider that would be
   * called for them and looks many up at once (Provider.prime) gets its share of them ahead, in
   * one call. A provider known to be down is left alone. Never rejects: a failed priming only
   * leaves each geocode to ask for itself, and fail there if it must (counted and logged as usual).
   */
  async prime(queries: readonly GeocodeQuery[]): Promise<void> {
    const shares = new Map<Provider, GeocodeQuery[]>();
    for (const query of queries) {
      for (const p of this.plan('geocode', countryOf(query))) {
        if (!('provider' in p) || !p.provider.prime || this.knownDown(p.id)) continue;
        const share = shares.get(p.provider);
        if (share) share.push(query);
        else shares.set(p.provider, [query]);
      }
    }
    await Promise.all(
      Array.from(shares, async ([provider, share]) => {
        try {
          await provider.prime?.(share);
        } catch {
          // The geocodes ask for themselves.
        }
      }),
    );
  }

  private plan(kind: Kind, country: string | undefined, position?: GeoPoint): Plan[] {
    const seen = new Set<string>();
    const plan: Plan[] = [];
    for (const id of this.providers.enabled) {
      if (seen.has(id)) continue;
      seen.add(id);
      const provider = this.providers.get(id);
      if (!provider) {
        const known = (PROVIDER_IDS as readonly string[]).includes(id);
        plan.push(known ? { id, status: 'skipped', error: 'provider not available (not configured or no data)' } : { id, status: 'unknown-provider' });
      } else if (!provider.covers(country) || (position && provider.coversPosition?.(position) === false)) plan.push({ id, status: 'no-coverage' });
      else if (kind === 'autocomplete' && !provider.autocomplete) plan.push({ id, status: 'unsupported' });
      else if (kind === 'reverse' && !provider.reverse) plan.push({ id, status: 'unsupported' });
      else plan.push({ id, provider });
    }
    return plan;
  }

  private guard(id: string): ProviderGuard {
    let guard = this.guards.get(id);
    if (!guard) {
      const logger = this.opts.logger;
      guard = new ProviderGuard(this.opts.timeoutMs, this.opts.breaker, (circuit, cause) =>
        logger?.warn({ provider: id, circuit, ...(cause ? { cause } : {}) }, `provider ${id}: circuit ${circuit}`),
      );
      this.guards.set(id, guard);
    }
    return guard;
  }

  private async attempt(
    kind: Kind,
    id: string,
    provider: Provider,
    query: AnyQuery,
    signal: AbortSignal | undefined,
    requestId: string | undefined,
  ): Promise<ProviderAttempt> {
    const call = (inner: AbortSignal) =>
      kind === 'geocode'
        ? provider.geocode(query as GeocodeQuery, inner)
        : kind === 'reverse'
          ? provider.reverse!(query as ReverseQuery, inner)
          : provider.autocomplete!(query as AutocompleteQuery, inner);
    const outcome = await this.guard(id).call(call, signal);
    this.observe(kind, id, outcome, requestId);
    if (outcome.status === 'ok') {
      this.unreachable.delete(id);
      return {
        provider: id,
        answered: true,
        candidates: outcome.value,
        step: { provider: id, status: 'ok', latencyMs: outcome.latencyMs, resultCount: outcome.value.length },
      };
    }
    const step: TraceStep = { provider: id, status: outcome.status, error: outcome.error };
    if (outcome.latencyMs !== undefined) step.latencyMs = outcome.latencyMs;
    return { provider: id, answered: false, candidates: [], step };
  }

  private observe(kind: Kind, provider: string, outcome: GuardOutcome<unknown>, requestId: string | undefined): void {
    const cause = outcome.status === 'ok' ? '' : (outcome.cause ?? '');
    this.opts.metrics?.providerCalls.inc({ provider, kind, outcome: outcome.status, cause });
    if (outcome.latencyMs !== undefined && outcome.status !== 'skipped') {
      this.opts.metrics?.providerDuration.observe({ provider, kind, outcome: outcome.status }, outcome.latencyMs / 1000);
    }
    // A provider that did not answer is the operator's business; a caller's abort or an open circuit
    // (logged once, when it opened) is not worth a line per request.
    if (outcome.status === 'error' || outcome.status === 'timeout') {
      this.opts.logger?.warn(
        { ...(requestId ? { reqId: requestId } : {}), provider, kind, status: outcome.status, cause: outcome.cause ?? 'timeout', error: outcome.error, latencyMs: outcome.latencyMs },
        `provider ${provider} ${outcome.status === 'timeout' ? 'timed out' : 'failed'}: ${outcome.error}`,
      );
    }
  }
}

function notCalled(provider: string, status: TraceStatus, error?: string): ProviderAttempt {
  return { provider, answered: false, candidates: [], step: { provider, status, ...(error ? { error } : {}) } };
}
