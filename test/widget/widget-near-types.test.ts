import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { launchBrowser, recordConsole, type ConsoleLog, type TestBrowser } from '../support/browser.js';
import { startHttpsPageServer, type HttpsPageServer } from '../support/https-page-server.js';
import { checkoutPage } from './checkout-page.js';
import { typeAndWaitForList as typeAndWaitForSettledList, waitForSettledList } from './settled-list.js';
import { type FakeSuggestion, installFakeWidgetApi, SUGGESTIONS, type FakeWidgetApi } from './fake-widget-api.js';

// Issue 35 in real Chromium: the matched parts in bold (DOM nodes, never HTML), the customer's
// position from the page or, only where the page opts in, from the browser; the kinds wanted.
const TOKEN = 'svc_pk_test_nearnearnearnearnearnear0000';
let dir: string;
let browser: TestBrowser;
let server: HttpsPageServer;
let api: FakeWidgetApi;
let page: Page;
let consoleLog: ConsoleLog;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'widget-near-'));
  await buildWidget(dir);
  server = await startHttpsPageServer();
  api = installFakeWidgetApi(server, dir);
  const src = server.url('/widget/v1/widget.js');
  server.page('/checkout', checkoutPage({ scriptSrc: src, token: TOKEN }));
  server.page('/checkout-near', checkoutPage({ scriptSrc: src, token: TOKEN, data: { 'data-near': '52.37,4.89', 'data-types': 'street, postcode' } }));
  server.page('/checkout-geolocate', checkoutPage({ scriptSrc: src, token: TOKEN, data: { 'data-geolocate': '' } }));
  server.page('/checkout-module', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.mjs'), token: TOKEN, module: { near: { lat: 48.14, lng: 11.58 }, types: ['locality'] } }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  Object.assign(api, { requests: [], aborted: [], mode: 'ok', allowed: true, accessStatus: 200, holdQueriesContaining: null, suggestions: SUGGESTIONS });
  await browser.context.clearPermissions();
  page = await browser.newPage();
  consoleLog = recordConsole(page);
});
afterEach(async () => {
  api.release();
  await page.close();
});

const options = () => page.locator('[role=listbox] [role=option]');
const typeAndWaitForList = (text: string) => typeAndWaitForSettledList(page, text);
/** The bold parts of each option, in order. */
const bold = () => page.$$eval('[role=option]', (lis) => lis.map((li) => [...li.querySelectorAll('mark')].map((m) => m.textContent)));
const lastRequest = () => api.requests.at(-1);

describe('matches in bold', () => {
  it('marks the matched parts of each label, diacritics folded, as <mark> elements', async () => {
    const muehlenweg: FakeSuggestion = {
      id: 'svc_s_m',
      label: 'Mühlenweg 56, 10000 Oberbach',
      provider: 'local',
      address: { street: 'Mühlenweg', houseNumber: '56', postcode: '10000', city: 'Oberbach', country: 'DE' },
    };
    api.suggestions = [muehlenweg, ...SUGGESTIONS];
    await page.goto(server.url('/checkout'));
    await typeAndWaitForList('muhlenweg 5 Ober');
    expect((await bold())[0]).toEqual(['Mühlenweg', '5', 'Ober']);
    // The whole label is still there to read, marks and all.
    expect(await options().first().textContent()).toBe('Mühlenweg 56, 10000 Oberbach');
  });

  it('marks where the service said, even where the typed words alone would not find it', async () => {
    api.suggestions = [{ ...SUGGESTIONS[0]!, matches: [{ offset: 10, length: 4 }] }];
    await page.goto(server.url('/checkout'));
    await typeAndWaitForList('Damr');
    expect(await bold()).toEqual([['1012']]);
  });

  it('never reads a label as HTML: markup in it is shown as text', async () => {
    const label = 'Damrak <img src=x onerror="window.pwned=1"> 1, Amsterdam';
    api.suggestions = [{ id: 'svc_s_x', label, provider: 'local', address: { street: 'Damrak', houseNumber: '1', city: 'Amsterdam', country: 'NL' } }];
    await page.goto(server.url('/checkout'));
    await typeAndWaitForList('Damrak img 1');
    expect(await page.locator('[role=listbox] img').count()).toBe(0);
    expect(await options().first().textContent()).toBe(label);
    expect(await bold()).toEqual([['Damrak', 'img', '1']]);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });
});

