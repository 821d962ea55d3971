import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { describeViolations, launchBrowser, recordConsole, runAxe, type ConsoleLog, type TestBrowser } from '../support/browser.js';
import { startHttpsPageServer, type HttpsPageServer } from '../support/https-page-server.js';
import { checkoutPage } from './checkout-page.js';
import { typeAndWaitForList as typeAndWaitForSettledList, waitForSettledList } from './settled-list.js';
import { installFakeWidgetApi, SUGGESTIONS, type FakeSuggestion, type FakeWidgetApi } from './fake-widget-api.js';

// The widget in real Chromium against a scripted API on the page's origin: the behaviour the real
// server rarely shows on demand (429, failures, slow answers). widget-e2e.test.ts uses the real server.
const TOKEN = 'svc_pk_test_behaviourbehaviourbehaviour00';
let dir: string;
let browser: TestBrowser;
let server: HttpsPageServer;
let api: FakeWidgetApi;
let page: Page;
let consoleLog: ConsoleLog;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'widget-behaviour-'));
  await buildWidget(dir);
  server = await startHttpsPageServer();
  api = installFakeWidgetApi(server, dir);
  server.page('/checkout', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN }));
  // A long debounce leaves room to watch what happens to a request between two keystrokes.
  server.page('/checkout-slow', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN, data: { 'data-debounce-ms': '1500' } }));
  server.page('/checkout-autofill', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN, autofillOnly: true }));
  server.page('/checkout-unit', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN, autofillOnly: true, unitField: 'unit' }));
  server.page('/checkout-no-unit', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN, unitField: 'none' }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  Object.assign(api, { requests: [], aborted: [], mode: 'ok', allowed: true, accessStatus: 200, holdQueriesContaining: null, suggestions: SUGGESTIONS });
  page = await browser.newPage();
  consoleLog = recordConsole(page);
  await page.goto(server.url('/checkout'));
});
afterEach(async () => {
  api.release();
  await page.close();
});

const combobox = () => page.locator('#address');
const options = () => page.locator('[role=listbox] [role=option]');
const expanded = () => combobox().getAttribute('aria-expanded');
const activeLabel = () =>
  page.evaluate(() => {
    const id = document.getElementById('address')?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });
const value = (sel: string) => page.locator(sel).inputValue();

const typeAndWaitForList = (text: string) => typeAndWaitForSettledList(page, text);

describe('keyboard (WAI-ARIA 1.2 combobox)', () => {
  it('Down/Up move through the options and wrap around', async () => {
    await typeAndWaitForList('Damrak');
    expect(await activeLabel()).toBeNull();
    await page.keyboard.press('ArrowDown');
    expect(await activeLabel()).toBe(SUGGESTIONS[0]?.label);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await activeLabel()).toBe(SUGGESTIONS[2]?.label);
    await page.keyboard.press('ArrowDown');
    expect(await activeLabel()).toBe(SUGGESTIONS[0]?.label);
    await page.keyboard.press('ArrowUp');
    expect(await activeLabel()).toBe(SUGGESTIONS[2]?.label);
    expect(await options().nth(2).getAttribute('aria-selected')).toBe('true');
    expect(await value('#address')).toBe('Damrak');
  });

  it('Home and End move the caret in the text, not through the list', async () => {
    await typeAndWaitForList('Damrak');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    expect(await activeLabel()).toBeNull();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).selectionStart)).toBe(0);
    await page.keyboard.press('End');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).selectionStart)).toBe(6);
    expect(await value('#address')).toBe('Damrak');
    expect(await expanded()).toBe('true');
  });

  it('Escape first closes the list, then clears the text', async () => {
    await typeAndWaitForList('Damrak');
    await page.keyboard.press('Escape');
    expect(await expanded()).toBe('false');
    expect(await options().first().isVisible()).toBe(false);
    expect(await value('#address')).toBe('Damrak');
    await page.keyboard.press('Escape');
    expect(await value('#address')).toBe('');
  });

  it('Escape also drops the answer still on its way, and Down brings the list back', async () => {
    await typeAndWaitForList('Damrak');
    await page.keyboard.type(' 1');
    await page.keyboard.press('Escape');
    // Past the debounce: the request for "Damrak 1" was never sent, the dismissed list stays closed.
    await page.waitForTimeout(600);
    expect(api.requests.map((r) => r.query)).toEqual(['Damrak']);
    expect(await expanded()).toBe('false');
    expect(await value('#address')).toBe('Damrak 1');
    await page.keyboard.press('ArrowDown');
    expect(await expanded()).toBe('true');
    expect(await activeLabel()).toBe(SUGGESTIONS[0]?.label);
  });

  it('Tab leaves the field without selecting or submitting', async () => {
    await typeAndWaitForList('Damrak');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('street');
    expect(await value('#address')).toBe('Damrak');
    expect(await value('#street')).toBe('');
    expect(await expanded()).toBe('false');
    expect(await page.evaluate(() => (window as unknown as { submitted: number }).submitted)).toBe(0);
  });

  it('Enter selects the active option without submitting the form', async () => {
    await typeAndWaitForList('Damrak 1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await value('#address')).toBe('Damrak 1, 1012 LG Amsterdam');
    expect(await expanded()).toBe('false');
    expect(await page.evaluate(() => (window as unknown as { submitted: number }).submitted)).toBe(0);
  });
});

