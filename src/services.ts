import { AccountStore } from './accounts/accounts.js';
import { Authenticator } from './accounts/authenticator.js';
import { InviteStore } from './accounts/invites.js';
import { PeopleStore } from './accounts/people.js';
import { SessionStore } from './accounts/sessions.js';
import { SignUp } from './accounts/signup.js';
import { PublishableTokenStore } from './accounts/publishable-tokens.js';
import { SecretKeyStore } from './accounts/secret-keys.js';
import { CreditLedger } from './billing/credit-ledger.js';
import { QuotaGate } from './billing/quota-gate.js';
import { ReservationSweeper } from './billing/reservation-sweeper.js';
import type { Config } from './config.js';
import { AutocompleteEngine } from './engine/autocomplete.js';
import { ReverseEngine } from './engine/reverse.js';
import { Biller } from './engine/billing.js';
import { ProviderRunner } from './engine/fan-out.js';
import { ValidateEngine } from './engine/validate.js';
import { BatchValidator } from './engine/validate-batch.js';
import { type Clock, systemClock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { describeError } from './lib/describe-error.js';
import { resolveMasterKey } from './lib/master-key.js';
import { Metrics } from './lib/metrics.js';
import { Sealer } from './lib/seal.js';
import { Signer } from './lib/signer.js';
import { Feedback } from './feedback/feedback.js';
import { FeedbackRetention } from './feedback/retention.js';
import { ResponseIds } from './feedback/response-ids.js';
import { localIndexOptions } from './local-index/config-options.js';
import { openLocalIndex, type LocalIndex } from './local-index/index.js';
import { createLocalProvider } from './providers/local/adapter.js';
import { createProviders, type ProviderSet } from './providers/registry.js';
import { countedCache } from './store/cache/counted-cache.js';
import { createResponseCache } from './store/cache/index.js';
import { type Change, type ChangeFeed, createChangeFeed } from './store/changes/index.js';
import type { ResponseCache } from './store/cache/response-cache.js';
import { type Database, openDatabase } from './store/db/database.js';
import { createRateLimiter } from './store/limits/index.js';
import type { RateLimiter } from './store/limits/rate-limiter.js';

/** Everything the app needs, built once (DESIGN §11: dependencies built in one place, passed explicitly). */
export interface Services {
  config: Config;
  clock: Clock;
  logger: Logger;
  /** This app's Prometheus registry (GET /metrics). */
  metrics: Metrics;
  database: Database;
  accounts: AccountStore;
  secretKeys: SecretKeyStore;
  tokens: PublishableTokenStore;
  /** Keys and tokens verified through the AUTH_CACHE_MS cache (the request path uses this, not the stores). */
  auth: Authenticator;
  /** Tells every instance what changed (revocations, plans), so what they cache follows. */
  changes: ChangeFeed;
  /** The console: people who log in, their sessions, invites and sign-up. */
  people: PeopleStore;
  sessions: SessionStore;
  invites: InviteStore;
  signUp: SignUp;
  ledger: CreditLedger;
  /** Releases reservations crashed instances left behind (RESERVATION_SWEEP_MS). */
  sweeper: ReservationSweeper;
  biller: Biller;
  cache: ResponseCache;
  limiter: RateLimiter;
  providers: ProviderSet;
  runner: ProviderRunner;
  localIndex: LocalIndex | undefined;
  sealer: Sealer;
  validate: ValidateEngine;
  /** POST /v1/validate/batch: the validate engine, one reservation and one settle per batch. */
  validateBatch: BatchValidator;
  autocomplete: AutocompleteEngine;
  /** POST /v1/reverse and /v1/widget/reverse: the nearest addresses to a position (issue 35). */
  reverse: ReverseEngine;
  /** Response ids, POST /v1/validate/feedback, its counts and the index gaps (issue 29). */
  feedback: Feedback;
  /** This service's public URL (PUBLIC_BASE_URL, else localhost on PORT), without a trailing slash. */
  baseUrl: string;
  /** Where the 429 texts point people to buy credits. */
  consoleUrl: string;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  clock?: Clock;
  logger?: Logger;
  /** The cluster's workers without Redis pass changes and limits through their primary (src/cluster.ts). */
  changes?: ChangeFeed;
  limiter?: RateLimiter;
}

/** Something started while the services are put together, stopped again if a later step fails. */
interface Closable {
  close(): Promise<unknown>;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  // What is opened is closed again when a later step fails (a database away during the start): a
  // Redis connection left open would keep a CLI run alive after it said why it failed, forever.
  const opened: Closable[] = [];
  const track = <T extends Closable>(resource: T): T => {
    opened.push(resource);
    return resource;
  };
  try {
    return await assembleServices(config, overrides, track);
  } catch (error) {
    await Promise.allSettled(opened.reverse().map((resource) => resource.close()));
    throw error;
  }
}

async function assembleServices(config: Config, overrides: ServiceOverrides, track: <T extends Closable>(resource: T) => T): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  const masterKey = resolveMasterKey(config.MASTER_KEY, config.DATA_DIR);
  const sealer = new Sealer(masterKey);
  // Counted once the metrics exist (they are built after the database opens).
  let countDatabaseError: (kind: 'connection' | 'checkpoint') => void = () => undefined;
  let gaugeWal: (pages: number) => void = () => undefined;
  const dbOptions = {
    dataDir: config.DATA_DIR,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    // A terminated connection (restart, failover) is dropped by the pool, logged and counted; only
    // the requests that were using it fail.
    onError: (error: Error) => {
      logger.warn({ err: error }, 'database connection error');
      countDatabaseError('connection');
    },
    // SQLite: the checkpoint thread failed (a full disk); the serving connection checkpoints itself meanwhile.
    onCheckpointError: (error: Error) => {
      logger.warn({ err: error }, 'database checkpoint failed');
      countDatabaseError('checkpoint');
    },
    onCheckpointRecovered: () => logger.info('database checkpoints run again'),
    onCheckpoint: ({ log }: { log: number }) => gaugeWal(log),
  };
  const database = track(
    await openDatabase(dbOptions).catch((error: unknown) => {
      const where = config.DATABASE_URL ? `PostgreSQL at ${redactDatabaseUrl(config.DATABASE_URL)}` : `SQLite under ${config.DATA_DIR}`;
      throw new Error(`cannot open the database (${where}): ${describeError(error)}`, { cause: error });
    }),
  );
  const onError = (error: unknown) => logger.warn({ err: error }, 'cache error');
  const redis = config.REDIS_URL ? { redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX } : {};
  // The circuit gauge reads the runner at scrape time; the runner is built below.
  const metrics = new Metrics(() => runner.circuits());
  countDatabaseError = (kind) => metrics.databaseErrors.inc({ kind });
  gaugeWal = (pages) => metrics.walPages.set(pages);
  const cache = track(countedCache(await createResponseCache({ ...redis, ...(config.REDIS_URL ? { nearTtlMs: config.CACHE_NEAR_MS, clock } : {}), onError }), metrics));
  const limiter = overrides.limiter ?? track(await createRateLimiter({ ...redis, onError: (error) => logger.warn({ err: error }, 'rate limiter error') }));
  const changes = overrides.changes ?? track(await createChangeFeed({ ...redis, onError: (error) => logger.warn({ err: error }, 'change feed error') }));
  const publish = (change: Change) => changes.publish(change);
  // Searches may read from a replica (LOCAL_INDEX_READ_URL); imports run in the CLI, against the primary.
  const localIndex = config.PROVIDERS.includes('local')
    ? track(await openLocalIndex({ ...localIndexOptions(config, true), onError: dbOptions.onError, clock }))
    : undefined;
  const providers = track(createProviders(config, localIndex ? { local: createLocalProvider(localIndex) } : {}));
  const runner = new ProviderRunner(providers, {
    timeoutMs: config.PROVIDER_TIMEOUT_MS,
    breaker: { failures: config.BREAKER_FAILURES, halfOpenAfterMs: config.BREAKER_HALF_OPEN_MS },
    metrics,
    logger,
  });
  const ledger = new CreditLedger(database, clock, {
    owner: config.INSTANCE_ID,
    // Settles and free events are written after the answer (issue 37): failures logged and counted.
    writer: {
      maxQueued: config.USAGE_QUEUE_MAX,
      lingerMs: config.USAGE_WRITE_LINGER_MS,
      onLength: (length) => metrics.usageQueue.set(length),
      onRetry: (error, attempt) => {
        metrics.usageWriteFailures.inc({ outcome: 'retried' });
        logger.warn({ err: error, attempt }, 'usage write failed, retrying');
      },
      onDropped: (error, items) => {
        metrics.usageWriteFailures.inc({ outcome: 'dropped' }, items);
        logger.error({ err: error, items }, 'usage write given up (reservations left are settled by recovery)');
      },
    },
  });
  // What this instance's predecessor (same INSTANCE_ID) was in the middle of when it died, at
  // once: a reservation carrying its call is settled from itself (it may have been answered), others released.
  const own = await ledger.releaseOwn();
  if (own > 0) logger.warn({ recovered: own, instanceId: config.INSTANCE_ID }, 'recovered credit reservations left by this instance before a crash');
  // Any other instance's, once older than the longest request: at start, then every sweep.
  const sweeper = new ReservationSweeper(ledger, {
    intervalMs: config.RESERVATION_SWEEP_MS,
    maxAgeMs: config.RESERVATION_MAX_AGE_MS,
    onReleased: (recovered) => logger.warn({ recovered }, 'recovered stale credit reservations of a stopped instance'),
    onError: (error) => logger.warn({ err: error }, 'reservation sweep failed'),
  });
  track({ close: () => sweeper.stop() });
  await sweeper.sweep();
  sweeper.start();
  const gate = new QuotaGate((id) => ledger.balance(id), clock, config.AUTH_CACHE_MS, changes);
  const biller = new Biller(ledger, clock, metrics, gate);
  const people = new PeopleStore(database.db, clock);
  const invites = new InviteStore(database.db, clock);
  const baseUrl = (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  const accounts = new AccountStore(database.db, clock, publish);
  const secretKeys = new SecretKeyStore(database.db, sealer, clock, publish);
  const feedbackRetentionMs = config.FEEDBACK_RETENTION_DAYS * 86_400_000;
  const responseIds = new ResponseIds(new Signer(masterKey, 'response ids'), clock, feedbackRetentionMs);
  const feedback = new Feedback(database.db, responseIds, clock, { enabled: config.FEEDBACK === 'on', retentionMs: feedbackRetentionMs });
  const retention = new FeedbackRetention(feedback, (error) => logger.warn({ err: error }, 'feedback retention purge failed'));
  retention.start();
  const tokens = new PublishableTokenStore(database.db, sealer, clock, publish);

  return {
    config,
    clock,
    logger,
    metrics,
    database,
    accounts,
    secretKeys,
    tokens,
    auth: new Authenticator({ secretKeys, tokens, accounts, clock, changes }, config.AUTH_CACHE_MS),
    changes,
    people,
    sessions: new SessionStore(database.db, clock, config.CONSOLE_SESSION_HOURS * 3_600_000),
    invites,
    signUp: new SignUp(database.db, sealer, clock, invites, people),
    ledger,
    sweeper,
    biller,
    cache,
    limiter,
    providers,
    runner,
    localIndex,
    sealer,
    validate: new ValidateEngine({ runner, cache, biller, cacheTtlMs: config.VALIDATE_CACHE_TTL_MS, responseIds }),
    validateBatch: new BatchValidator({ runner, cache, biller, cacheTtlMs: config.VALIDATE_CACHE_TTL_MS, renewEveryMs: config.RESERVATION_MAX_AGE_MS / 3, responseIds }),
    autocomplete: new AutocompleteEngine({ runner, cache, biller, cacheTtlMs: config.AUTOCOMPLETE_CACHE_TTL_MS }),
    reverse: new ReverseEngine({ runner, cache, biller, cacheTtlMs: config.AUTOCOMPLETE_CACHE_TTL_MS }),
    feedback,
    baseUrl,
    consoleUrl: `${baseUrl}/dashboard`,
    async close() {
      await sweeper.stop();
      await retention.stop();
      // Settles and events still in the background writer are written before the database goes.
      await ledger.drain(config.USAGE_DRAIN_MS).catch(() => undefined);
      await Promise.allSettled([cache.close(), limiter.close(), changes.close(), providers.close(), localIndex?.close(), database.close()]);
    },
  };
}

/** Host, port and database only: never the password. */
function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
