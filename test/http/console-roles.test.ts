import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RoleMessages } from '../../src/accounts/roles.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { ConsoleClient, keyIdsOn, tokenIdsOn } from '../support/console-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The member role (issue 20: never checked, so an invited member could reveal and revoke the
 * owner's keys). A member sees usage, keys and tokens, and works with test keys; live keys and
 * publishable tokens are the owner's. The server refuses (403), the pages show it.
 */
const ORIGIN = 'https://shop.example';
const SLOW_MS = 180_000; // every log-in and sign-up makes a real scrypt hash at today's cost
const escaped = (text: string) => text.replace(/'/g, '&#39;');

describe.each(STORAGE_BACKENDS)('console roles on %s', (backend) => {
  let server: TestServer;
  let owner: ConsoleClient;
  let member: ConsoleClient;
  let liveKey: string;
  let liveKeyId: string;
  let testKeyId: string;
  let tokenId: string;

  beforeAll(async () => {
    server = await startTestServer({ backend, redis: backend === 'postgres' });
    owner = new ConsoleClient(server.url);
    const { keys } = await owner.signUp('owner@shop.example', 'the owner password', 'Shop');
    liveKey = keys.find((k) => k.startsWith('ak_live_'))!;
    const verified = await server.services.secretKeys.verify(liveKey);
    if (!verified.ok) throw new Error('no live key');
    const accountId = verified.key.accountId;
    const list = await server.services.secretKeys.list(accountId);
    liveKeyId = list.find((k) => k.env === 'live')!.id;
    testKeyId = list.find((k) => k.env === 'test')!.id;
    await owner.post('/dashboard/tokens', { origins: ORIGIN, env: 'live' });
    tokenId = tokenIdsOn((await owner.get('/dashboard/tokens')).html)[0]!;

    const invite = await server.services.invites.create(accountId, 'member@shop.example');
    member = new ConsoleClient(server.url);
    await member.get(`/dashboard/signup?invite=${invite.code}`);
    const joined = await member.post('/dashboard/signup', { email: 'member@shop.example', password: 'the member password', invite: invite.code });
    if (joined.status !== 303) throw new Error(`join answered ${joined.status}`);
  }, SLOW_MS);
  afterAll(async () => server?.close());

  const validates = async (key: string) => (await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam' }, { authorization: `Bearer ${key}` })).status;

  it('lets a member see usage, keys and tokens', async () => {
    expect((await member.get('/dashboard/usage')).status).toBe(200);
    const keys = await member.get('/dashboard/keys');
    expect(keyIdsOn(keys.html).sort()).toEqual([liveKeyId, testKeyId].sort());
    expect(tokenIdsOn((await member.get('/dashboard/tokens')).html)).toEqual([tokenId]);
  });

  it("shows a member recent calls without their queries (recipient lines), the owner with them", async () => {
    expect((await server.post('/v1/validate', { query: 'c/o Hans Geheim, Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { authorization: `Bearer ${liveKey}` })).status).toBe(200);
    const owners = (await owner.get('/dashboard/usage')).html;
    expect(owners).toContain('c/o Hans Geheim');
    expect(owners).toContain('<th scope="col">Query</th>');
    const members = await member.get('/dashboard/usage');
    expect(members.status).toBe(200);
    expect(members.html).toContain('<table class="recent">');
    expect(members.html).not.toContain('Hans Geheim');
    expect(members.html).not.toContain('Damrak 1');
    expect(members.html).not.toContain('<th scope="col">Query</th>');
    expect(members.html).toContain('id="queries-hidden"');
  });

  it("refuses a member every action on a live key, and the key keeps working", async () => {
    await member.get('/dashboard/keys');
    const attempts = [
      await member.post('/dashboard/keys', { name: 'Sneaky live', env: 'live' }),
      await member.post(`/dashboard/keys/${liveKeyId}/reveal`, { password: 'the member password' }),
      await member.post(`/dashboard/keys/${liveKeyId}/rename`, { name: 'Renamed by member' }),
      await member.post(`/dashboard/keys/${liveKeyId}/revoke`, {}),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.html).toContain(escaped(RoleMessages.liveKeys));
    }
    const page = await member.get('/dashboard/keys');
    expect(page.html).not.toMatch(/ak_live_[A-Za-z0-9_-]{43}/);
    expect(page.html).not.toContain('Sneaky live');
    expect(page.html).not.toContain('Renamed by member');
    expect(await validates(liveKey)).toBe(200);
  }, SLOW_MS);

  it('lets a member create, reveal, rename and revoke test keys', async () => {
    await member.get('/dashboard/keys');
    expect((await member.post('/dashboard/keys', { name: 'Member test', env: 'test' })).status).toBe(303);
    const created = (await member.get('/dashboard/keys')).html.match(/ak_test_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(created).toHaveLength(1);
    expect(await validates(created[0]!)).toBe(200);
    expect((await member.post(`/dashboard/keys/${testKeyId}/rename`, { name: 'CI key' })).status).toBe(303);
    expect((await member.post(`/dashboard/keys/${testKeyId}/reveal`, { password: 'the member password' })).status).toBe(303);
    expect((await member.get('/dashboard/keys')).html).toMatch(/ak_test_[A-Za-z0-9_-]{43}/);
    expect((await member.post(`/dashboard/keys/${testKeyId}/revoke`, {})).status).toBe(303);
    expect((await owner.get('/dashboard/keys')).html).toContain('CI key');
  }, SLOW_MS);

  it('refuses a member every change to tokens, and the token keeps working', async () => {
    await member.get('/dashboard/tokens');
    const attempts = [
      await member.post('/dashboard/tokens', { origins: 'https://member.example', env: 'live' }),
      await member.post(`/dashboard/tokens/${tokenId}/origins`, { origins: 'https://member.example' }),
      await member.post(`/dashboard/tokens/${tokenId}/revoke`, {}),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(res.html).toContain(escaped(RoleMessages.tokens));
    }
    const token = await server.services.tokens.get(tokenId);
    expect(token).toMatchObject({ origins: [ORIGIN], revokedAt: null });
    expect(tokenIdsOn((await owner.get('/dashboard/tokens')).html)).toEqual([tokenId]);
  });

  it("shows a member's limits in the console: disabled controls with the reason", async () => {
    const keys = (await member.get('/dashboard/keys')).html;
    expect(keys).toContain(`<p id="role-note" class="hint">${escaped(RoleMessages.liveKeys)}</p>`);
    expect(keys).toMatch(/<option value="live" disabled>live<\/option><option value="test" selected>/);
    const liveRow = keys.slice(keys.indexOf(`<tr data-key-id="${liveKeyId}"`), keys.indexOf('</tr>', keys.indexOf(`<tr data-key-id="${liveKeyId}"`)));
    expect(liveRow).toMatch(/<button type="button" class="secondary" disabled aria-describedby="role-note">Manage/);
    expect(liveRow).not.toContain('/reveal');
    const tokens = (await member.get('/dashboard/tokens')).html;
    expect(tokens).toContain(escaped(RoleMessages.tokens));
    expect(tokens).toMatch(/<fieldset class="plain" disabled aria-describedby="role-note">/);
    expect(tokens).not.toContain(`/dashboard/tokens/${tokenId}/revoke`);
    // The owner sees none of it.
    const ownerKeys = (await owner.get('/dashboard/keys')).html;
    expect(ownerKeys).not.toContain('role-note');
    expect(ownerKeys).toContain(`/dashboard/keys/${liveKeyId}/reveal`);
    expect((await owner.get('/dashboard/tokens')).html).toContain(`/dashboard/tokens/${tokenId}/revoke`);
  });
});
