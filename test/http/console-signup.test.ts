import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ConsoleClient } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Every log-in and sign-up makes a real scrypt hash at today's cost: seconds each on a loaded machine. */
const HASHING_MS = 180_000;

/**
 * Sign-up must not tell who has a login (issue 20: 409 "already has a console login" in 17 ms
 * against a 303 in 1 s). A known email gets the answer a new one gets, after the same password
 * hashing; what there is to say reaches the email's person at their next log-in. Timing itself
 * is not asserted here (a busy machine's clock says little): the work done is, through the hasher.
 */
describe.each(STORAGE_BACKENDS)('sign-up on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres', env: { TRUST_PROXY: 'true' } });
    await new ConsoleClient(server.url).signUp('known@shop.example', 'the owner password');
  }, HASHING_MS);
  afterAll(async () => server?.close());

  /** One sign-up from a fresh browser (its own address, so sign-up limits stay out of the way). */
  async function signUp(email: string, password: string, ip: string) {
    const client = new ConsoleClient(server.url);
    await client.get('/dashboard/signup');
    const hashes = vi.spyOn(server.services.people.hasher, 'hash');
    const verifications = vi.spyOn(server.services.people.hasher, 'verify');
    try {
      const res = await client.post('/dashboard/signup', { email, password, project: 'Shop' }, { 'x-forwarded-for': ip });
      const cookies = res.res.headers.getSetCookie().map((c) => c.split('=')[0]);
      return { client, answer: { status: res.status, location: res.location, cookies, body: res.html }, work: { hashes: hashes.mock.calls.length, verifications: verifications.mock.calls.length } };
    } finally {
      hashes.mockRestore();
      verifications.mockRestore();
    }
  }

  it('answers a known email exactly as a new one, after the same hashing work', async () => {
    const fresh = await signUp('new-person@shop.example', 'a brand new password', '203.0.113.10');
    const known = await signUp('Known@Shop.example', 'a guessed password', '203.0.113.11');
    expect(known.answer).toEqual(fresh.answer);
    expect(fresh.answer).toMatchObject({ status: 303, location: '/dashboard/login?signup=done' });
    expect(fresh.answer.cookies).not.toContain('addressd_session');
    expect(known.work).toEqual(fresh.work);
    expect(fresh.work).toEqual({ hashes: 1, verifications: 0 });
    // The page both land on says the same.
    expect((await known.client.get('/dashboard/login?signup=done')).html).toContain('Sign-up received');
  }, HASHING_MS);

  it('changes nothing for the known email and tells its owner at the next log-in', async () => {
    await signUp('known@shop.example', 'another guess entirely', '203.0.113.12');
    const intruder = new ConsoleClient(server.url);
    expect((await intruder.logIn('known@shop.example', 'another guess entirely')).status).toBe(401);
    const owner = new ConsoleClient(server.url);
    const login = await owner.logIn('known@shop.example', 'the owner password');
    expect(login.location).toBe('/dashboard/usage');
    const usage = await owner.get('/dashboard/usage');
    expect(usage.html).toMatch(/Someone \(you\?\) tried to sign up with this email on \d{4}-\d{2}-\d{2}/);
    expect((await owner.get('/dashboard/usage')).html).not.toContain('tried to sign up');
  }, HASHING_MS);

  it('shows a new account its first keys at its first log-in, once', async () => {
    await signUp('first-keys@shop.example', 'a brand new password', '203.0.113.13');
    const client = new ConsoleClient(server.url);
    const login = await client.logIn('first-keys@shop.example', 'a brand new password');
    expect(login.location).toBe('/dashboard/keys');
    const keys = (await client.get('/dashboard/keys')).html.match(/ak_(?:live|test)_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(keys.map((k) => k.slice(0, 8)).sort()).toEqual(['ak_live_', 'ak_test_']);
    for (const key of keys) expect((await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam' }, { authorization: `Bearer ${key}` })).status).toBe(200);
    const again = new ConsoleClient(server.url);
    expect((await again.logIn('first-keys@shop.example', 'a brand new password')).location).toBe('/dashboard/usage');
    expect((await again.get('/dashboard/keys')).html).not.toMatch(/ak_(live|test)_[A-Za-z0-9_-]{43}/);
  }, HASHING_MS);

  it('refuses one of the most common passwords alike for a new and a known email', async () => {
    const fresh = await signUp('weak@shop.example', 'Password123', '203.0.113.14');
    const known = await signUp('known@shop.example', 'Password123', '203.0.113.15');
    expect(fresh.answer.status).toBe(400);
    expect(fresh.answer.body).toContain('one of the most common ones');
    expect(known.answer.status).toBe(fresh.answer.status);
    expect(known.answer.body.replace(/value="[^"]*"/g, '')).toBe(fresh.answer.body.replace(/value="[^"]*"/g, ''));
    expect(fresh.work.hashes).toBe(0);
  });
});
