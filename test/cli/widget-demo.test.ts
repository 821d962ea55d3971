import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { demoCertificate } from '../../src/cli/widget-demo/certificate.js';
import { startWidgetDemo, type WidgetDemo } from '../../src/cli/widget-demo/server.js';
import { startPdokEmulator } from '../emulators/index.js';
import { createSandbox } from '../support/backends.js';
import { launchBrowser, recordConsole } from '../support/browser.js';
import { pageCertificate } from '../support/https-page-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

const BIN = path.resolve('bin/addressd.js');

/** fetch that trusts exactly one self-signed certificate. */
const trusting = (ca: string) => {
  const dispatcher = new Agent({ connect: { ca } });
  return (url: string, init: Parameters<typeof fetch>[1] = {}) => fetch(url, { ...init, dispatcher });
};

/** Issue 13: trying the widget on one's own machine is one command, within SPEC's HTTPS-only origins. */
describe('addressd widget-demo', () => {
  let server: TestServer;
  let demo: WidgetDemo;
  let cert: string;

  beforeAll(async () => {
    await buildWidget();
    server = await startTestServer();
    const certificate = await pageCertificate();
    cert = certificate.cert;
    demo = await startWidgetDemo(server.services, { host: '127.0.0.1', port: 0, certificate });
  });
  afterAll(async () => {
    await demo?.close();
    await server?.close();
  });

  it('serves the test page over HTTPS with a test token whose allowlist is exactly that origin', async () => {
    const get = trusting(cert);
    expect(demo.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(demo.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`data-token="${demo.token}"`);
    expect(html).toContain('src="/widget/v1/widget.js"');
    expect(demo.token).toMatch(/^svc_pk_test_/);
    const account = await server.services.accounts.get(demo.accountId);
    expect(account.name).toBe('widget demo');
    expect(demo.createdAccount).toBe(true);
    const tokens = await server.services.tokens.list(demo.accountId);
    expect(tokens.filter((t) => t.token === demo.token).map((t) => t.origins)).toEqual([[demo.origin]]);

    // The widget endpoint and the hosted script answer on the same origin.
    const ok = await get(`${demo.origin}/v1/widget/autocomplete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.token}`, origin: demo.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Damrak' }),
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { suggestions: unknown[] }).suggestions.length).toBeGreaterThan(0);
    const elsewhere = await get(`${demo.origin}/v1/widget/autocomplete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.token}`, origin: 'https://shop.example', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'Damrak' }),
    });
    expect(elsewhere.status).toBe(401);
    expect((await get(`${demo.origin}/widget/v1/widget.js`)).status).toBe(200);

    // A second start for the same account reuses it rather than creating another.
    const again = await startWidgetDemo(server.services, { host: '127.0.0.1', port: 0, certificate: await pageCertificate() });
    try {
      expect(again.accountId).toBe(demo.accountId);
      expect(again.createdAccount).toBe(false);
    } finally {
      await again.close();
    }
  });

  it('works in a real browser: the same-origin access probe (no Origin header) allows it, typing suggests, choosing fills the fields', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const log = recordConsole(page);
      const probes: (string | undefined)[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/widget/v1/access')) probes.push(r.headers().origin);
      });
      await page.goto(demo.url);
      await page.waitForFunction(() => document.getElementById('address')?.getAttribute('role') === 'combobox', undefined, { timeout: 10_000 });
      await page.locator('#address').focus();
      await page.keyboard.type('Damrak 1');
      await page.locator('[role=option]').first().waitFor({ state: 'visible' });
      const texts = await page.locator('[role=listbox] [role=option]').allTextContents();
      const wanted = texts.findIndex((t) => /^Damrak 1\b(?!\d)/.test(t));
      expect(wanted).toBeGreaterThanOrEqual(0);
      for (let i = 0; i <= wanted; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await page.locator('#street').inputValue()).toBe('Damrak');
      expect(await page.locator('#house-number').inputValue()).toBe('1');
      expect(await page.locator('#postcode').inputValue()).toBe('1012 LG');
      expect(JSON.parse((await page.locator('#selected').textContent()) ?? '{}')).toMatchObject({ street: 'Damrak', city: 'Amsterdam' });
      // The probe went out without an Origin header (a same-origin GET) and still said yes.
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.every((o) => o === undefined)).toBe(true);
      expect(log.errors).toEqual([]);
      expect(log.warnings).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows the whole snippet for your own page inside its box, on a wide and a phone-sized screen (issue 20 §2)', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(demo.url);
        const snippet = page.locator('pre', { hasText: '<script src=' });
        const box = await snippet.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
        // Nothing hidden past the box's right edge, and the box itself within the page.
        expect(box.scroll, `${width}px`).toBeLessThanOrEqual(box.client);
        expect(box.right, `${width}px`).toBeLessThanOrEqual(width);
        expect(await snippet.innerText()).toContain(`data-token='${demo.token}'`);
      }
    } finally {
      await browser.close();
    }
  });
});

