import { AccountStore } from '../accounts/accounts.js';
import { InviteStore } from '../accounts/invites.js';
import { PublishableTokenStore } from '../accounts/publishable-tokens.js';
import { SecretKeyStore } from '../accounts/secret-keys.js';
import { CreditLedger } from '../billing/credit-ledger.js';
import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { resolveMasterKey } from '../lib/master-key.js';
import { Sealer } from '../lib/seal.js';
import { type ChangeFeed, createChangeFeed } from '../store/changes/index.js';
import { type Database, openDatabase } from '../store/db/database.js';

/** What CLI commands share: configuration, an output printer and lazily opened stores. */
export interface CliContext {
  config: Config;
  /** Prints one result: the JSON object with --json, else the human lines. */
  out(json: Record<string, unknown>, human: string | string[]): void;
  stores(): Promise<CliStores>;
}

export interface CliStores {
  database: Database;
  accounts: AccountStore;
  secretKeys: SecretKeyStore;
  tokens: PublishableTokenStore;
  invites: InviteStore;
  ledger: CreditLedger;
}

export function createCliContext(config: Config, json: () => boolean, write: (text: string) => void): CliContext & { close(): Promise<void> } {
  let opened: CliStores | undefined;
  let changes: ChangeFeed | undefined;
  return {
    config,
    out(obj, human) {
      write(json() ? `${JSON.stringify(obj)}\n` : `${[human].flat().join('\n')}\n`);
    },
    async stores() {
      if (opened) return opened;
      const database = await openDatabase({
        dataDir: config.DATA_DIR,
        ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
      });
      const sealer = new Sealer(resolveMasterKey(config.MASTER_KEY, config.DATA_DIR));
      // With Redis, a revocation here reaches running instances at once; without, within AUTH_CACHE_MS.
      if (config.REDIS_URL) changes = await createChangeFeed({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX });
      const publish = changes ? changes.publish.bind(changes) : undefined;
      opened = {
        database,
        accounts: new AccountStore(database.db, systemClock, publish),
        secretKeys: new SecretKeyStore(database.db, sealer, systemClock, publish),
        tokens: new PublishableTokenStore(database.db, sealer, systemClock, publish),
        invites: new InviteStore(database.db, systemClock),
        ledger: new CreditLedger(database, systemClock),
      };
      return opened;
    },
    async close() {
      // Quitting Redis waits for the publishes queued before it.
      await changes?.close();
      await opened?.database.close();
    },
  };
}