describe('near and types from the page', () => {
  it('sends no position and no types unless the page gives them', async () => {
    await page.goto(server.url('/checkout'));
    await typeAndWaitForList('Damrak');
    expect(lastRequest()).not.toHaveProperty('near');
    expect(lastRequest()).not.toHaveProperty('types');
  });

  it('takes them from the script tag (data-near, data-types); the input\'s data-addressd-near and data-addressd-types win', async () => {
    await page.goto(server.url('/checkout-near'));
    await typeAndWaitForList('Damrak');
    expect(lastRequest()).toMatchObject({ near: { lat: 52.37, lng: 4.89 }, types: ['street', 'postcode'] });
    // A page may move the position (a map click, a chosen store) at any time: read at each request.
    await page.locator('#address').evaluate((el) => {
      el.setAttribute('data-addressd-near', '51.92,4.48');
      el.setAttribute('data-addressd-types', 'address');
    });
    const before = api.requests.length;
    await page.keyboard.type(' 1');
    await expect.poll(() => api.requests.length).toBeGreaterThan(before);
    expect(lastRequest()).toMatchObject({ query: 'Damrak 1', near: { lat: 51.92, lng: 4.48 }, types: ['address'] });
  });

  it('takes them from the options of attach()', async () => {
    await page.goto(server.url('/checkout-module'));
    await typeAndWaitForList('Münch');
    expect(lastRequest()).toMatchObject({ near: { lat: 48.14, lng: 11.58 }, types: ['locality'] });
  });

  it('a form that asks for streets only takes the chosen street as it is: fields filled, select fired', async () => {
    await page.goto(server.url('/checkout'));
    await page.locator('#address').evaluate((el) => el.setAttribute('data-addressd-types', 'street'));
    api.suggestions = [SUGGESTIONS[2]!];
    await typeAndWaitForList('Damrakp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await page.locator('#street').inputValue()).toBe('Damrakpassage');
    expect(await page.locator('#city').inputValue()).toBe('Amsterdam');
    expect(await page.locator('#address').getAttribute('data-addressd-needs')).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { selected: unknown[] }).selected)).toEqual([
      expect.objectContaining({ id: 'svc_s_3', address: SUGGESTIONS[2]?.address }),
    ]);
  });

  it('ignores a malformed data-addressd-near instead of sending it', async () => {
    await page.goto(server.url('/checkout'));
    await page.locator('#address').evaluate((el) => el.setAttribute('data-addressd-near', '4.89;52.37'));
    await typeAndWaitForList('Damrak');
    expect(lastRequest()).not.toHaveProperty('near');
  });
});

describe('the browser position, only where the page opts in', () => {
  /** Waits, in the page, for an answer of the browser's geolocation (the widget asked on focus, before this). */
  const positionSettled = () =>
    page.evaluate(() => new Promise<string>((resolve) => navigator.geolocation.getCurrentPosition(() => resolve('granted'), (e) => resolve(`error ${e.code}`))));

  it('with the customer\'s permission: sends the position, rounded to about a kilometre', async () => {
    const origin = new URL(server.url('/')).origin;
    await browser.context.grantPermissions(['geolocation'], { origin });
    await browser.context.setGeolocation({ latitude: 52.373_118, longitude: 4.891_672 });
    await page.goto(server.url('/checkout-geolocate'));
    await page.locator('#address').focus();
    expect(await positionSettled()).toBe('granted');
    await typeAndWaitForList('Damrak');
    expect(lastRequest()?.near).toEqual({ lat: 52.37, lng: 4.89 });
    expect(consoleLog.errors).toEqual([]);
  });

  it('refused: the suggestions come as before, without a position, and nothing alarming is logged', async () => {
    await page.goto(server.url('/checkout-geolocate'));
    await page.locator('#address').focus();
    expect(await positionSettled()).toBe('error 1');
    await typeAndWaitForList('Damrak');
    expect(await options().count()).toBe(SUGGESTIONS.length);
    expect(lastRequest()).not.toHaveProperty('near');
    expect(consoleLog.errors).toEqual([]);
    expect(consoleLog.warnings).toEqual([]);
  });

  it('opts in on the input too (data-addressd-geolocate), for pages that attach the widget themselves', async () => {
    const origin = new URL(server.url('/')).origin;
    await browser.context.grantPermissions(['geolocation'], { origin });
    await browser.context.setGeolocation({ latitude: 48.137_154, longitude: 11.576_124 });
    await page.goto(server.url('/checkout'));
    await page.locator('#address').evaluate((el) => el.setAttribute('data-addressd-geolocate', ''));
    await page.locator('#address').focus();
    expect(await positionSettled()).toBe('granted');
    await typeAndWaitForList('Damrak');
    expect(lastRequest()?.near).toEqual({ lat: 48.14, lng: 11.58 });
  });

  it('a page that did not opt in never uses the position, even where the browser would give it', async () => {
    const origin = new URL(server.url('/')).origin;
    await browser.context.grantPermissions(['geolocation'], { origin });
    await browser.context.setGeolocation({ latitude: 52.373_118, longitude: 4.891_672 });
    await page.goto(server.url('/checkout'));
    await typeAndWaitForList('Damrak');
    expect(lastRequest()).not.toHaveProperty('near');
  });
});
