import pg from 'pg';

/** Told about connection errors the pool absorbed (a backend terminated, the server restarted). */
export type PoolErrorHandler = (error: Error) => void;

/** How long a request waits for a connection before the database counts as unreachable (503). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/**
 * A pg.Pool that survives its database. pg emits `error` on idle clients (pool) and on checked-out
 * clients between queries (client); with no listener either one is an uncaught exception that ends
 * the process, so PostgreSQL terminating connections (a restart, a failover) killed every instance.
 * A broken client is dropped; only the queries that were using it fail.
 */
export function createPgPool(config: pg.PoolConfig, onError: PoolErrorHandler = () => undefined): pg.Pool {
  const { connectionTimeoutMillis = DEFAULT_CONNECT_TIMEOUT_MS, ...rest } = config;
  // The timeout bounds opening a connection only (an unreachable server answers 503 quickly). pg.Pool
  // would also apply it to waiting for a busy connection, so a burst that queues behind a row lock
  // (many requests of one account) failed as "unreachable" while the database was merely busy.
  class TimedClient extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      super({ ...options, connectionTimeoutMillis });
    }
  }
  const pool = new pg.Pool({ keepAlive: true, ...rest, Client: TimedClient });
  // The client listener hears every error, idle or checked out; the pool re-emits the idle ones,
  // which only need a listener so they are not thrown (reporting them too would log each twice).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', (error) => onError(error)));
  return pool;
}

/** A one-off client (schema set-up) with the same discipline. */
export async function withPgClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: DEFAULT_CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
