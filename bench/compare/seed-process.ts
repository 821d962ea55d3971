import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AccountStore } from '../../src/accounts/accounts.js';
import type { PublishableTokenStore } from '../../src/accounts/publishable-tokens.js';
import type { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import type { systemClock } from '../../src/lib/clock.js';
import type { parseMasterKey, Sealer } from '../../src/lib/seal.js';
import type { openDatabase } from '../../src/store/db/database.js';
import type { Credentials } from './deployment.js';

/**
 * Creates the bench's account, key and widget tokens with the stores of the checkout under test
 * (argv: <root> <tokens>; storage from the environment), so its own migrations shape the database:
 * `npm run bench -- --root ../old` measures an older commit side by side. Prints the Credentials.
 */
const [root, count] = process.argv.slice(2) as [string, string];
const load = <T>(file: string) => import(pathToFileURL(path.join(root, 'src', file)).href) as Promise<T>;
const { openDatabase: open } = await load<{ openDatabase: typeof openDatabase }>('store/db/database.ts');
const { AccountStore: Accounts } = await load<{ AccountStore: typeof AccountStore }>('accounts/accounts.ts');
const { SecretKeyStore: Keys } = await load<{ SecretKeyStore: typeof SecretKeyStore }>('accounts/secret-keys.ts');
const { PublishableTokenStore: Tokens } = await load<{ PublishableTokenStore: typeof PublishableTokenStore }>('accounts/publishable-tokens.ts');
const seal = await load<{ Sealer: typeof Sealer; parseMasterKey: typeof parseMasterKey }>('lib/seal.ts');
const { systemClock: clock } = await load<{ systemClock: typeof systemClock }>('lib/clock.ts');

const database = await open({ dataDir: process.env.DATA_DIR!, ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}) });
try {
  const sealer = new seal.Sealer(seal.parseMasterKey(process.env.MASTER_KEY!));
  const account = await new Accounts(database.db, clock).create({ plan: 'scale', name: 'bench' });
  const key = (await new Keys(database.db, sealer, clock).create(account.id, 'live')).key;
  const tokens = new Tokens(database.db, sealer, clock);
  const widgets: Credentials['widgets'] = [];
  for (let i = 0; i < Number(count); i += 1) {
    const origin = `https://shop${i}.example`;
    widgets.push({ token: (await tokens.create(account.id, 'live', [origin])).token, origin });
  }
  process.stdout.write(`${JSON.stringify({ key, widgets } satisfies Credentials)}\n`);
} finally {
  await database.close();
}
