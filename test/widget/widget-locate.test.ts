import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { launchBrowser, recordConsole, type TestBrowser } from '../support/browser.js';
import { startHttpsPageServer, type HttpsPageServer } from '../support/https-page-server.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { checkoutPage } from './checkout-page.js';

// Issue 35: the widget's opt-in "use my location" button in headless Chromium, against the real
// service (its /v1/widget/reverse over the provider emulators), with the geolocation permission
// granted and denied.
let service: TestServer;
let shop: HttpsPageServer;
let browser: TestBrowser;

/** About 20 m from Damrak 1, Amsterdam (the emulators' dataset). */
const NEAR_DAMRAK = { latitude: 52.37632, longitude: 4.89605 };

beforeAll(async () => {
  await buildWidget();
  service = await startTestServer();
  shop = await startHttpsPageServer();
  const { accountId } = await service.createAccount();
  const { token } = await service.createToken(accountId, [shop.origin]);
  const scriptSrc = `${service.url}/widget/v1/widget.js`;
  shop.page('/locate', checkoutPage({ scriptSrc, token, data: { 'data-locate': 'true' } }));
  shop.page('/plain', checkoutPage({ scriptSrc, token }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await service?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(shop.url(path));
  await page.waitForFunction(() => document.getElementById('address')?.getAttribute('role') === 'combobox', undefined, { timeout: 10_000 });
  return page;
}

const fields = (page: Page) =>
  page.evaluate(() => Object.fromEntries(['address', 'street', 'house-number', 'postcode', 'city'].map((id) => [id, (document.getElementById(id) as HTMLInputElement).value])));
const reverseCalls = () => service.services.database.db.selectFrom('usage_events').select('id').where('endpoint', '=', '/v1/widget/reverse').execute();

describe('the "use my location" button', () => {
  it('is there only when the page opts in', async () => {
    const plain = await open('/plain');
    expect(await plain.locator('button.svc-ac-locate').count()).toBe(0);
    await plain.close();
    const page = await open('/locate');
    await expect(page.getByRole('button', { name: 'Use my location' }).count()).resolves.toBe(1);
    await page.close();
  });

  it('fills the form from the nearest address once the customer allows the position', async () => {
    await browser.context.grantPermissions(['geolocation'], { origin: shop.origin });
    await browser.context.setGeolocation(NEAR_DAMRAK);
    const page = await open('/locate');
    const log = recordConsole(page);
    await page.evaluate(() => {
      document.getElementById('address')!.addEventListener('select', (e) => ((window as unknown as { picked: unknown }).picked = (e as CustomEvent).detail));
    });
    await page.getByRole('button', { name: 'Use my location' }).click();
    await page.waitForFunction(() => (document.getElementById('street') as HTMLInputElement).value !== '', undefined, { timeout: 10_000 });
    expect(await fields(page)).toEqual({ address: 'Damrak 1, 1012 LG Amsterdam', street: 'Damrak', 'house-number': '1', postcode: '1012 LG', city: 'Amsterdam' });
    expect(await page.evaluate(() => (window as unknown as { picked: { label: string } }).picked.label)).toBe('Damrak 1, 1012 LG Amsterdam');
    expect(await page.locator('.svc-ac-locate-status').textContent()).toBe('');
    expect(log.errors).toEqual([]);
    await page.close();
    await browser.context.clearPermissions();
  });

  it('says so and leaves the form alone when the customer declines', async () => {
    await browser.context.clearPermissions();
    const before = (await reverseCalls()).length;
    const page = await open('/locate');
    await page.getByRole('button', { name: 'Use my location' }).click();
    const status = page.locator('.svc-ac-locate-status[role=status]');
    await status.filter({ hasText: 'not available' }).waitFor({ timeout: 10_000 });
    expect(await fields(page)).toEqual({ address: '', street: '', 'house-number': '', postcode: '', city: '' });
    expect(await page.getByRole('button', { name: 'Use my location' }).isEnabled()).toBe(true);
    // No position, no look-up: nothing was asked of the service, nothing billed.
    expect((await reverseCalls()).length).toBe(before);
    await page.close();
  });
});
