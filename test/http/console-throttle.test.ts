import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countPasswordAttempt, PASSWORD_LIMITS } from '../../src/http/console-limits.js';
import { HttpError } from '../../src/http/errors.js';
import type { StorageBackend } from '../support/backends.js';
import { ConsoleClient } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Every log-in and sign-up makes a real scrypt hash at today's cost: seconds each on a loaded machine. */
const HASHING_MS = 180_000;

// Password guessing meets the shared limiter: in-process and Redis, on SQLite and PostgreSQL.
const CASES: Array<[string, StorageBackend, boolean]> = [
  ['SQLite, in-process limits', 'sqlite', false],
  ['SQLite, Redis limits', 'sqlite', true],
  ['PostgreSQL, in-process limits', 'postgres', false],
  ['PostgreSQL, Redis limits', 'postgres', true],
];

describe.each(CASES)('log-in throttle (%s)', (_name, backend, redis) => {
  let server: TestServer;
  let owner: ConsoleClient;

  beforeAll(async () => {
    server = await startTestServer({ backend, redis, env: { TRUST_PROXY: 'true' } });
    owner = new ConsoleClient(server.url);
    await owner.signUp('target@shop.example', 'the real password');
    await owner.signUp('bystander@shop.example', 'the other password');
  }, HASHING_MS);
  afterAll(async () => server?.close());

  it('answers 429 with Retry-After after 10 attempts on one login from one address, even for the right password; other logins are untouched', async () => {
    const guesser = new ConsoleClient(server.url);
    await guesser.get('/dashboard/login');
    // Its own address: the owner's first log-in (at sign-up) counted on the default one.
    const from = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 10; i++) {
      const res = await guesser.post('/dashboard/login', { email: 'Target@Shop.example', password: `guess ${i}` }, from);
      expect(res.status).toBe(401);
      expect(res.html).toContain('The email or the password is wrong.');
    }
    const blocked = await guesser.post('/dashboard/login', { email: 'target@shop.example', password: 'the real password' }, from);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.html).toContain('Too many log-in attempts');
    expect(guesser.sessionId).toBeUndefined();

    const other = new ConsoleClient(server.url);
    expect((await other.logIn('bystander@shop.example', 'the other password')).status).toBe(303);
  }, HASHING_MS);

  it('counts a wrong password when re-revealing a key as a log-in attempt', async () => {
    const client = new ConsoleClient(server.url);
    // Signing up ends with the first log-in, a log-in attempt like any other.
    await client.signUp('revealer@shop.example', 'revealer password');
    const page = await client.get('/dashboard/keys');
    const keyId = /<tr data-key-id="([^"]+)"/.exec(page.html)![1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await client.post(`/dashboard/keys/${keyId}/reveal`, { password: `guess ${i}` })).status);
    // One attempt went to the first log-in: nine wrong guesses redirect with a notice, then 429.
    expect(statuses.slice(0, 9).every((s) => s === 303)).toBe(true);
    expect(statuses[9]).toBe(429);
    const after = await client.get('/dashboard/keys');
    expect(after.html).not.toMatch(/ak_(live|test)_[A-Za-z0-9_-]{43}/);
  }, HASHING_MS);

  it("does not lock the owner out: a stranger's guesses from their address leave the owner's address free", async () => {
    await owner.signUp('locked@shop.example', 'the owner password');
    const stranger = new ConsoleClient(server.url);
    await stranger.get('/dashboard/login');
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 10; i++) expect((await stranger.post('/dashboard/login', { email: 'locked@shop.example', password: `guess ${i}` }, from('203.0.113.66'))).status).toBe(401);
    expect((await stranger.post('/dashboard/login', { email: 'locked@shop.example', password: 'the owner password' }, from('203.0.113.66'))).status).toBe(429);

    const self = new ConsoleClient(server.url);
    await self.get('/dashboard/login');
    const login = await self.post('/dashboard/login', { email: 'locked@shop.example', password: 'the owner password' }, from('198.51.100.20'));
    expect(login.status).toBe(303);
    // Re-revealing a key counts on the same (login, address) pair: the owner's is untouched too.
    const keys = await self.get('/dashboard/keys');
    const keyId = /<tr data-key-id="([^"]+)"/.exec(keys.html)![1]!;
    const reveal = await self.post(`/dashboard/keys/${keyId}/reveal`, { password: 'the owner password' }, from('198.51.100.20'));
    expect(reveal.status).toBe(303);
    expect((await self.get('/dashboard/keys')).html).toMatch(/ak_(live|test)_[A-Za-z0-9_-]{43}/);
  }, HASHING_MS);

  it('counts joining by invite as a log-in attempt: an address out of guesses for a login cannot try its password there (issue 28 §10)', async () => {
    const other = await server.services.accounts.create({});
    const invite = await server.services.invites.create(other.id, 'target@shop.example');
    const ip = '203.0.113.91';
    // This address spent its log-in attempts on the login (the limiter alone, no hashing).
    for (let i = 0; i < PASSWORD_LIMITS.perEmailAndIp[0].max; i++) await countPasswordAttempt(server.services, 'target@shop.example', ip);
    const guesser = new ConsoleClient(server.url);
    await guesser.get(`/dashboard/signup?invite=${invite.code}`);
    const joined = await guesser.post('/dashboard/signup', { email: 'target@shop.example', password: 'the real password', invite: invite.code }, { 'x-forwarded-for': ip });
    expect(joined.status).toBe(429);
    expect(Number(joined.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(joined.html).toContain('Too many log-in attempts');
    expect(guesser.sessionId).toBeUndefined();
    // The invite is still there for its owner, from their own address.
    expect(await server.services.invites.find(invite.code)).not.toBeNull();
  }, HASHING_MS);

  it('has a looser per-login ceiling for guesses spread over many addresses', async () => {
    const email = 'spread@shop.example';
    const perAddress = PASSWORD_LIMITS.perEmailAndIp[0].max;
    const addresses = PASSWORD_LIMITS.perEmail[0].max / perAddress;
    // The limiter alone (no password hashing): each address spends its own count in full.
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < perAddress; i++) await countPasswordAttempt(server.services, email, `192.0.2.${a}`);
      await expect(countPasswordAttempt(server.services, email, `192.0.2.${a}`)).rejects.toMatchObject({ status: 429 });
    }
    const next = countPasswordAttempt(server.services, 'Spread@Shop.example', '192.0.2.250');
    await expect(next).rejects.toBeInstanceOf(HttpError);
    await expect(next).rejects.toMatchObject({ status: 429 });
    // Other logins from those addresses are not affected by this login's ceiling.
    await countPasswordAttempt(server.services, 'someone-else@shop.example', '192.0.2.250');
  });
});