describe('filling the form', () => {
  it('fills the separate fields by mapping and autocomplete attributes, keeping the typed addition and apartment', async () => {
    await typeAndWaitForList('Damrak 1-3 apt 4');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await value('#address')).toBe('Damrak 1-3 apt 4, 1012 LG Amsterdam');
    expect(await value('#street')).toBe('Damrak');
    expect(await value('#house-number')).toBe('1-3');
    expect(await value('#line2')).toBe('apt 4');
    expect(await value('#postcode')).toBe('1012 LG');
    expect(await value('#city')).toBe('Amsterdam');
    expect(await page.locator('#country').inputValue()).toBe('NL');
    const detail = await page.evaluate(() => (window as unknown as { selected: unknown[] }).selected);
    expect(detail).toEqual([
      expect.objectContaining({ id: 'svc_s_1', address: SUGGESTIONS[0]?.address, houseNumber: '1-3', extra: 'apt 4', value: 'Damrak 1-3 apt 4, 1012 LG Amsterdam' }),
    ]);
  });

  it('leaves what the user entered when the suggestion lacks it', async () => {
    await page.locator('#postcode').fill('1012 JS');
    await typeAndWaitForList('Damrakpassage 5');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    expect(await value('#postcode')).toBe('1012 JS');
    expect(await value('#house-number')).toBe('5');
    expect(await value('#street')).toBe('Damrakpassage');
    expect(await value('#address')).toBe('Damrakpassage 5, Amsterdam');
  });

  it('a street-only choice puts the caret where the house number goes and fills nothing yet (issue 20 §2)', async () => {
    await page.evaluate(() => {
      const w = window as unknown as { streets: unknown[] };
      w.streets = [];
      document.getElementById('address')?.addEventListener('street', (e) => w.streets.push((e as CustomEvent).detail));
    });
    await typeAndWaitForList('Damrakp');
    await page.keyboard.press('ArrowUp'); // the last option: the street Damrakpassage, no number
    await page.keyboard.press('Enter');
    expect(await value('#address')).toBe('Damrakpassage , Amsterdam');
    const caret = await combobox().evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd]);
    expect(caret).toEqual(['Damrakpassage '.length, 'Damrakpassage '.length]);
    // Not a finished address: no field filled, no select, the number marked as still needed.
    for (const field of ['#street', '#house-number', '#postcode', '#city']) expect(await value(field)).toBe('');
    expect(await page.evaluate(() => (window as unknown as { selected: unknown[] }).selected)).toEqual([]);
    expect(await combobox().getAttribute('data-addressd-needs')).toBe('houseNumber');
    expect(await page.evaluate(() => (window as unknown as { streets: unknown[] }).streets)).toEqual([
      expect.objectContaining({ id: 'svc_s_3', missing: ['houseNumber'], address: SUGGESTIONS[2]?.address }),
    ]);
    await expect(page.locator('[role=status]').first().innerText()).resolves.toMatch(/^Street chosen\. Type the house number\./);

    // Typing the number lands in the street segment and drills down from there.
    await page.keyboard.type('5');
    expect(await value('#address')).toBe('Damrakpassage 5, Amsterdam');
    await waitForSettledList(page);
    expect(api.requests.at(-1)?.query).toBe('Damrakpassage 5, Amsterdam');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    expect(await value('#house-number')).toBe('5');
    expect(await value('#street')).toBe('Damrakpassage');
    expect(await combobox().getAttribute('data-addressd-needs')).toBeNull();
  });

  it('fills a street-line field found by its autocomplete attribute alone, with no mapping', async () => {
    await page.goto(server.url('/checkout-autofill'));
    await typeAndWaitForList('Damrak 1B 2nd floor');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await value('#line1')).toBe('Damrak 1B');
    expect(await value('#line2')).toBe('2nd floor');
    expect(await value('#postcode')).toBe('1012 LG');
    expect(await value('#city')).toBe('Amsterdam');
    expect(await page.locator('#country').inputValue()).toBe('NL');
  });

  it('selects with the mouse', async () => {
    await typeAndWaitForList('Damrak');
    await options().nth(1).hover();
    expect(await activeLabel()).toBe(SUGGESTIONS[1]?.label);
    await options().nth(1).click();
    expect(await value('#address')).toBe('Damrak 10, 1012 LK Amsterdam');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
  });
});

