import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { PROVIDER_IDS } from './contract/enums.js';

/**
 * The whole configuration, read once from the environment at start-up (DESIGN §11).
 * Every variable has a default that works on a fresh machine; a bad value fails fast
 * with one line per problem. Nothing reads process.env after this.
 */
const csv = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const countryList = z
  .string()
  .regex(/^\*$|^[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*$/, 'must be * or a comma list of ISO 3166-1 alpha-2 codes')
  .default('*')
  .transform((v): '*' | string[] => (v === '*' ? '*' : csv(v).map((c) => c.toUpperCase())));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Where the local index's searches read: a streaming replica of DATABASE_URL, so serving
   * scales out while imports and `--update` write to the primary. Default: DATABASE_URL.
   */
  LOCAL_INDEX_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * How long opening a PostgreSQL connection may take before the database counts as unreachable
   * and the request is answered 503: an unreachable database fails fast.
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Key prefix in Redis, so several deployments (or test runs) can share one server. */
  REDIS_PREFIX: z.string().min(1).max(64).default('addressd:'),
  PROVIDERS: z
    .string()
    .default('pdok,photon,nominatim,local')
    .transform(csv)
    .refine((ids) => ids.every((id) => (PROVIDER_IDS as readonly string[]).includes(id)), {
      error: (issue) => {
        const unknown = (issue.input as string[]).filter((id) => !(PROVIDER_IDS as readonly string[]).includes(id));
        return `unknown provider ${unknown.map((id) => JSON.stringify(id)).join(', ')} (known: ${PROVIDER_IDS.join(', ')})`;
      },
    }),
  PDOK_URL: z.url().default('https://api.pdok.nl/bzk/locatieserver/search/v3_1'),
  PHOTON_URL: z.url().default('https://photon.komoot.io'),
  NOMINATIM_URL: z.url().default('https://nominatim.openstreetmap.org'),
  // Coverage per provider: `*` (what the provider itself covers) or a comma list of ISO codes that
  // narrows it, e.g. a self-hosted Photon with only a European extract.
  PDOK_COUNTRIES: countryList,
  PHOTON_COUNTRIES: countryList,
  NOMINATIM_COUNTRIES: countryList,
  /**
   * The countries `local` answers for as checked: `*` (default) those an import was made for
   * (src/local-index/import/coverage.ts), or exactly this comma list. Elsewhere its answers are
   * unverified, as with an empty index; spill-over addresses stay searchable.
   */
  LOCAL_COUNTRIES: countryList,
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
  /** Consecutive failures (errors, timeouts) that open a provider's circuit breaker. */
  BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** How long an open circuit waits before one trial call may go through. */
  BREAKER_HALF_OPEN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Response cache lifetimes (DESIGN §6): validate 30 days, autocomplete 24 h. */
  VALIDATE_CACHE_TTL_MS: z.coerce.number().int().min(1000).max(365 * 86_400_000).default(30 * 86_400_000),
  /**
   * With REDIS_URL: how long a cached answer read from (or written to) Redis is also served from
   * this instance's memory, without a Redis round trip. The most an instance can lag behind another
   * instance's refresh of an entry (a `debug` call); data changes never wait for it (the data
   * generation is in every key). 0 reads Redis on every request.
   */
  CACHE_NEAR_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  AUTOCOMPLETE_CACHE_TTL_MS: z.coerce.number().int().min(1000).max(365 * 86_400_000).default(86_400_000),
  MASTER_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}=?$|^[0-9a-fA-F]{64}$/, 'must be 32 bytes as base64url or hex')
    .optional(),
  TRUST_PROXY: bool.default(false),
  /**
   * Behind a load balancer the server must keep idle connections open longer than the balancer does
   * (AWS ALB 60 s, GCP 600 s: raise it there), or the balancer reuses a socket the server just closed.
   */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(65_000),
  /** Time to receive a request's headers; above KEEP_ALIVE_TIMEOUT_MS as Node.js requires. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(66_000),
  /** When set, GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  USER_AGENT: z.string().min(1).default('addressd/1.0 (self-hosted address validation)'),
  PUBLIC_BASE_URL: z.url().optional(),
  /** Processes serving the one port (node:cluster, src/cluster.ts); 1 runs no cluster. */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * How long a verified key or token (and its account) is trusted from memory before the database
   * is asked again: the most a revocation can take to reach an instance the change feed did not
   * reach. 0 asks the database on every request.
   */
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(5000),
  /** Console sign-up: `open` to anyone, `closed` to people the operator invites (`addressd invite`). */
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  /** How long a console log-in lasts before the person signs in again. */
  CONSOLE_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(12),
  /**
   * Who owns this process's credit reservations. A restart with the same id releases what its
   * predecessor left at once. Default: stable per host, port and DATA_DIR (see defaultInstanceId).
   */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:@\/-]{1,128}$/, 'must be 1-128 letters, digits or . _ : @ / -')
    .optional(),
  /** How often any instance releases reservations older than RESERVATION_MAX_AGE_MS. */
  RESERVATION_SWEEP_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** A reservation older than this belongs to a dead process; default: the longest request + a margin. */
  RESERVATION_MAX_AGE_MS: z.coerce.number().int().min(1000).max(86_400_000).optional(),
  /**
   * Usage writes (settles, cache hits' events) held by the background writer before a request
   * waits for room: the bound of what a stalled database costs in memory (issue 37).
   */
  USAGE_QUEUE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * How long an answered call's settle may wait for others' to share their write (ms; 0: written at
   * once). Only settles a crash cannot lose wait (their reservation carries the call); a reader of
   * the books, a refund or a cache hit's event ends the wait. One statement for many calls instead
   * of one each: less work for the database beside the next requests (issue 37). Default: 20 on
   * PostgreSQL (a statement is a round trip and a WAL flush), 0 on SQLite (a commit in the process
   * costs microseconds: measured, no difference either way).
   */
  USAGE_WRITE_LINGER_MS: z.coerce.number().int().min(0).max(1000).optional(),
  /** At shutdown, how long the background writer keeps retrying a database that is away before giving up (recovery settles the rest). */
  USAGE_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Items of one POST /v1/validate/batch in flight at once, so a batch cannot starve other traffic. */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * Outcome feedback (issue 29, docs/feedback.md): `off` records nothing (no conclusion, no count,
   * no index gap); POST /v1/validate/feedback still checks the id and answers 204.
   */
  FEEDBACK: z.enum(['on', 'off']).default('on'),
  /** How long a responseId takes feedback, and an index gap is kept after it was last seen (personal data). */
  FEEDBACK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** POST /v1/validate/feedback calls per minute per secret key (its own limit: feedback is free). */
  FEEDBACK_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
});

