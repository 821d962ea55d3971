import type { RedisProcess } from '../../test/support/redis-process.js';
import { type SmallDisk, truncateWal } from './disk.js';
import type { Instance } from './instances.js';
import type { PostgresCluster } from './postgres-cluster.js';

/**
 * One fault of the soak: `strike` starts it, `end` undoes it after `holdMs` (a restart, a resume,
 * space freed). `store` names the instances it concerns, which must answer again afterwards;
 * `limiter` says the rate limiter (Redis) is what broke, so recovery also waits for it.
 */
export interface Fault {
  name: string;
  store: 'postgres' | 'sqlite';
  limiter?: true;
  holdMs: number;
  strike(): Promise<string | void>;
  end(): Promise<void>;
  /** Said after recovery (how long a restart took to listen). */
  after?(): string;
}

export interface FaultWorld {
  pgA: Instance;
  pgB: Instance;
  redis: RedisProcess;
  cluster: PostgresCluster;
  disk: SmallDisk;
  /** The SQLite instance's main database file (on the small disk). */
  sqliteFile: string;
  /** How long the disk stays full / Redis stays away (shorter in a quick run). */
  holdMs: number;
}

/** The faults in the order they strike; the soak cycles through them while time remains. */
export function faultList(w: FaultWorld): Fault[] {
  const kill = (instance: Instance): Fault => ({
    name: `kill -9 ${instance.name}, restart`,
    store: 'postgres',
    holdMs: 1000,
    strike: () => instance.kill('SIGKILL'),
    // Not awaited here: recovery is timed from the restart's order to the first answer.
    end: async () => void instance.start().catch((error: unknown) => console.error(`soak: restart of ${instance.name} failed: ${String(error)}`)),
    after: () => `listening ${(instance.startMs() / 1000).toFixed(1)} s after the restart (process start)`,
  });
  return [
    kill(w.pgA),
    {
      name: 'Redis killed, restarted',
      store: 'postgres',
      limiter: true,
      holdMs: w.holdMs,
      strike: () => w.redis.stop(),
      end: () => w.redis.start(),
    },
    {
      name: 'Redis paused (SIGSTOP) 5 s',
      store: 'postgres',
      limiter: true,
      holdMs: 5000,
      strike: async () => w.redis.pause(),
      end: async () => w.redis.resume(),
    },
    {
      name: 'every PostgreSQL connection terminated',
      store: 'postgres',
      holdMs: 0,
      strike: async () => `${await w.cluster.terminateAll()} backends`,
      end: async () => undefined,
    },
    {
      name: 'PostgreSQL restarted (fast shutdown, start)',
      store: 'postgres',
      holdMs: 1000,
      strike: () => w.cluster.stop(),
      end: () => w.cluster.start(),
    },
    {
      name: 'SQLite disk full, freed',
      store: 'sqlite',
      holdMs: w.holdMs,
      // The WAL truncated first: a WAL that keeps its size takes writes in pages it already has.
      strike: async () => {
        truncateWal(w.sqliteFile);
        return `${(w.disk.fill() / 1024 / 1024).toFixed(0)} MiB filler`;
      },
      end: async () => w.disk.free(),
    },
    kill(w.pgB),
  ];
}
