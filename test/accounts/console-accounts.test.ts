import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../src/accounts/accounts.js';
import { InviteStore, INVITE_LIFETIME_MS } from '../../src/accounts/invites.js';
import { hashPassword, isCommonPassword, type PasswordHasher, scryptHasher, verifyPassword, WeakPasswordError } from '../../src/accounts/passwords.js';
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

/**
 * Each password hash is a real scrypt at today's cost (128 MiB, a few hundred milliseconds on a
 * quiet machine, seconds on a loaded one): tests that make several get room for them.
 */
const HASHING_MS = 180_000;

describe('console passwords', () => {
  it('hash with scrypt and a per-person salt, and verify only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    // OWASP's minimum for scrypt: N=2^17, r=8, p=1.
    expect(a).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$15$8$1$bad')).toBe(false);
    // A cost that is not ours (a damaged or planted row) is never derived.
    expect(await verifyPassword('correct horse battery', a.replace('scrypt$17$', 'scrypt$30$'))).toBe(false);
  }, HASHING_MS);

  it('knows the most common passwords, whatever their case', async () => {
    for (const common of ['password123', 'Password123', 'qwertyuiop', '1234567890', ' 1q2w3e4r5t ']) expect(await isCommonPassword(common), common).toBe(true);
    for (const rare of ['correct horse battery', 'Vaduz Städtle 32!']) expect(await isCommonPassword(rare), rare).toBe(false);
  }, HASHING_MS);

  it('compares tokens of different lengths as unequal without throwing', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abcd')).toBe(false);
    expect(sameToken('', 'a')).toBe(false);
  }, HASHING_MS);
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
  /** Today's hasher, counting the hashes and verifications it makes (the work sign-up does). */
  const work = { hash: 0, verify: 0 };
  const real = scryptHasher();
  const counting: PasswordHasher = {
    hash: (p) => (work.hash++, real.hash(p)),
    verify: (p, s) => (work.verify++, real.verify(p, s)),
    isOutdated: (s) => real.isOutdated(s),
    decoy: () => real.decoy(),
  };

  /** Signs up a new email and reads what its first log-in would show. */
  async function signUpOwner(email: string, password = 'correct horse battery', projectName?: string) {
    await signUp.newAccount({ email, password, ...(projectName ? { projectName } : {}) });
    const person = (await people.findByEmail(email))!;
    const [membership] = await people.memberships(person.id);
    const notice = await people.takeNotice(person.id);
    return { person, accountId: membership!.accountId, newKeyIds: notice?.kind === 'keys' ? notice.keyIds : [] };
  }

  beforeAll(async () => {
    sandbox = await createSandbox(backend);
    database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    const sealer = new Sealer(Buffer.alloc(32, 9));
    people = new PeopleStore(database.db, clock, counting);
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

  it('signs up a free account with a live and a test key, owned by the new login, its keys kept for the first log-in', async () => {
    const result = await signUpOwner(' Owner@Shop.Example ', 'correct horse battery', 'Shop');
    expect(result.person.email).toBe('owner@shop.example');
    expect((await accounts.get(result.accountId)).plan).toBe('free');
    const list = await keys.list(result.accountId);
    expect(list.map((k) => [k.env, k.name])).toEqual([['live', 'Default live key'], ['test', 'Default test key']]);
    expect(list.map((k) => k.id).sort()).toEqual([...result.newKeyIds].sort());
    expect(await people.takeNotice(result.person.id)).toBeNull();
    expect(await people.memberships(result.person.id)).toEqual([{ accountId: result.accountId, accountName: 'Shop', role: 'owner' }]);
    expect(await people.authenticate('OWNER@shop.example', 'correct horse battery')).toEqual(result.person);
    expect(await people.authenticate('owner@shop.example', 'wrong password')).toBeNull();
    expect(await people.authenticate('nobody@shop.example', 'correct horse battery')).toBeNull();
  }, HASHING_MS);

  it('answers a known email exactly as a new one, after the same hashing work, and tells its owner at the next log-in', async () => {
    work.hash = 0;
    work.verify = 0;
    const fresh = await signUp.newAccount({ email: 'fresh@shop.example', password: 'correct horse battery' });
    expect(work).toEqual({ hash: 1, verify: 0 });
    work.hash = 0;
    const known = await signUp.newAccount({ email: 'FRESH@shop.example', password: 'another password!', projectName: 'Taken' });
    expect(work).toEqual({ hash: 1, verify: 0 });
    expect(known).toEqual(fresh);
    // Nothing changed for the known email: its password, its one account.
    const person = (await people.findByEmail('fresh@shop.example'))!;
    expect(await people.authenticate('fresh@shop.example', 'another password!')).toBeNull();
    expect(await people.authenticate('fresh@shop.example', 'correct horse battery')).toEqual(person);
    expect(await people.memberships(person.id)).toHaveLength(1);
    // Its first keys are still pending (shown once, they come first); after them, the attempt.
    expect((await people.takeNotice(person.id))?.kind).toBe('keys');
    await signUp.newAccount({ email: 'fresh@shop.example', password: 'another password!' });
    expect(await people.takeNotice(person.id)).toEqual({ kind: 'notice', message: expect.stringMatching(/^Someone \(you\?\) tried to sign up with this email on \d{4}-\d{2}-\d{2}\./) });
  }, HASHING_MS);

  it('refuses the most common passwords, for a new email and a known one alike', async () => {
    await expect(signUp.newAccount({ email: 'weak@shop.example', password: 'Password123' })).rejects.toBeInstanceOf(WeakPasswordError);
    await expect(signUp.newAccount({ email: 'fresh@shop.example', password: 'Password123' })).rejects.toBeInstanceOf(WeakPasswordError);
    expect(await people.findByEmail('weak@shop.example')).toBeUndefined();
  }, HASHING_MS);

  it('makes a hash of an older cost again at the next successful log-in, never after a wrong one', async () => {
    const old = await scryptHasher({ log2N: 15, r: 8, p: 1 }).hash('correct horse battery');
    const person = await people.insert('old-cost@shop.example', old);
    const stored = async () => (await database.db.selectFrom('people').select('password_hash').where('id', '=', person.id).executeTakeFirstOrThrow()).password_hash;
    expect(await people.authenticate('old-cost@shop.example', 'wrong password')).toBeNull();
    expect(await stored()).toBe(old);
    expect(await people.authenticate('old-cost@shop.example', 'correct horse battery')).toEqual(person);
    expect(await stored()).toMatch(/^scrypt\$17\$8\$1\$/);
    expect(await people.authenticate('old-cost@shop.example', 'correct horse battery')).toEqual(person);
  }, HASHING_MS);

  it('keeps sessions server-side by digest, ends them at their lifetime and on destroy', async () => {
    const { person, accountId } = await signUpOwner('sessions@shop.example');
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
  }, HASHING_MS);

  it('lets an invite join its account once, for its own email, within a week', async () => {
    const owner = await signUpOwner('inviter@shop.example');
    const invite = await invites.create(owner.accountId, 'New@Shop.example');
    await expect(signUp.byInvite({ code: invite.code, email: 'other@shop.example', password: 'a long password' })).rejects.toBeInstanceOf(InviteUnusableError);
    const joined = await signUp.byInvite({ code: invite.code, email: 'new@shop.example', password: 'a long password' });
    expect(joined).toMatchObject({ accountId: owner.accountId });
    expect(await people.isMember(joined.person.id, owner.accountId)).toBe(true);
    await expect(signUp.byInvite({ code: invite.code, email: 'new@shop.example', password: 'a long password' })).rejects.toBeInstanceOf(InviteUnusableError);

    // An existing login joins a second account with its own password, never another one.
    const second = await signUpOwner('second@shop.example');
    const late = await invites.create(second.accountId, 'new@shop.example');
    await expect(signUp.byInvite({ code: late.code, email: 'new@shop.example', password: 'not the password' })).rejects.toBeInstanceOf(EmailTakenError);
    await signUp.byInvite({ code: late.code, email: 'new@shop.example', password: 'a long password' });
    expect((await people.memberships(joined.person.id)).map((m) => m.accountId)).toEqual([owner.accountId, second.accountId]);

    const stale = await invites.create(owner.accountId, 'late@shop.example');
    clock.advance(INVITE_LIFETIME_MS);
    expect(await invites.find(stale.code)).toBeNull();
  }, HASHING_MS);

  it("scopes key and token look-ups to an account: another account's ids are not found", async () => {
    const a = await signUpOwner('scope-a@shop.example');
    const b = await signUpOwner('scope-b@shop.example');
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
  }, HASHING_MS);

  it('records when a key was last used, at most once a minute', async () => {
    const { newKeyIds } = await signUpOwner('lastused@shop.example');
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
  }, HASHING_MS);
});
