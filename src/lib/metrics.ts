import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What GET /metrics exposes (Prometheus text format). One Metrics per app instance, each with its
 * own registry: tests build many apps in one process and their counters must not mix (the global
 * default registry would). Process-wide figures (CPU, memory, event-loop lag, GC) describe the
 * process, not an app, so they are collected once into one shared registry and appended.
 */
export type CircuitStateName = 'closed' | 'half-open' | 'open';

/** Gauge values of addressd_provider_circuit_state. */
export const CIRCUIT_STATE_VALUE: Record<CircuitStateName, number> = { closed: 0, 'half-open': 1, open: 2 };

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;

/** Created on first use, so a process that never builds an app starts no event-loop monitor. */
function sharedProcessRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'addressd_http_requests_total',
    help: 'HTTP requests answered, by route pattern (not the raw path), method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'addressd_http_request_duration_seconds',
    help: 'Time from receiving a request to its response, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly providerCalls = new Counter({
    name: 'addressd_provider_calls_total',
    help: 'Provider attempts by provider, kind (geocode, autocomplete, reverse), outcome (trace status) and cause of an error (HTTP status, malformed, network)',
    labelNames: ['provider', 'kind', 'outcome', 'cause'] as const,
    registers: [this.registry],
  });

  readonly providerDuration = new Histogram({
    name: 'addressd_provider_call_duration_seconds',
    help: 'Provider call latency by provider, kind and outcome (calls that were made; not circuit-open or skipped)',
    labelNames: ['provider', 'kind', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly cacheLookups = new Counter({
    name: 'addressd_cache_lookups_total',
    help: 'Response cache reads by kind (validate, autocomplete, reverse) and result (hit, miss)',
    labelNames: ['kind', 'result'] as const,
    registers: [this.registry],
  });

  readonly creditsCharged = new Counter({
    name: 'addressd_credits_charged_total',
    help: 'Credits charged to accounts, by endpoint',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  readonly usageEvents = new Counter({
    name: 'addressd_usage_events_total',
    help: 'Usage events written, by endpoint and whether the answer came from the cache',
    labelNames: ['endpoint', 'cached'] as const,
    registers: [this.registry],
  });

  readonly usageWriteFailures = new Counter({
    name: 'addressd_usage_write_failures_total',
    help: 'Background usage writes (settles, free events) that failed: retried (written again later) or dropped (events lost; a reservation left is settled by recovery)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly databaseErrors = new Counter({
    name: 'addressd_database_background_errors_total',
    help: 'Database errors absorbed in the background, by kind: connection (PostgreSQL connections the pool dropped), checkpoint (SQLite checkpoints that failed; the serving connection checkpoints itself meanwhile)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly walPages = new Gauge({
    name: 'addressd_sqlite_wal_pages',
    help: 'SQLite main store: pages in the write-ahead log at its last background checkpoint (it restarts once all are copied; a log that keeps growing means checkpoints fall behind)',
    registers: [this.registry],
  });

  readonly usageQueue = new Gauge({
    name: 'addressd_usage_queue_length',
    help: 'Usage writes held by the background writer, waiting or being written',
    registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'addressd_rate_limit_rejections_total',
    help: 'Requests refused by a rate limit (429), by limit',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  /**
   * @param circuits read at scrape time: each provider's breaker state, so the gauge is never stale.
   */
  constructor(circuits: () => Iterable<[provider: string, state: CircuitStateName]> = () => []) {
    new Gauge({
      name: 'addressd_provider_circuit_state',
      help: 'Circuit breaker state per provider: 0 closed, 1 half-open (one trial call), 2 open (not called)',
      labelNames: ['provider'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [provider, state] of circuits()) this.set({ provider }, CIRCUIT_STATE_VALUE[state]);
      },
    });
    sharedProcessRegistry();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The whole exposition: this app's metrics, then the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), sharedProcessRegistry().metrics()]);
    return `${own}\n${process}`;
  }
}