// Issue 27: the unit (flat, suite, door) survives the choice, lands in its field, and is asked for when the house needs one.
describe('units', () => {
  const triesen: FakeSuggestion = { id: 'svc_s_t', label: 'Landstrasse 340, 9495 Triesen', provider: 'local', address: { street: 'Landstrasse', houseNumber: '340', postcode: '9495', city: 'Triesen', country: 'LI' } };
  const baltimore: FakeSuggestion = {
    id: 'svc_s_b',
    label: '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231',
    provider: 'local',
    address: { street: 'Eastern Avenue', houseNumber: '1932', unit: 'Apt 3B', postcode: '21231', city: 'Baltimore', state: 'Maryland', country: 'US' },
  };
  const baader: FakeSuggestion = {
    id: 'svc_s_m',
    label: 'Baaderstraße 22, 80469 München',
    provider: 'local',
    address: { street: 'Baaderstraße', houseNumber: '22', postcode: '80469', city: 'München', country: 'DE' },
    action: 'add_unit',
  };
  const hint = () => page.locator('.svc-ac-hint');
  const selected = () => page.evaluate(() => (window as unknown as { selected: { unit?: string; action?: string }[] }).selected);
  const describedBy = (sel: string) =>
    page.locator(sel).evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' '));

  /** Types `typed` on the page at `path` (else the one open) where the service suggests `suggestions`, and takes the first. */
  async function choose(typed: string, suggestions: FakeSuggestion[], path?: string): Promise<void> {
    if (path) await page.goto(server.url(path));
    api.suggestions = suggestions;
    await typeAndWaitForList(typed);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
  }

  it('keeps the unit typed after the house, also where a word of the label starts like its number', async () => {
    await choose('Landstrasse 340 Top 3', [triesen]);
    expect(await value('#address')).toBe('Landstrasse 340 Top 3, 9495 Triesen');
    expect(await value('#house-number')).toBe('340');
    expect(await value('#line2')).toBe('Top 3');
    expect(await selected()).toEqual([expect.objectContaining({ unit: 'Top 3', extra: 'Top 3' })]);
  });

  it('fills the unit the service read into the unit field, and the street line without it', async () => {
    await choose('1932 Eastern Ave Apt 3B', [baltimore], '/checkout-unit');
    expect(await value('#unit')).toBe('Apt 3B');
    expect(await value('#line1')).toBe('1932 Eastern Avenue');
    expect(await value('#address')).toBe(baltimore.label);
    expect(await value('#postcode')).toBe('21231');
    expect(await hint().count()).toBe(0);
    expect(await selected()).toEqual([expect.objectContaining({ unit: 'Apt 3B', extra: '' })]);
  });

  it('asks for the unit where the house has several: focuses the unit field, described by a visible prompt, until one is typed', async () => {
    await choose('Baaderstraße 22', [baader], '/checkout-unit');
    expect(await value('#line1')).toBe('Baaderstraße 22');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('unit');
    await expect(hint().innerText()).resolves.toBe('This address has several flats or units: please add yours.');
    expect(await hint().isVisible()).toBe(true);
    expect(await describedBy('#unit')).toBe('This address has several flats or units: please add yours.');
    expect(await combobox().getAttribute('data-addressd-needs')).toBe('unit');
    expect(await selected()).toEqual([expect.objectContaining({ id: 'svc_s_m', action: 'add_unit' })]);
    expect(describeViolations(await runAxe(page))).toEqual([]);

    await page.keyboard.type('5');
    expect(await hint().count()).toBe(0);
    expect(await page.locator('#unit').getAttribute('aria-describedby')).toBeNull();
    expect(await combobox().getAttribute('data-addressd-needs')).toBeNull();
  });

  it('without a unit field, asks beside the search input and announces it', async () => {
    await choose('Baaderstraße 22', [baader], '/checkout-no-unit');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
    expect(await hint().isVisible()).toBe(true);
    expect(await describedBy('#address')).toBe('This address has several flats or units: please add yours.');
    await expect(page.locator('[role=status]').first().innerText()).resolves.toMatch(/^This address has several flats or units/);
    expect(describeViolations(await runAxe(page))).toEqual([]);
  });

  it('does not ask when the unit was typed', async () => {
    await choose('Baaderstraße 22 Whg. 5', [baader]);
    expect(await value('#line2')).toBe('Whg. 5');
    expect(await hint().count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
    expect(await selected()).toEqual([expect.objectContaining({ unit: 'Whg. 5', action: undefined })]);
  });

  it('does not ask when the unit field was filled in already, and leaves it as it is', async () => {
    await page.goto(server.url('/checkout-unit'));
    await page.locator('#unit').fill('Whg. 7');
    await choose('Baaderstraße 22', [baader]);
    expect(await value('#unit')).toBe('Whg. 7');
    expect(await hint().count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
    expect(await selected()).toEqual([expect.objectContaining({ id: 'svc_s_m', action: undefined })]);
  });
});

