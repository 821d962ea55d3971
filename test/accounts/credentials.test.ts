import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { parseExactHttpsOrigin } from '../../src/accounts/origins.js';
import { PublishableTokenStore } from '../../src/accounts/publishable-tokens.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { ManualClock } from '../../src/lib/clock.js';
import { Sealer } from '../../src/lib/seal.js';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

describe.each(STORAGE_BACKENDS)('credentials on %s', (backend) => {
  let sandbox: Sandbox;
  let database: Database;
  let accounts: AccountStore;
  let keys: SecretKeyStore;
  let tokens: PublishableTokenStore;
  const clock = new ManualClock();

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    const sealer = new Sealer(Buffer.alloc(32, 7));
    accounts = new AccountStore(database.db, clock);
    keys = new SecretKeyStore(database.db, sealer, clock);
    tokens = new PublishableTokenStore(database.db, sealer, clock);
  });
  afterAll(async () => {
    await database.close();
    await sandbox.cleanup();
  });

  it('issues keys of the documented form that verify to their account and environment', async () => {
    const account = await accounts.create({ plan: 'starter', name: 'Acme' });
    const live = await keys.create(account.id, 'live', 'server');
    const test = await keys.create(account.id, 'test');
    expect(live.key).toMatch(/^ak_live_[A-Za-z0-9_-]{43}$/);
    expect(test.key).toMatch(/^ak_test_[A-Za-z0-9_-]{43}$/);
    expect(await keys.verify(live.key)).toEqual({ ok: true, key: { keyId: live.id, accountId: account.id, env: 'live' } });
    expect(await keys.verify(test.key)).toMatchObject({ ok: true, key: { env: 'test' } });
  });

  it('tells malformed keys from unknown ones', async () => {
    expect(await keys.verify('nonsense')).toEqual({ ok: false, reason: 'malformed' });
    expect(await keys.verify(`ak_prod_${'a'.repeat(43)}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(await keys.verify(`ak_live_${'a'.repeat(42)}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(await keys.verify(`ak_live_${'a'.repeat(43)}`)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('stores no key in clear, re-reveals it, renames it, and revokes it for good', async () => {
    const account = await accounts.create({});
    const created = await keys.create(account.id, 'live', 'first');
    const row = await database.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.key.slice(8));
    expect(await keys.reveal(created.id)).toEqual({ id: created.id, key: created.key });
    expect((await keys.rename(created.id, 'renamed')).name).toBe('renamed');
    const revoked = await keys.revoke(created.id);
    expect(revoked.revokedAt).toBe('2026-11-21 12:00:00');
    expect(await keys.verify(created.key)).toEqual({ ok: false, reason: 'unknown' });
    expect((await keys.list(account.id)).map((k) => [k.id, k.name, k.revokedAt !== null])).toEqual([[created.id, 'renamed', true]]);
  });

  it('refuses keys for unknown accounts and unknown key ids', async () => {
    await expect(keys.create('acc_missing', 'live')).rejects.toThrow(/Unknown account/);
    await expect(keys.reveal('key_missing')).rejects.toThrow(/Unknown key/);
    await expect(keys.revoke('key_missing')).rejects.toThrow(/Unknown key/);
  });

  it('binds publishable tokens to exact HTTPS origins', async () => {
    const account = await accounts.create({});
    const token = await tokens.create(account.id, 'live', ['https://shop.example', 'https://shop.example:8443']);
    expect(token.token).toMatch(/^svc_pk_live_/);
    expect(await tokens.verify(token.token, 'https://shop.example')).toMatchObject({ accountId: account.id, env: 'live' });
    expect(await tokens.verify(token.token, 'https://shop.example:8443')).not.toBeNull();
    expect(await tokens.verify(token.token, 'https://evil.example')).toBeNull();
    expect(await tokens.verify(token.token, 'https://sub.shop.example')).toBeNull();
    // Only the exact origin: not its http:// twin, a trailing slash, a path, or another port.
    for (const near of ['http://shop.example', 'https://shop.example/', 'https://shop.example/checkout', 'https://shop.example:8444']) {
      expect(await tokens.verify(token.token, near), near).toBeNull();
    }
    expect(await tokens.originAllowed('https://shop.example')).toBe(true);
    expect(await tokens.originAllowed('https://other.example')).toBe(false);
    await tokens.revoke(token.id);
    expect(await tokens.verify(token.token, 'https://shop.example')).toBeNull();
    expect(await tokens.originAllowed('https://shop.example')).toBe(false);
  });

  it.each([
    'http://shop.example',
    'https://shop.example/',
    'https://shop.example/path',
    'https://*.shop.example',
    '*',
    'https://user@shop.example',
    'https://shop.example?x=1',
    'shop.example',
    ' https://shop.example',
    'https://shop.example:443',
    'https://Shop.example',
  ])('rejects %s as an allowlist origin and creates nothing', async (origin) => {
    const account = await accounts.create({});
    await expect(tokens.create(account.id, 'live', ['https://ok.example', origin])).rejects.toThrow(/exact HTTPS origin/);
    expect(await tokens.list(account.id)).toEqual([]);
  });

  it('secret keys never pass as publishable tokens', async () => {
    const account = await accounts.create({});
    const key = await keys.create(account.id, 'live');
    await tokens.create(account.id, 'live', ['https://shop.example']);
    expect(await tokens.verify(key.key, 'https://shop.example')).toBeNull();
  });
});

describe('parseExactHttpsOrigin', () => {
  it('accepts host and port, canonicalises the default port away', () => {
    expect(parseExactHttpsOrigin('https://shop.example')).toBe('https://shop.example');
    expect(parseExactHttpsOrigin('https://127.0.0.1:8443')).toBe('https://127.0.0.1:8443');
    expect(parseExactHttpsOrigin('https://shop.example:443')).toBe('https://shop.example');
    expect(parseExactHttpsOrigin(undefined)).toBeNull();
    expect(parseExactHttpsOrigin('null')).toBeNull();
  });
});
