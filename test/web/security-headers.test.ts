import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { launchBrowser, recordConsole, type TestBrowser } from '../support/browser.js';
import { serveHttps } from '../support/https-app-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Collects every CSP violation the page reports, from before its first script runs. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

describe('security headers of the HTML pages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it.each(['/', '/docs', '/dashboard/login', '/dashboard/signup'])('%s: nosniff, a CSP with frame-ancestors, no framing, Referrer-Policy', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.includes("'unsafe-inline'")).toBe(path === '/docs'); // Redoc writes <style> elements
    expect(res.headers.get('strict-transport-security')).toBeNull(); // the TLS terminator's business
  });

  it('leaves the API alone: JSON answers carry no page policy', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

/** The pages work under their policy: rendered, and not one violation reported, in headless Chromium. */
describe('the pages under their CSP in Chromium', () => {
  let server: TestServer;
  let https: { origin: string; close(): Promise<void> };
  let browser: TestBrowser;

  beforeAll(async () => {
    await buildWidget();
    server = await startTestServer();
    https = await serveHttps(server.app);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await https?.close();
    await server?.close();
  });

  it('the homepage renders a demo answer', async () => {
    const page = await browser.newPage();
    const violations = await watchCsp(page);
    const log = recordConsole(page);
    await page.goto(`${server.url}/`);
    await page.locator('button[data-sample]').first().click();
    await page.locator('#demo-result article[data-verdict]').waitFor();
    await page.locator('#demo-result svg.locator').waitFor();
    expect(await violations()).toEqual([]);
    expect(log.errors).toEqual([]);
  });

  it('/docs renders the reference with Redoc', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 }); // the search box shows in the sidebar
    const violations = await watchCsp(page);
    const log = recordConsole(page);
    await page.goto(`${server.url}/docs`);
    await page.locator('#redoc[data-ready]').waitFor({ timeout: 20_000 });
    await expect(page.locator('[data-section-id]').count()).resolves.toBeGreaterThan(5);
    // Redoc's search runs in its blob: worker.
    await page.locator('input[placeholder="Search..."]').fill('validate');
    await page.locator('[data-role="search:results"] li').first().waitFor();
    expect(await violations()).toEqual([]);
    expect(log.errors).toEqual([]);
  }, 60_000);

  it('the console previews the hosted widget', async () => {
    const page = await browser.newPage();
    const violations = await watchCsp(page);
    const log = recordConsole(page);
    await page.goto(`${https.origin}/dashboard/signup`);
    await page.locator('#email').fill('csp@shop.example');
    await page.locator('#password').fill('correct horse battery');
    await page.locator('#project').fill('CSP check');
    await page.locator('#project').press('Enter');
    // Sign-up opens no session (it answers a known email alike): the first log-in does.
    await page.waitForURL(`${https.origin}/dashboard/login?signup=done`);
    await page.locator('#email').fill('csp@shop.example');
    await page.locator('#password').fill('correct horse battery');
    await page.locator('#password').press('Enter');
    await page.waitForURL(`${https.origin}/dashboard/keys`);
    await page.goto(`${https.origin}/dashboard/tokens`);
    await page.locator('#new-origins').fill(https.origin);
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForURL(`${https.origin}/dashboard/tokens`);
    await page.waitForFunction(() => document.getElementById('preview-address')?.getAttribute('role') === 'combobox', undefined, { timeout: 10_000 });
    await page.locator('#preview-address').focus();
    await page.keyboard.type('Damrak 1');
    await page.locator('[role=option]').first().waitFor({ state: 'visible' });
    expect(await violations()).toEqual([]);
    expect(log.errors).toEqual([]);
  });
});
