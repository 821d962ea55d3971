import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ConsoleClient, keyIdsOn, tokenIdsOn } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Sign-up, log-in and re-reveal each make a real scrypt hash at today's cost (N=2^17): a few
// hundred milliseconds on a quiet machine, seconds on a loaded one. Room for that, not a retry.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

// Issue 12 "Boundaries" and the security half of "Done when", on SQLite and PostgreSQL.
describe.each(STORAGE_BACKENDS)('console security on %s', (backend) => {
  let server: TestServer;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  let aliceKeys: string[];
  let bobKeys: string[];
  const validate = (key: string) => server.post('/v1/validate', { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}` });

  beforeAll(async () => {
    server = await startTestServer({ backend });
    alice = new ConsoleClient(server.url);
    bob = new ConsoleClient(server.url);
    ({ keys: aliceKeys } = await alice.signUp('alice@shop.example', 'correct horse battery', 'Alice shop'));
    ({ keys: bobKeys } = await bob.signUp('bob@agency.example', 'another long password'));
  });
  afterAll(async () => server?.close());

  it('signs up with HttpOnly, SameSite=Lax session cookies (not Secure over plain HTTP) and shows the first live and test key', async () => {
    expect(aliceKeys).toHaveLength(2);
    expect(aliceKeys.map((k) => k.slice(0, 8)).sort()).toEqual(['ak_live_', 'ak_test_']);
    for (const key of aliceKeys) expect((await validate(key)).status).toBe(200);
    const fresh = new ConsoleClient(server.url);
    await fresh.get('/dashboard/signup');
    const signedUp = await fresh.post('/dashboard/signup', { email: 'carol@shop.example', password: 'a long enough password' });
    // Sign-up opens no session (its answer must not tell a new email from a known one): log in.
    expect(signedUp.location).toBe('/dashboard/login?signup=done');
    expect(fresh.sessionId).toBeUndefined();
    const res = await fresh.logIn('carol@shop.example', 'a long enough password');
    expect(res.location).toBe('/dashboard/keys');
    const session = res.res.headers.getSetCookie().find((c) => c.startsWith('addressd_session='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    // Shown once: the next visit lists them masked only.
    expect((await fresh.get('/dashboard/keys')).html).toMatch(/ak_live_/);
    expect((await fresh.get('/dashboard/keys')).html).not.toMatch(/ak_(live|test)_[A-Za-z0-9_-]{43}/);
  });

  it('refuses a state-changing request without the CSRF token, with a wrong one, or from another origin', async () => {
    const before = keyIdsOn((await alice.get('/dashboard/keys')).html);
    const attempts = [
      await alice.post('/dashboard/keys', { name: 'no token', env: 'live', csrf: '' }),
      await alice.post('/dashboard/keys', { name: 'wrong token', env: 'live', csrf: bob.csrf }),
      await alice.post('/dashboard/keys', { name: 'cross-site', env: 'live' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
      await alice.post('/dashboard/keys', { name: 'other origin', env: 'live' }, { origin: 'https://evil.example', 'sec-fetch-site': '' }),
      await alice.post(`/dashboard/keys/${before[0]}/revoke`, { csrf: 'x'.repeat(43) }),
      await alice.post('/dashboard/logout', { csrf: '' }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.html).toContain('expired or was sent from another site');
    }
    expect(keyIdsOn((await alice.get('/dashboard/keys')).html)).toEqual(before);
    for (const key of aliceKeys) expect((await validate(key)).status).toBe(200);
    // The log-in form needs its own token too (no session yet): a cross-site log-in is refused.
    const stranger = new ConsoleClient(server.url);
    const login = await stranger.post('/dashboard/login', { email: 'alice@shop.example', password: 'correct horse battery', csrf: 'forged' });
    expect(login.status).toBe(403);
    expect(stranger.sessionId).toBeUndefined();
  });

  it('issues a new session id at log-in and destroys any session the browser presented (no fixation)', async () => {
    const client = new ConsoleClient(server.url);
    // A planted, made-up id is never adopted.
    client.cookies.set('addressd_session', 'A'.repeat(43));
    const first = await client.logIn('alice@shop.example');
    expect(first.status).toBe(303);
    const firstId = client.sessionId!;
    expect(firstId).not.toBe('A'.repeat(43));
    // An attacker who knows a real session id (the first one) and gets the victim to log in with it gains nothing.
    const attacker = new ConsoleClient(server.url);
    attacker.cookies.set('addressd_session', firstId);
    expect((await attacker.get('/dashboard/keys')).status).toBe(200);
    const second = await client.logIn('alice@shop.example');
    expect(second.status).toBe(303);
    expect(client.sessionId).not.toBe(firstId);
    const stale = await attacker.get('/dashboard/keys');
    expect(stale.status).toBe(302);
    expect(stale.location).toMatch(/^\/dashboard\/login/);
    expect((await client.get('/dashboard/keys')).status).toBe(200);
  });

  it('log-out destroys the session on the server, not only the cookie', async () => {
    const client = new ConsoleClient(server.url);
    await client.logIn('bob@agency.example', 'another long password');
    const id = client.sessionId!;
    await client.get('/dashboard/usage');
    expect((await client.post('/dashboard/logout', {})).location).toBe('/dashboard/login');
    const replay = new ConsoleClient(server.url);
    replay.cookies.set('addressd_session', id);
    expect((await replay.get('/dashboard/usage')).status).toBe(302);
  });

  it("keeps another account's keys and tokens unreachable by id", async () => {
    const bobKeyIds = keyIdsOn((await bob.get('/dashboard/keys')).html);
    await bob.post('/dashboard/tokens', { origins: 'https://agency.example', env: 'live' });
    const bobTokenIds = tokenIdsOn((await bob.get('/dashboard/tokens')).html);
    expect(bobKeyIds).toHaveLength(2);
    expect(bobTokenIds).toHaveLength(1);

    await alice.get('/dashboard/keys');
    const tries = [
      await alice.post(`/dashboard/keys/${bobKeyIds[0]}/revoke`, {}),
      await alice.post(`/dashboard/keys/${bobKeyIds[0]}/rename`, { name: 'mine now' }),
      await alice.post(`/dashboard/keys/${bobKeyIds[0]}/reveal`, { password: 'correct horse battery' }),
      await alice.post(`/dashboard/tokens/${bobTokenIds[0]}/revoke`, {}),
      await alice.post(`/dashboard/tokens/${bobTokenIds[0]}/origins`, { origins: 'https://evil.example' }),
    ];
    for (const res of tries) expect(res.status).toBe(404);
    // Alice's pages never show Bob's ids, and Bob's credentials still work unchanged.
    expect((await alice.get('/dashboard/keys')).html).not.toContain(bobKeyIds[0]);
    expect((await alice.get('/dashboard/tokens')).html).not.toContain(bobTokenIds[0]);
    for (const key of bobKeys) expect((await validate(key)).status).toBe(200);
    const bobTokens = await server.services.tokens.list((await server.services.secretKeys.verify(bobKeys[0]!).then((k) => (k.ok ? k.key.accountId : ''))));
    expect(bobTokens[0]!.revokedAt).toBeNull();
    expect(bobTokens[0]!.origins).toEqual(['https://agency.example']);
    expect((await server.services.secretKeys.list(bobTokens[0]!.accountId)).map((k) => k.name)).not.toContain('mine now');
  });

  it('a console session cookie is no credential for /v1/* or the widget endpoint', async () => {
    const cookie = alice.cookieHeader;
    const body = { query: 'Damrak 1', country: 'NL' };
    const v = await server.post('/v1/validate', body, { cookie });
    expect(v.status).toBe(401);
    expect(await v.json()).toEqual({ message: 'Missing API key: send Authorization: Bearer <API_KEY>' });
    expect((await fetch(`${server.url}/v1/usage`, { headers: { cookie } })).status).toBe(401);
    // The widget endpoint, from an origin a token of Alice's allows, with her session cookie only.
    await alice.post('/dashboard/tokens', { origins: 'https://shop.example', env: 'live' });
    const w = await server.post('/v1/widget/autocomplete', body, { cookie, origin: 'https://shop.example' });
    expect(w.status).toBe(401);
    expect(await w.json()).toEqual({ message: 'Unknown, revoked, or origin-restricted publishable token' });
    // Nor is the session id itself accepted as a bearer credential.
    const asBearer = await server.post('/v1/widget/autocomplete', body, { authorization: `Bearer ${alice.sessionId}`, origin: 'https://shop.example' });
    expect(asBearer.status).toBe(401);
    expect((await server.post('/v1/validate', body, { authorization: `Bearer ${alice.sessionId}` })).status).toBe(401);
  });

  it('shows usage in the console while the API answers 429 for an exhausted account', async () => {
    const client = new ConsoleClient(server.url);
    const { keys } = await client.signUp('spender@shop.example');
    const accountId = (await server.services.secretKeys.verify(keys[0]!).then((k) => (k.ok ? k.key.accountId : '')));
    const reservation = (await server.services.ledger.reserve(accountId, 500))!;
    await server.services.ledger.settle(reservation, 500, {
      accountId, credentialId: 'key_x', env: 'live', endpoint: 'validate', verdict: 'valid', provider: 'pdok', latencyMs: 5, cached: false, query: 'x', source: 'bulk-import',
    });
    const api = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${keys[0]}` } });
    expect(api.status).toBe(429);
    expect((await api.json() as { message: string }).message).toContain(`${server.services.consoleUrl}`);
    const page = await client.get('/dashboard/usage');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Your credits for this month are used up');
    expect(page.html).toMatch(/answer <strong>429<\/strong>/);
    expect(page.html).toContain('bulk-import');
  });

  it('switches only between accounts the person belongs to', async () => {
    const accountOf = async (key: string) => server.services.secretKeys.verify(key).then((k) => (k.ok ? k.key.accountId : ''));
    const [aliceAccount, bobAccount] = await Promise.all([accountOf(aliceKeys[0]!), accountOf(bobKeys[0]!)]);
    const erin = new ConsoleClient(server.url);
    await erin.signUp('erin@agency.example');
    const invite = await server.services.invites.create(aliceAccount, 'erin@agency.example');
    await erin.get(`/dashboard/signup?invite=${invite.code}`);
    expect((await erin.post('/dashboard/signup', { email: 'erin@agency.example', password: 'correct horse battery', invite: invite.code })).status).toBe(303);
    const usage = await erin.get('/dashboard/usage');
    expect(usage.html).toContain('id="account-switch"');
    const aliceKeyIds = keyIdsOn((await alice.get('/dashboard/keys')).html);
    expect(keyIdsOn((await erin.get('/dashboard/keys')).html)).toEqual(aliceKeyIds);
    // An account she is not a member of is ignored: she stays where she was.
    await erin.post('/dashboard/account', { account: bobAccount });
    expect(keyIdsOn((await erin.get('/dashboard/keys')).html)).toEqual(aliceKeyIds);
    const own = await erin.get('/dashboard/keys');
    const ownAccount = /<option value="(acc_[^"]+)">/.exec(own.html)![1]!;
    expect(ownAccount).not.toBe(aliceAccount);
    await erin.post('/dashboard/account', { account: ownAccount });
    const after = keyIdsOn((await erin.get('/dashboard/keys')).html);
    expect(after).toHaveLength(2);
    expect(after).not.toEqual(aliceKeyIds);
  });

  it('serves pages that hold under a strict CSP: no inline script, style or event handler', async () => {
    const visitor = new ConsoleClient(server.url);
    const pages = [
      (await visitor.get('/dashboard/login')).html,
      (await visitor.get('/dashboard/signup')).html,
      ...(await Promise.all(['/dashboard/keys', '/dashboard/tokens', '/dashboard/usage'].map(async (p) => (await alice.get(p)).html))),
    ];
    for (const html of pages) {
      expect(html).toContain('<h1');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/\sstyle=/i);
      expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    }
  });

  it('lets only invited people in when sign-up is closed; the CLI makes one-time invites', async () => {
    const closed = await startTestServer({ sandbox: server.sandbox, env: { SIGNUP: 'closed' } });
    try {
      const visitor = new ConsoleClient(closed.url);
      expect((await visitor.get('/dashboard/signup')).html).toContain('Sign-up is by invitation');
      const refused = await visitor.post('/dashboard/signup', { email: 'dave@shop.example', password: 'a long enough password' });
      expect(refused.status).toBe(403);

      const accountId = (await server.services.secretKeys.verify(aliceKeys[0]!).then((k) => (k.ok ? k.key.accountId : '')));
      let out = '';
      let err = '';
      const io = { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t), env: closed.sandbox.env };
      expect(await runCli(['invite', '--account', accountId, '--email', 'Dave@Shop.example', '--json'], io)).toBe(0);
      const invite = JSON.parse(out) as { code: string; url: string; email: string; accountId: string };
      expect(invite).toMatchObject({ email: 'dave@shop.example', accountId });
      expect(invite.url).toMatch(new RegExp(`/dashboard/signup\\?invite=${invite.code}$`));
      // Bad input: one stderr line, exit 1, nothing written.
      out = '';
      expect(await runCli(['account', 'invite', '--account', accountId, '--email', 'not-an-email', '--json'], io)).toBe(1);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(out).toBe('');

      const page = await visitor.get(`/dashboard/signup?invite=${invite.code}`);
      expect(page.html).toContain('Accept your invitation');
      const joined = await visitor.post('/dashboard/signup', { email: 'dave@shop.example', password: 'a long enough password', invite: invite.code });
      expect(joined.status).toBe(303);
      const keys = await visitor.get('/dashboard/keys');
      expect(keyIdsOn(keys.html)).toEqual(keyIdsOn((await alice.get('/dashboard/keys')).html));
      // One time only.
      const again = new ConsoleClient(closed.url);
      const used = await again.get(`/dashboard/signup?invite=${invite.code}`);
      expect(used.html).toContain('unknown, used or expired');
      again.csrf = again.cookies.get('addressd_form')!;
      const reused = await again.post('/dashboard/signup', { email: 'dave@shop.example', password: 'a long enough password', invite: invite.code });
      expect(reused.status).toBe(400);
      expect(reused.html).toContain('unknown, used or expired');
    } finally {
      await closed.close();
    }
  });
});
