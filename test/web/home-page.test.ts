import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SAMPLES } from '../../src/demo/samples.js';
import { DEMO_WINDOWS, demoLimitKey } from '../../src/demo/windows.js';
import { ManualClock } from '../../src/lib/clock.js';
import { type ConsoleLog, describeViolations, launchBrowser, recordConsole, runAxe, type TestBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

const LABELS = { valid: 'Valid', correctable: 'Correctable', invalid: 'Invalid' } as const;

describe('homepage /', () => {
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let log: ConsoleLog;
  const outside: string[] = [];
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startTestServer({ clock });
    browser = await launchBrowser();
    page = await browser.newPage();
    log = recordConsole(page);
    page.on('request', (r) => {
      if (!r.url().startsWith(`${server.url}/`)) outside.push(r.url());
    });
    await page.goto(`${server.url}/`);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const result = () => page.locator('#demo-result');

  it('explains the service and offers the three samples as buttons', async () => {
    await expect(page.locator('h1').innerText()).resolves.toMatch(/address/i);
    const samples = await page.locator('button[data-sample]').evaluateAll((els) => els.map((e) => e.getAttribute('data-sample')));
    expect(samples).toEqual(DEMO_SAMPLES.map((s) => s.query));
  });

  it('shows each sample’s verdict, confidence, components, reasons and consensus when clicked', async () => {
    for (const sample of DEMO_SAMPLES) {
      const expected = sample.response;
      await page.getByRole('button', { name: new RegExp(`^${sample.query}`) }).click();
      const article = result().locator(`article[data-verdict="${expected.verdict}"]`);
      await article.waitFor();
      await expect(article.locator('.badge').innerText()).resolves.toContain(LABELS[expected.verdict]);
      await expect(page.locator('#demo-query').inputValue()).resolves.toBe(sample.query);
      await expect(article.locator('.confidence-value').innerText()).resolves.toBe(String(expected.confidence));
      const rows = await article.locator('tr[data-component]').evaluateAll((els) => els.map((e) => e.getAttribute('data-component')));
      expect(rows).toEqual(Object.keys(expected.components));
      const reasons = await article.locator('[data-reason]').evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')));
      expect(reasons).toEqual(expected.reasons);
      await expect(article.locator('.consensus').innerText()).resolves.toContain(
        `${expected.consensus.supportingProviders.length} of ${expected.consensus.supportingProviders.length + expected.consensus.conflictingProviders.length} providers`,
      );
      await expect(article.locator('svg.locator').count()).resolves.toBe(1);
      // Recorded, not looked up here: said above the answer (issue 20 §1.4).
      await expect(result().locator('[data-recorded]').innerText()).resolves.toMatch(/^Recorded example: .*without a lookup on this server/);
    }
  });

  it('looks up a typed address and renders what the API answers', async () => {
    await page.locator('#demo-query').fill('Domplein 29, Utrecht');
    await page.locator('#demo-query').press('Enter');
    await result().locator('article[data-verdict]').waitFor();
    // The page's lookup filled the cache: the API now answers the same without spending allowance.
    const api = (await (await server.post('/demo/validate', { query: 'Domplein 29, Utrecht' })).json()) as { verdict: 'valid'; confidence: number };
    await expect(result().locator('article').getAttribute('data-verdict')).resolves.toBe(api.verdict);
    await expect(result().locator('.confidence-value').innerText()).resolves.toBe(String(api.confidence));
    await expect(result().locator('h3').innerText()).resolves.toContain('Domplein 29');
    // A live lookup carries no "recorded" label.
    await expect(result().locator('[data-recorded]').count()).resolves.toBe(0);
  });

  it('renders the allowance limit kindly, and samples keep working', async () => {
    // This browser's earlier lookups, up to the five-minute limit.
    while ((await server.services.limiter.hit(demoLimitKey('127.0.0.1'), DEMO_WINDOWS, clock.now())).allowed);
    await page.locator('#demo-query').fill('Stationsplein 17, Eindhoven');
    await page.getByRole('button', { name: 'Check address' }).click();
    const notice = result().locator('[data-state="limited"]');
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toContain('5 minutes');
    expect(text).toContain('500 credits');
    await expect(notice.locator('li[data-window="five_minute"]').count()).resolves.toBe(1);

    await page.getByRole('button', { name: new RegExp(`^${DEMO_SAMPLES[0]!.query}`) }).click();
    await result().locator('article[data-verdict="valid"]').waitFor();
  });

  it('passes axe accessibility checks with a result shown, in light and dark', async () => {
    await page.getByRole('button', { name: new RegExp(`^${DEMO_SAMPLES[2]!.query}`) }).click();
    await result().locator('article[data-verdict="invalid"]').waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(describeViolations(await runAxe(page)), colorScheme).toEqual([]);
    }
  });

  it('loaded everything from the service itself, without errors', () => {
    expect(outside).toEqual([]);
    // Chromium logs every 4xx fetch; the demo's 429 above is the one that was meant to happen.
    expect(log.errors.filter((e) => !/status of 429 .*\/demo\/validate/.test(e))).toEqual([]);
  });
});