/** Headroom over the longest request for what no timeout bounds (row-lock waits, a slow event loop). */
export const RESERVATION_MARGIN_MS = 5000;

/**
 * The longest a request holds a reservation: reserving (waiting up to the connect timeout for a
 * connection), the provider fan-out (every provider in parallel, bounded by its timeout; no
 * retries), then settling (another connection wait).
 */
export function longestRequestMs(config: { PROVIDER_TIMEOUT_MS: number; DATABASE_CONNECT_TIMEOUT_MS: number }): number {
  return config.PROVIDER_TIMEOUT_MS + 2 * config.DATABASE_CONNECT_TIMEOUT_MS;
}

/**
 * The same on every restart of one deployment on one machine, different for two instances on one
 * machine (they cannot share a port and data directory): host name, port, hash of the absolute
 * DATA_DIR. Containers whose host name changes on every start should set INSTANCE_ID.
 */
export function defaultInstanceId(config: { PORT: number; DATA_DIR: string }): string {
  const dir = createHash('sha256').update(path.resolve(config.DATA_DIR)).digest('hex').slice(0, 8);
  return `${hostname()}:${config.PORT}:${dir}`;
}

/** USAGE_WRITE_LINGER_MS's default on PostgreSQL. */
const PG_USAGE_WRITE_LINGER_MS = 20;

const CompleteConfig = ConfigSchema.superRefine((config, ctx) => {
  const longest = longestRequestMs(config);
  if (config.RESERVATION_MAX_AGE_MS !== undefined && config.RESERVATION_MAX_AGE_MS <= longest) {
    ctx.addIssue({
      code: 'custom',
      path: ['RESERVATION_MAX_AGE_MS'],
      message: `must be longer than the longest request, ${longest} ms (PROVIDER_TIMEOUT_MS + 2 × DATABASE_CONNECT_TIMEOUT_MS): a shorter age releases calls still running`,
    });
  }
  if (config.LOCAL_INDEX_READ_URL !== undefined && config.DATABASE_URL === undefined) {
    ctx.addIssue({ code: 'custom', path: ['LOCAL_INDEX_READ_URL'], message: 'needs DATABASE_URL: without it the local index is a SQLite file, which has no replica' });
  }
  if (config.HEADERS_TIMEOUT_MS <= config.KEEP_ALIVE_TIMEOUT_MS) {
    ctx.addIssue({ code: 'custom', path: ['HEADERS_TIMEOUT_MS'], message: 'must be greater than KEEP_ALIVE_TIMEOUT_MS' });
  }
}).transform((config) => ({
  ...config,
  INSTANCE_ID: config.INSTANCE_ID ?? defaultInstanceId(config),
  LOCAL_INDEX_READ_URL: config.LOCAL_INDEX_READ_URL ?? config.DATABASE_URL,
  RESERVATION_MAX_AGE_MS: config.RESERVATION_MAX_AGE_MS ?? longestRequestMs(config) + RESERVATION_MARGIN_MS,
  USAGE_WRITE_LINGER_MS: config.USAGE_WRITE_LINGER_MS ?? (config.DATABASE_URL === undefined ? 0 : PG_USAGE_WRITE_LINGER_MS),
}));

export type Config = z.output<typeof CompleteConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    // One line, every problem: start-up failures are one line on stderr (README "Operating it").
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default); empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const parsed = CompleteConfig.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  return parsed.data;
}
