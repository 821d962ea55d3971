import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { describeViolations, launchBrowser, recordConsole, runAxe, type TestBrowser } from '../support/browser.js';
import { serveHttps } from '../support/https-app-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

// Sign-up, log-in and re-reveal each make a real scrypt hash at today's cost (N=2^17): a few
// hundred milliseconds on a quiet machine, seconds on a loaded one. Room for that, not a retry.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

// Issue 12 "Done when", in headless Chromium against the real service on SQLite, served over HTTPS
// so cookies are Secure and the console's own origin can be on a token's list (live preview).
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(tmpdir(), 'console-screenshots');
const PASSWORD = 'correct horse battery';
const KEY = /^ak_(live|test)_[A-Za-z0-9_-]{43}$/;

let service: TestServer;
let https: { origin: string; close(): Promise<void> };
let browser: TestBrowser;
let page: Page;
const firstKeys = new Map<string, string>();
let namedKey = '';

const url = (path: string) => `${https.origin}${path}`;
const validate = (key: string, source?: string) =>
  service.post(`/v1/validate${source ? `?source=${source}` : ''}`, { query: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' }, { authorization: `Bearer ${key}` });

async function expectNoAxeViolations(p: Page): Promise<void> {
  const results = await runAxe(p);
  expect(describeViolations(results)).toEqual([]);
  expect(results.passes.length).toBeGreaterThan(10);
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Tabs until the element matching `selector` has focus: proves it is reachable by keyboard. */
async function tabTo(p: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await p.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await p.keyboard.press('Tab');
  }
  throw new Error(`${selector} not reached by Tab`);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await buildWidget();
  service = await startTestServer();
  https = await serveHttps(service.app);
  browser = await launchBrowser();
  page = await browser.newPage();
  // Revoking asks first; a person would say yes.
  page.on('dialog', (dialog) => void dialog.accept());
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await https?.close();
  await service?.close();
});

describe('the console in a browser', () => {
  it('signs up with the keyboard alone and shows the first live and test keys once', async () => {
    const log = recordConsole(page);
    await page.goto(url('/dashboard'));
    expect(page.url()).toBe(url('/dashboard/login'));
    await expectNoAxeViolations(page);
    await page.goto(url('/dashboard/signup'));
    await expectNoAxeViolations(page);
    await shot('signup');

    await tabTo(page, '#email');
    await page.keyboard.type('owner@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await tabTo(page, '#project');
    await page.keyboard.type('Shop checkout');
    await page.keyboard.press('Enter');
    // Sign-up answers a new and a known email alike; the first log-in shows the keys.
    await page.waitForURL(url('/dashboard/login?signup=done'));
    expect(await page.locator('[role=status]').textContent()).toContain('Sign-up received');
    await tabTo(page, '#email');
    await page.keyboard.type('owner@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/keys'));

    const shown = await page.locator('code.secret').allTextContents();
    expect(shown).toHaveLength(2);
    for (const key of shown) {
      expect(key).toMatch(KEY);
      firstKeys.set(key.slice(3, 7), key);
    }
    expect([...firstKeys.keys()].sort()).toEqual(['live', 'test']);
    await expectNoAxeViolations(page);
    await shot('keys-after-signup');

    const cookies = await browser.context.cookies(https.origin);
    const session = cookies.find((c) => c.name === '__Host-addressd_session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    await page.reload();
    expect(await page.locator('code.secret').count()).toBe(0);
    expect(await page.content()).not.toMatch(/ak_(live|test)_[A-Za-z0-9_-]{43}/);
    expect(log.errors).toEqual([]);
  });

  it('creates a named key that works on /v1/validate, then revokes it and the API refuses it', async () => {
    await tabTo(page, '#key-name');
    await page.keyboard.type('Checkout server');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/keys'));
    namedKey = (await page.locator('code.secret').textContent()) ?? '';
    expect(namedKey).toMatch(/^ak_live_/);
    expect(await page.locator('#revealed-title').textContent()).toContain('Checkout server');

    const ok = await validate(namedKey, 'checkout');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { verdict: string }).verdict).toBe('valid');
    // "Last used" appears once the key has been used.
    await page.goto(url('/dashboard/keys'));
    const row = page.locator('tr', { has: page.locator('th', { hasText: 'Checkout server' }) });
    await expect.poll(async () => {
      await page.reload();
      return row.locator('td').nth(3).textContent();
    }).toMatch(/UTC/);

    // Keyboard: open "Manage", reach "Revoke" and press it.
    const id = await row.getAttribute('data-key-id');
    await tabTo(page, `tr[data-key-id="${id}"] summary`);
    await page.keyboard.press('Enter');
    await tabTo(page, `tr[data-key-id="${id}"] button.danger`);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/keys'));
    expect(await page.getByRole('status').first().textContent()).toContain('revoked');
    expect(await row.textContent()).toContain('revoked');

    const refused = await validate(namedKey);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: 'Unknown or revoked API key' });
  });

  it('re-reveals another key after the password is entered again, not before', async () => {
    const row = page.locator('tr', { has: page.locator('th', { hasText: 'Default test key' }) });
    await row.locator('summary').click();
    await row.getByLabel('Your password').fill('not my password');
    await row.getByRole('button', { name: 'Reveal key' }).click();
    await page.waitForURL(url('/dashboard/keys'));
    expect(await page.getByRole('alert').textContent()).toContain('Wrong password');
    expect(await page.locator('code.secret').count()).toBe(0);

    await row.locator('summary').click();
    await row.getByLabel('Your password').fill(PASSWORD);
    await row.getByRole('button', { name: 'Reveal key' }).click();
    await page.waitForURL(url('/dashboard/keys'));
    expect(await page.locator('code.secret').textContent()).toBe(firstKeys.get('test'));
    await expectNoAxeViolations(page);
  });

  it('creates a token for https://shop.example that the widget endpoint accepts from that origin', async () => {
    await page.goto(url('/dashboard/tokens'));
    await expectNoAxeViolations(page);
    await page.getByLabel('Allowed origins, one per line').first().fill('https://shop.example/checkout');
    await page.getByRole('button', { name: 'Create token' }).click();
    // Validated exactly as the API does: a path is refused and the form keeps what was typed.
    expect(await page.getByRole('alert').textContent()).toContain('Not an exact HTTPS origin');
    expect(await page.locator('#new-origins').inputValue()).toBe('https://shop.example/checkout');
    await page.locator('#new-origins').fill('https://shop.example');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForURL(url('/dashboard/tokens'));

    const token = (await page.locator('article.token h3 code').first().textContent()) ?? '';
    expect(token).toMatch(/^svc_pk_live_/);
    expect(await page.locator('article.token pre code').first().textContent()).toContain(`data-token="${token}"`);
    const res = await service.post('/v1/widget/autocomplete', { query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${token}`, origin: 'https://shop.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const other = await service.post('/v1/widget/autocomplete', { query: 'Damrak', country: 'NL' }, { authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(other.status).toBe(401);
  });

  it("previews the hosted widget on the console once the console's origin is on the list", async () => {
    expect(await page.locator('#preview-address').count()).toBe(0);
    const article = page.locator('article.token').first();
    await article.locator('summary').click();
    await article.getByLabel('Allowed origins, one per line').fill(`https://shop.example\n${https.origin}`);
    await article.getByRole('button', { name: 'Save origins' }).click();
    await page.waitForURL(url('/dashboard/tokens'));
    const log = recordConsole(page);
    await page.waitForFunction(() => document.getElementById('preview-address')?.getAttribute('role') === 'combobox', undefined, { timeout: 10_000 });
    await page.locator('#preview-address').focus();
    await page.keyboard.type('Damrak 1');
    await page.locator('[role=option]').first().waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await shot('tokens');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Enter');
    expect(await page.locator('#preview-city').inputValue()).toBe('Amsterdam');
    expect(log.errors).toEqual([]);
  });

  it('draws the calls just made on the usage page, filters by source, and passes axe', async () => {
    const live = firstKeys.get('live')!;
    for (let i = 0; i < 2; i++) expect((await validate(live, 'backoffice')).status).toBe(200);
    await page.goto(url('/dashboard/usage'));
    await expectNoAxeViolations(page);
    await shot('usage');

    const report = (await (await fetch(`${service.url}/v1/usage`, { headers: { authorization: `Bearer ${live}` } })).json()) as {
      creditsUsedThisMonth: number;
      daily: Array<{ day: string; credits: number }>;
      recent: Array<{ endpoint: string; source: string | null }>;
    };
    expect(report.creditsUsedThisMonth).toBeGreaterThan(0);
    expect(await page.locator('#credits-used').textContent()).toBe(report.creditsUsedThisMonth.toLocaleString('en-US'));
    const today = report.daily.at(-1)!;
    expect(today.credits).toBeGreaterThan(0);
    expect(await page.locator(`g.day[data-day="${today.day}"]`).getAttribute('data-credits')).toBe(String(today.credits));
    expect(Number(await page.locator(`g.day[data-day="${today.day}"] rect`).getAttribute('height'))).toBeGreaterThan(0);
    expect(await page.locator('svg.quota-bar').getAttribute('aria-label')).toContain(`${report.creditsUsedThisMonth} of 500 monthly credits used`);

    const rows = page.locator('table.recent tbody tr');
    expect(await rows.count()).toBe(report.recent.length);
    const endpoints = await rows.locator('td:nth-child(2)').allTextContents();
    expect(endpoints).toContain('/v1/validate');
    expect(endpoints).toContain('/v1/widget/autocomplete');

    // The source filter, by keyboard: choose "checkout" and submit.
    await tabTo(page, '#source');
    await page.locator('#source').selectOption('checkout');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/usage?source=checkout'));
    const sources = await page.locator('table.recent tbody tr td:nth-child(8)').allTextContents();
    expect(sources).toEqual(['checkout']);
    await expectNoAxeViolations(page);
  });

  it('logs out and back in with the keyboard; the old session is gone', async () => {
    await tabTo(page, '.logout button');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/login'));
    await page.goto(url('/dashboard/keys'));
    expect(page.url()).toBe(url('/dashboard/login?next=%2Fdashboard%2Fkeys'));
    await expectNoAxeViolations(page);
    await tabTo(page, '#email');
    await page.keyboard.type('owner@shop.example');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/dashboard/keys'));
    await shot('keys');
  });

  it('looks right in dark mode too (screenshot) and passes axe there', async () => {
    const dark = await launchBrowser({ colorScheme: 'dark' });
    try {
      const p = await dark.newPage();
      await p.goto(url('/dashboard/signup'));
      await expectNoAxeViolations(p);
      await p.screenshot({ path: join(SHOTS, 'signup-dark.png'), fullPage: true });
    } finally {
      await dark.close();
    }
  });
});
