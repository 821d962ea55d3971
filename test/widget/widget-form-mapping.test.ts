import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../../scripts/build-widget.js';
import { launchBrowser, recordConsole, type ConsoleLog, type TestBrowser } from '../support/browser.js';
import { startHttpsPageServer, type HttpsPageServer } from '../support/https-page-server.js';
import { checkoutPage } from './checkout-page.js';
import { typeAndWaitForList } from './settled-list.js';
import { installFakeWidgetApi } from './fake-widget-api.js';

// Issue 36: which fields of a real checkout form the widget finds, and what it says when it finds none.
const TOKEN = 'svc_pk_test_formmappingformmapping000000';
let dir: string;
let browser: TestBrowser;
let server: HttpsPageServer;
let page: Page;
let log: ConsoleLog;

/** A form as shops write it: the search box as the widget's README shows it, the fields with their own autocomplete tokens. */
function formPage(fields: string, script = `<script src="/widget/v1/widget.js" data-token="${TOKEN}" data-input="#address" defer></script>`): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body><main>
<form id="checkout">
  <label for="address">Find your address</label><input id="address" autocomplete="off">
  ${fields}
</form>
<script>
  window.selected = [];
  document.getElementById('address').addEventListener('select', (e) => { if (e.detail) window.selected.push(e.detail); });
</script>
${script}
</main></body></html>`;
}

/** The shipping (or billing) block of a form, each field with `<prefix> <token>`. */
const block = (prefix: string, id: string) => `<fieldset><legend>${prefix || 'Address'}</legend>
  <label for="${id}-line1">Street and number</label><input id="${id}-line1" autocomplete="${prefix} address-line1">
  <label for="${id}-line2">Apartment</label><input id="${id}-line2" autocomplete="${prefix} address-line2">
  <label for="${id}-postcode">Postcode</label><input id="${id}-postcode" autocomplete="${prefix} postal-code">
  <label for="${id}-city">City</label><input id="${id}-city" autocomplete="${prefix} address-level2">
  <label for="${id}-country">Country</label><select id="${id}-country" autocomplete="${prefix} country"><option value="">Choose…</option><option value="NL">Netherlands</option></select>
</fieldset>`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'widget-form-mapping-'));
  await buildWidget(dir);
  server = await startHttpsPageServer();
  installFakeWidgetApi(server, dir);
  server.page('/shipping', formPage(block('shipping', 'ship')));
  server.page('/two-addresses', formPage(`${block('shipping', 'ship')}${block('billing', 'bill')}`));
  server.page(
    '/unmappable',
    formPage(`<label for="street">Street</label><input id="street" name="street"><label for="zip">Postcode</label><input id="zip" name="zip">`),
  );
  server.page(
    '/bad-mapping',
    formPage(
      `<label for="street">Street</label><input id="street" name="street">${block('', 'plain')}`,
      `<script src="/widget/v1/widget.js" data-token="${TOKEN}" data-input="#address" data-fields='{"street":"#strete"}' defer></script>`,
    ),
  );
  server.page(
    '/auto-fields-off',
    formPage(block('shipping', 'ship'), `<script src="/widget/v1/widget.js" data-token="${TOKEN}" data-input="#address" data-auto-fields="false" defer></script>`),
  );
  server.page('/checkout', checkoutPage({ scriptSrc: server.url('/widget/v1/widget.js'), token: TOKEN }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => page?.close());

async function open(path: string): Promise<void> {
  page = await browser.newPage();
  log = recordConsole(page);
  await page.goto(server.url(path));
  await page.waitForFunction(() => document.getElementById('address')?.getAttribute('role') === 'combobox');
}

async function chooseDamrak1(): Promise<void> {
  await typeAndWaitForList(page, 'Damrak 1');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

const values = (ids: string[]) => page.evaluate((list) => list.map((id) => (document.getElementById(id) as HTMLInputElement).value), ids);
const widgetWarnings = () => log.warnings.filter((w) => w.startsWith('[address widget]'));

describe('the section comes from the form when the search input has none', () => {
  it('fills `shipping address-line1` and the other shipping fields from a search input with autocomplete="off"', async () => {
    await open('/shipping');
    await chooseDamrak1();
    expect(await values(['ship-line1', 'ship-postcode', 'ship-city', 'ship-country'])).toEqual(['Damrak 1', '1012 LG', 'Amsterdam', 'NL']);
    expect(widgetWarnings()).toEqual([]);
  });

  it('fills the shipping address below the search box and leaves the billing address alone', async () => {
    await open('/two-addresses');
    await chooseDamrak1();
    expect(await values(['ship-line1', 'ship-postcode', 'ship-city', 'ship-country'])).toEqual(['Damrak 1', '1012 LG', 'Amsterdam', 'NL']);
    expect(await values(['bill-line1', 'bill-postcode', 'bill-city', 'bill-country'])).toEqual(['', '', '', '']);
    expect(widgetWarnings()).toEqual([]);
  });
});

describe('a form the widget cannot map', () => {
  it('logs one warning naming the fields it looked for, and still fires select', async () => {
    await open('/unmappable');
    await chooseDamrak1();
    const warnings = widgetWarnings();
    expect(warnings).toHaveLength(1);
    for (const looked of ['fields option', 'autocomplete="address-line1"', 'autocomplete="postal-code"', 'autocomplete="address-level2"', 'data-addressd-field']) {
      expect(warnings[0]).toContain(looked);
    }
    expect(await values(['street', 'zip'])).toEqual(['', '']);
    expect(await page.evaluate(() => (window as unknown as { selected: { value: string }[] }).selected.map((s) => s.value))).toEqual([
      'Damrak 1, 1012 LG Amsterdam',
    ]);
  });

  it('names a mapped selector that matches nothing, once, and fills what it did find', async () => {
    await open('/bad-mapping');
    await chooseDamrak1();
    expect(widgetWarnings()).toEqual([expect.stringContaining('street: #strete')]);
    expect(await values(['plain-line1', 'plain-postcode'])).toEqual(['Damrak 1', '1012 LG']);
  });

  it('says that only the fields option was looked at when autoFields is off', async () => {
    await open('/auto-fields-off');
    await chooseDamrak1();
    expect(widgetWarnings()).toEqual([expect.stringContaining('looked for the fields option (autoFields is off)')]);
    expect(await values(['ship-line1', 'ship-postcode'])).toEqual(['', '']);
  });

  it('says nothing on a form it maps', async () => {
    await open('/checkout');
    await chooseDamrak1();
    expect(await values(['street', 'postcode'])).toEqual(['Damrak', '1012 LG']);
    expect(log.warnings).toEqual([]);
  });
});