// Issue 36: the demo shows the unit field and the `add_unit` prompt, against a local index that lists a house's flats.
describe('addressd widget-demo with a house of several flats', () => {
  let server: TestServer;
  let demo: WidgetDemo;
  let dir: string;

  beforeAll(async () => {
    await buildWidget();
    server = await startTestServer({ providers: 'local' });
    dir = mkdtempSync(path.join(tmpdir(), 'widget-demo-units-'));
    const csv = path.join(dir, 'us.oa.csv');
    writeFileSync(
      csv,
      [
        'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
        '-76.5905,39.2857,1932,Eastern Avenue,Apt 3A,Baltimore,,MD,21231,,',
        '-76.5905,39.2857,1932,Eastern Avenue,Apt 3B,Baltimore,,MD,21231,,',
      ].join('\n'),
    );
    await server.services.localIndex!.importFile(csv, { format: 'openaddresses', country: 'US' });
    demo = await startWidgetDemo(server.services, { host: '127.0.0.1', port: 0, certificate: await pageCertificate(), country: 'US' });
  });
  afterAll(async () => {
    await demo?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('asks for the flat in its unit field, says add_unit, and takes the flat typed there', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const log = recordConsole(page);
      await page.goto(demo.url);
      await page.waitForFunction(() => document.getElementById('address')?.getAttribute('role') === 'combobox', undefined, { timeout: 10_000 });
      await page.locator('#address').focus();
      await page.keyboard.type('1932 Eastern Avenue');
      await page.locator('[role=option]').first().waitFor({ state: 'visible' });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await page.locator('#house-number').inputValue()).toBe('1932');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('unit');
      const hint = page.locator('.svc-ac-hint');
      expect(await hint.isVisible()).toBe(true);
      expect(await page.locator('#unit').getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));
      expect(await page.locator('#next').textContent()).toContain('add_unit');
      await page.keyboard.type('Apt 3B');
      expect(await hint.count()).toBe(0);

      // A flat typed with the address goes to the unit field by itself.
      await page.locator('#unit').fill('');
      await page.locator('#address').fill('');
      await page.locator('#address').focus();
      await page.keyboard.type('1932 Eastern Avenue Apt 3A');
      await page.locator('[role=option]', { hasText: 'Apt 3A' }).first().waitFor({ state: 'visible' });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await page.locator('#unit').inputValue()).toBe('Apt 3A');
      expect(await page.locator('#next').textContent()).toBe('Flat or unit: Apt 3A');
      expect(log.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('addressd widget-demo as a command', () => {
  it('keeps its self-signed certificate in DATA_DIR and renews it for another host', async () => {
    const sandbox = await createSandbox('sqlite');
    try {
      const first = await demoCertificate(sandbox.dataDir, 'localhost');
      expect(new X509Certificate(first.cert).checkHost('localhost')).toBe('localhost');
      expect((await demoCertificate(sandbox.dataDir, 'localhost')).cert).toBe(first.cert);
      const other = await demoCertificate(sandbox.dataDir, 'demo.test');
      expect(new X509Certificate(other.cert).checkHost('demo.test')).toBe('demo.test');
    } finally {
      await sandbox.cleanup();
    }
  });

  it('prints the URL and token (--json), serves until Ctrl-C, then exits 0', async () => {
    const sandbox = await createSandbox('sqlite');
    const pdok = await startPdokEmulator();
    try {
      const child = spawn(process.execPath, [BIN, 'widget-demo', '--host', '127.0.0.1', '--port', '0', '--json'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url },
      });
      const exited = once(child, 'exit');
      let stdout = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('\n')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited early: ${stdout}`)));
      });
      const started = JSON.parse(stdout) as { url: string; origin: string; token: string; accountId: string; createdAccount: boolean };
      expect(started).toMatchObject({ url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/$/), token: expect.stringMatching(/^svc_pk_test_/), createdAccount: true });
      const get = trusting(readFileSync(path.join(sandbox.dataDir, 'widget-demo', 'cert.pem'), 'utf8'));
      const res = await get(`${started.origin}/v1/widget/autocomplete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${started.token}`, origin: started.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Damrak', country: 'NL' }),
      });
      expect(res.status).toBe(200);
      child.kill('SIGINT');
      expect((await exited)[0]).toBe(0);
    } finally {
      await pdok.close();
      await sandbox.cleanup();
    }
  }, 60_000);
});
