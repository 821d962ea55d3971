import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleLog, launchBrowser, recordConsole, type TestBrowser } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Operation {
  method: string;
  path: string;
  summary: string;
}

const SPEC_ENDPOINTS = [
  'GET /healthz',
  'GET /readyz',
  'GET /v1/usage',
  'OPTIONS /v1/widget/autocomplete',
  'OPTIONS /v1/widget/reverse',
  'POST /demo/validate',
  'POST /v1/autocomplete',
  'POST /v1/reverse',
  'POST /v1/validate',
  'POST /v1/validate/batch',
  'POST /v1/validate/feedback',
  'POST /v1/widget/autocomplete',
  'POST /v1/widget/reverse',
];

/** Redoc's section id for an operation without operationId: the JSON pointer of its path. */
const sectionId = (tag: string, op: Operation) => `tag/${tag}/paths/${op.path.replaceAll('/', '~1')}/${op.method}`;

describe('API reference /docs', () => {
  let server: TestServer;
  let browser: TestBrowser;
  let page: Page;
  let log: ConsoleLog;
  let operations: (Operation & { tag: string })[];
  const outside: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_BASE_URL: 'https://addressd.example' } });
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method, path, summary: op.summary, tag: op.tags[0]! })),
    );
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    log = recordConsole(page);
    page.on('request', (r) => {
      if (!r.url().startsWith(`${server.url}/`) && !r.url().startsWith(`blob:${server.url}/`)) outside.push(r.url());
    });
    await page.goto(`${server.url}/docs`);
    await page.locator('#redoc[data-ready]').waitFor({ timeout: 20_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders every endpoint of /openapi.json with its method, path and summary', async () => {
    // Every endpoint SPEC lists is in the document, so rendering the document shows them all.
    expect(operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort()).toEqual(SPEC_ENDPOINTS);
    for (const op of operations) {
      const section = page.locator(`[data-section-id="${sectionId(op.tag, op)}"]`);
      await expect(section.count(), `${op.method} ${op.path}`).resolves.toBe(1);
      const text = await section.innerText();
      expect(text).toContain(op.summary);
      expect(text).toContain(op.path);
      expect(text.toUpperCase()).toContain(op.method.toUpperCase());
    }
  });

  it('shows a curl request example for every endpoint', async () => {
    for (const op of operations) {
      const section = page.locator(`[data-section-id="${sectionId(op.tag, op)}"]`);
      await section.getByRole('tab', { name: 'curl', exact: true }).click();
      const sample = await section.locator('[role="tabpanel"]').filter({ hasText: 'curl' }).first().innerText();
      expect(sample).toContain(`https://addressd.example${op.path}`);
      if (op.method !== 'get') expect(sample).toContain(`-X ${op.method.toUpperCase()}`);
    }
  });

  it('loads the renderer and the document from the service itself, without errors', () => {
    expect(outside).toEqual([]);
    expect(log.errors).toEqual([]);
  });
});
