import { AccountStore } from '../accounts/accounts.js';
import { InviteStore } from '../accounts/invites.js';
import { PublishableTokenStore } from '../accounts/publishable-tokens.js';
import { SecretKeyStore } from '../accounts/secret-keys.js';
import { CreditLedger } from '../billing/credit-ledger.js';
import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import { ensureDataDir } from '../lib/data-dir.js';
import { resolveMasterKey } from '../lib/master-key.js';
import { Sealer } from '../lib/seal.js';
import { type ChangeFeed, createChangeFeed } from '../store/changes/index.js';
import { type Database, openDatabase } from '../store/db/database.js';
import { describeStore, storeIsNew } from './store-info.js';
import { terminalJson, terminalLine } from './terminal-text.js';

/** What CLI commands share: configuration, an output printer and lazily opened stores. */
export interface CliContext {
  config: Config;
  /** Prints one result: the JSON object with --json, else the human lines (each escaped for the terminal: terminal-text.ts). */
  out(json: Record<string, unknown>, human: string | string[]): void;
  /** A note for a person on stderr (`store: …`, warnings); silent with --json, whose output is for scripts. */
  note(line: string): void;
  /** Whether --json was given. */
  json(): boolean;
  /**
   * The stores, opened once. A command that writes says so: it names the store it writes to, so
   * nobody fills a store they did not mean, and creating one warns. A read-only command that
   * finds no store fails and creates none.
   */
  stores(access?: 'read' | 'write'): Promise<CliStores>;
  /** The process exit code when the command did not fail but did not finish either (e.g. 130 after Ctrl-C). */
  exitCode?: number;
}

export interface CliStores {
  database: Database;
  accounts: AccountStore;
  secretKeys: SecretKeyStore;
  tokens: PublishableTokenStore;
  invites: InviteStore;
  ledger: CreditLedger;
}

export function createCliContext(
  config: Config,
  json: () => boolean,
  write: (text: string) => void,
  writeErr: (text: string) => void,
): CliContext & { close(): Promise<void> } {
  let opened: CliStores | undefined;
  let changes: ChangeFeed | undefined;
  const note = (line: string) => {
    if (!json()) writeErr(`${terminalLine(line)}\n`);
  };
  return {
    config,
    json,
    note,
    out(obj, human) {
      write(json() ? `${terminalJson(obj)}\n` : `${[human].flat().map(terminalLine).join('\n')}\n`);
    },
    async stores(access = 'read') {
      if (opened) return opened;
      // A DATA_DIR that cannot be made is said before anything else (no store line first).
      if (access === 'write') ensureDataDir(config.DATA_DIR);
      if (access === 'write') note(`store: ${describeStore(config)}`);
      if (await storeIsNew(config)) {
        // Reading creates nothing: run from another folder, `account list` would otherwise leave an
        // empty store there and list nothing, as if the real one were empty.
        if (access === 'read') {
          throw new Error(
            `no store at ${describeStore(config)}: nothing to read, and a read-only command creates none (set DATA_DIR or DATABASE_URL to the store the service uses, or run from the folder where npm start runs)`,
          );
        }
        note(`warning: no store there yet: creating a new, empty one (set DATA_DIR or DATABASE_URL if you meant an existing store)`);
      }
      const database = await openDatabase({
        dataDir: config.DATA_DIR,
        ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
      });
      const sealer = new Sealer(resolveMasterKey(config.MASTER_KEY, config.DATA_DIR));
      // With Redis, a revocation here reaches running instances at once; without, within AUTH_CACHE_MS.
      if (config.REDIS_URL && access === 'write') changes = await createChangeFeed({ redisUrl: config.REDIS_URL, keyPrefix: config.REDIS_PREFIX });
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
