import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../compare/processes.js';

/**
 * A throw-away PostgreSQL cluster of the soak's own (initdb + pg_ctl in a temp dir, on a free port
 * of 127.0.0.1), so it can be restarted and its connections terminated without touching the shared
 * server. We run as root and PostgreSQL refuses that: every command runs as the `postgres` user.
 */
export interface PostgresCluster {
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: every connection is terminated, the server is gone until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Every other backend of the database terminated (pg_terminate_backend); resolves with how many. */
  terminateAll(): Promise<number>;
  /** One statement through a fresh connection (reads for the books). */
  query<T extends pg.QueryResultRow>(text: string): Promise<T[]>;
  /** Immediate stop and the directory removed. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = execFileSync('ls', [root], { encoding: 'utf8' }).split('\n').filter(Boolean).sort((a, b) => Number(b) - Number(a));
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')));
  if (!found) throw new Error(`no initdb under ${root}: install PostgreSQL's server package`);
  return found;
}

// Asynchronous: the soak's traffic keeps running (and being timed) while pg_ctl waits.
const asPostgres = async (command: string, args: string[]) => void (await promisify(execFile)('runuser', ['-u', 'postgres', '--', command, ...args]));

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'addressd-soak-pg-'));
  chmodSync(dir, 0o700);
  const { uid, gid } = userIds('postgres');
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=100`;
  const start = () => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const stop = (mode = 'fast') => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const query = async <T extends pg.QueryResultRow>(text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    url,
    port,
    start,
    stop: () => stop('fast'),
    terminateAll: async () =>
      (await query<{ n: number }>('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname IS NOT NULL'))[0]?.n ?? 0,
    query,
    async destroy() {
      await stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