describe('talking to the service', () => {
  it('waits for the minimum characters and debounces typing into one request', async () => {
    await combobox().focus();
    await page.keyboard.type('Da');
    await page.waitForTimeout(400);
    expect(api.requests).toEqual([]);
    await page.keyboard.type('mrak 1');
    await waitForSettledList(page);
    expect(api.requests.map((r) => r.query)).toEqual(['Damrak 1']);
    expect(api.requests[0]?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('marks the list aria-busy from the keystroke until the answer for the new text is shown', async () => {
    const busy = () => page.locator('[role=listbox]').getAttribute('aria-busy');
    await typeAndWaitForList('Damrak');
    expect(await busy()).toBeNull();
    api.holdQueriesContaining = 'Damrak 1';
    await page.keyboard.type(' 1');
    // The earlier answer is still shown, marked as not yet the one for the text in the field.
    expect(await busy()).toBe('true');
    await expect.poll(() => api.requests.map((r) => r.query)).toEqual(['Damrak', 'Damrak 1']);
    expect(await busy()).toBe('true');
    api.holdQueriesContaining = null;
    api.release();
    await expect.poll(busy).toBeNull();
    // Now the options are the answer for "Damrak 1": its number is marked as matched.
    expect(await options().first().locator('mark').allTextContents()).toContain('1');
    // Given up counts as settled too: a failed lookup, and text cut below the minimum.
    api.mode = 'error';
    await page.keyboard.type('0');
    await expect.poll(() => api.requests.length).toBe(3);
    await expect.poll(busy).toBeNull();
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await busy()).toBe('true');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    expect(await busy()).toBeNull();
  });

  it('aborts a stale request and shows only the answer to the latest text', async () => {
    api.holdQueriesContaining = 'Damr';
    await combobox().focus();
    await page.keyboard.type('Damr');
    await expect.poll(() => api.requests.length).toBe(1);
    api.holdQueriesContaining = null;
    await page.keyboard.type('ak 10');
    await waitForSettledList(page);
    await expect.poll(() => api.aborted).toEqual(['Damr']);
    expect(api.requests.map((r) => r.query)).toEqual(['Damr', 'Damrak 10']);
  });

  it('aborts the request for the old text at the next keystroke, so its answer can never show', async () => {
    await page.goto(server.url('/checkout-slow'));
    api.holdQueriesContaining = 'Damr';
    await combobox().focus();
    await page.keyboard.type('Damr');
    await expect.poll(() => api.requests.length, { timeout: 5000 }).toBe(1);
    await page.keyboard.type('a');
    // Aborted at once, not when the next request goes out 1.5 s later.
    await expect.poll(() => api.aborted).toEqual(['Damr']);
    expect(api.requests).toHaveLength(1);
    api.release();
    await page.waitForTimeout(300);
    expect(await options().count()).toBe(0);
    expect(await expanded()).toBe('false');
  });

  it('sends nothing for text left behind: Tab before the debounce ends cancels the lookup', async () => {
    await combobox().focus();
    await page.keyboard.type('Damrak');
    await page.keyboard.press('Tab');
    await page.waitForTimeout(600);
    expect(api.requests).toEqual([]);
    expect(await expanded()).toBe('false');
  });

  it('uses one sessionToken per focus session', async () => {
    await typeAndWaitForList('Damrak');
    await page.keyboard.type(' 1');
    await expect.poll(() => api.requests.length).toBe(2);
    await page.locator('#street').focus();
    await combobox().focus();
    await page.keyboard.type('0');
    await expect.poll(() => api.requests.length).toBe(3);
    const [a, b, c] = api.requests.map((r) => r.sessionToken);
    expect(a).toMatch(/^[\w-]{1,64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it.each(['rate-limited', 'error', 'garbage'] as const)('shows nothing broken when the service answers %s', async (mode) => {
    api.mode = mode;
    await combobox().focus();
    await page.keyboard.type('Damrak');
    await expect.poll(() => api.requests.length).toBe(1);
    await page.waitForTimeout(300);
    expect(await expanded()).toBe('false');
    expect(await options().count()).toBe(0);
    expect(await value('#address')).toBe('Damrak');
    // Only the browser's own network line may appear; the widget throws and logs nothing.
    expect(consoleLog.errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('stays a plain input, without any request, when its origin is not allowed', async () => {
    api.allowed = false;
    await combobox().focus();
    await page.keyboard.type('Damrak 1');
    await page.waitForTimeout(500);
    expect(api.requests).toEqual([]);
    expect(await options().count()).toBe(0);
    expect(consoleLog.errors).toEqual([]);
    expect(consoleLog.warnings).toEqual([expect.stringContaining('not on this publishable token')]);
  });
});

describe('when the service cannot be asked', () => {
  it('does not claim the origin is refused, and works once the service is back', async () => {
    api.accessStatus = 503;
    await combobox().focus();
    await page.keyboard.type('Damrak');
    await page.waitForTimeout(500);
    expect(api.requests).toEqual([]);
    expect(await options().count()).toBe(0);
    expect(consoleLog.warnings.filter((w) => w.includes('allowlist'))).toEqual([]);
    api.accessStatus = 200;
    await page.locator('#street').focus();
    await combobox().focus();
    await page.keyboard.type(' 1');
    await waitForSettledList(page);
    expect(api.requests.map((r) => r.query)).toEqual(['Damrak 1']);
  });
});

describe('touch', () => {
  it('selects an address with a tap', async () => {
    const touch = await launchBrowser({ hasTouch: true });
    try {
      const p = await touch.newPage();
      await p.goto(server.url('/checkout'));
      await p.locator('#address').tap();
      await p.keyboard.type('Damrak');
      await p.locator('[role=option]').nth(1).tap();
      expect(await p.locator('#address').inputValue()).toBe('Damrak 10, 1012 LK Amsterdam');
      expect(await p.locator('#house-number').inputValue()).toBe('10');
    } finally {
      await touch.close();
    }
  });
});
