import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { InviteStore, INVITE_LIFETIME_MS } from '../../src/accounts/invites.js';
import { hashPassword, verifyPassword } from '../../src/accounts/passwords.js';
import { EmailTakenError, PeopleStore } from '../../src/accounts/people.js';
import { PublishableTokenStore } from '../../src/accounts/publishable-tokens.js';
import { SecretKeyStore } from '../../src/accounts/secret-keys.js';
import { SessionStore, sameToken } from '../../src/accounts/sessions.js';
import { InviteUnusableError, SignUp } from '../../src/accounts/signup.js';
import { ManualClock } from '../../src/lib/clock.js';
import { sha256Hex } from '../../src/lib/ids.js';
import { Sealer } from '../../src/lib/seal.js';
import { utcTimestamp } from '../../src/lib/time.js';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

describe('console passwords', () => {
  it('hash with scrypt and a per-person salt, and verify only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$15$8$1$bad')).toBe(false);
  });

  it('compares tokens of different lengths as unequal without throwing', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abcd')).toBe(false);
    expect(sameToken('', 'a')).toBe(false);
  });
});

describe.each(STORAGE_BACKENDS)('console accounts on %s', (backend) => {
  let sandbox: Sandbox;
  let database: Database;
  let people: PeopleStore;
  let sessions: SessionStore;
  let invites: InviteStore;
  let signUp: SignUp;
  let keys: SecretKeyStore;
  let tokens: PublishableTokenStore;
  let accounts: AccountStore;
  const clock = new ManualClock();

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    const sealer = new Sealer(Buffer.alloc(32, 9));
    people = new PeopleStore(database.db, clock);
    sessions = new SessionStore(database.db, clock, 3_600_000);
    invites = new InviteStore(database.db, clock);
    signUp = new SignUp(database.db, sealer, clock, invites, people);
    keys = new SecretKeyStore(database.db, sealer, clock);
    tokens = new PublishableTokenStore(database.db, sealer, clock);
    accounts = new AccountStore(database.db, clock);
  });
  afterAll(async () => {
    await database.close();
    await sandbox.cleanup();
  });

  it('signs up a free account with a live and a test key, owned by the new login; an email signs up once', async () => {
    const result = await signUp.newAccount({ email: ' Owner@Shop.Example ', password: 'correct horse battery', projectName: 'Shop' });
    expect(result.person.email).toBe('owner@shop.example');
    expect((await accounts.get(result.accountId)).plan).toBe('free');
    const list = await keys.list(result.accountId);
    expect(list.map((k) => [k.env, k.name])).toEqual([['live', 'Default live key'], ['test', 'Default test key']]);
    expect(list.map((k) => k.id).sort()).toEqual([...result.newKeyIds].sort());
    expect(await people.memberships(result.person.id)).toEqual([{ accountId: result.accountId, accountName: 'Shop', role: 'owner' }]);
    await expect(signUp.newAccount({ email: 'owner@shop.example', password: 'another password!' })).rejects.toBeInstanceOf(EmailTakenError);
    expect(await people.authenticate('OWNER@shop.example', 'correct horse battery')).toEqual(result.person);
    expect(await people.authenticate('owner@shop.example', 'wrong password')).toBeNull();
    expect(await people.authenticate('nobody@shop.example', 'correct horse battery')).toBeNull();
  });

  it('keeps sessions server-side by digest, ends them at their lifetime and on destroy', async () => {
    const { person, accountId } = await signUp.newAccount({ email: 'sessions@shop.example', password: 'correct horse battery' });
    const { id, session } = await sessions.create(person.id, accountId);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await database.db.selectFrom('console_sessions').select('id_hash').where('person_id', '=', person.id).execute();
    expect(stored.map((r) => r.id_hash)).toEqual([sha256Hex(id)]);
    expect(await sessions.find(id)).toEqual(session);
    expect(await sessions.find(sha256Hex(id).slice(0, 43))).toBeNull();

    await sessions.setFlash(id, { kind: 'notice', message: 'hello' });
    expect(await sessions.takeFlash(id)).toEqual({ kind: 'notice', message: 'hello' });
    expect(await sessions.takeFlash(id)).toBeNull();

    clock.advance(3_600_000 - 1000);
    expect(await sessions.find(id)).not.toBeNull();
    clock.advance(1000);
    expect(await sessions.find(id)).toBeNull();

    const again = await sessions.create(person.id, accountId);
    await sessions.destroy(again.id);
    expect(await sessions.find(again.id)).toBeNull();
  });

  it('lets an invite join its account once, for its own email, within a week', async () => {
    const owner = await signUp.newAccount({ email: 'inviter@shop.example', password: 'correct horse battery' });
    const invite = await invites.create(owner.accountId, 'New@Shop.example');
    await expect(signUp.byInvite({ code: invite.code, email: 'other@shop.example', password: 'a long password' })).rejects.toBeInstanceOf(InviteUnusableError);
    const joined = await signUp.byInvite({ code: invite.code, email: 'new@shop.example', password: 'a long password' });
    expect(joined).toMatchObject({ accountId: owner.accountId, newKeyIds: [] });
    expect(await people.isMember(joined.person.id, owner.accountId)).toBe(true);
    await expect(signUp.byInvite({ code: invite.code, email: 'new@shop.example', password: 'a long password' })).rejects.toBeInstanceOf(InviteUnusableError);

    // An existing login joins a second account with its own password, never another one.
    const second = await signUp.newAccount({ email: 'second@shop.example', password: 'correct horse battery' });
    const late = await invites.create(second.accountId, 'new@shop.example');
    await expect(signUp.byInvite({ code: late.code, email: 'new@shop.example', password: 'not the password' })).rejects.toBeInstanceOf(EmailTakenError);
    await signUp.byInvite({ code: late.code, email: 'new@shop.example', password: 'a long password' });
    expect((await people.memberships(joined.person.id)).map((m) => m.accountId)).toEqual([owner.accountId, second.accountId]);

    const stale = await invites.create(owner.accountId, 'late@shop.example');
    clock.advance(INVITE_LIFETIME_MS);
    expect(await invites.find(stale.code)).toBeNull();
  });

  it("scopes key and token look-ups to an account: another account's ids are not found", async () => {
    const a = await signUp.newAccount({ email: 'scope-a@shop.example', password: 'correct horse battery' });
    const b = await signUp.newAccount({ email: 'scope-b@shop.example', password: 'correct horse battery' });
    const bKey = b.newKeyIds[0]!;
    const bToken = await tokens.create(b.accountId, 'live', ['https://b.example']);
    await expect(keys.revoke(bKey, a.accountId)).rejects.toThrow(/Unknown key/);
    await expect(keys.rename(bKey, 'x', a.accountId)).rejects.toThrow(/Unknown key/);
    await expect(keys.reveal(bKey, a.accountId)).rejects.toThrow(/Unknown key/);
    await expect(tokens.revoke(bToken.id, a.accountId)).rejects.toThrow(/Unknown token/);
    await expect(tokens.setOrigins(bToken.id, ['https://a.example'], a.accountId)).rejects.toThrow(/Unknown token/);
    expect((await keys.info(bKey)).revokedAt).toBeNull();
    expect((await tokens.get(bToken.id)).origins).toEqual(['https://b.example']);
    // Its own account may edit: the allowlist is replaced, validated as at creation.
    await expect(tokens.setOrigins(bToken.id, ['https://b.example/path'], b.accountId)).rejects.toThrow(/Not an exact HTTPS origin/);
    expect((await tokens.setOrigins(bToken.id, ['https://c.example', 'https://b.example'], b.accountId)).origins).toEqual(['https://b.example', 'https://c.example']);
    expect(await tokens.verify(bToken.token, 'https://c.example')).not.toBeNull();
  });

  it('records when a key was last used, at most once a minute', async () => {
    const { newKeyIds } = await signUp.newAccount({ email: 'lastused@shop.example', password: 'correct horse battery' });
    const id = newKeyIds[0]!;
    const errors: unknown[] = [];
    expect((await keys.info(id)).lastUsedAt).toBeNull();
    const at = utcTimestamp(clock.now());
    await keys.touch(id, (e) => errors.push(e));
    const first = (await keys.info(id)).lastUsedAt;
    expect(first).toBe(at);
    clock.advance(30_000);
    await keys.touch(id, (e) => errors.push(e));
    expect((await keys.info(id)).lastUsedAt).toBe(first);
    clock.advance(31_000);
    await keys.touch(id, (e) => errors.push(e));
    expect((await keys.info(id)).lastUsedAt).toBe(utcTimestamp(clock.now()));
    expect(errors).toEqual([]);
  });
});
