import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ValidateResponse } from '../../src/contract/validate.js';
import { describeViolations, launchBrowser, recordConsole, runAxe, type TestBrowser } from '../support/browser.js';
import { serveHttps } from '../support/https-app-server.js';
import { startTestServer, type TestServer } from '../support/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(tmpdir(), 'console-screenshots');

/** A console session without the sign-up form (its scrypt hash is another test's subject). */
async function sessionFor(service: TestServer, accountId: string, role: 'owner' | 'member'): Promise<string> {
  const person = await service.services.people.insert(`${role}-${accountId}@shop.example`, 'scrypt$17$8$1$x$y');
  await service.services.people.addMembership(person.id, accountId, role);
  return (await service.services.sessions.create(person.id, accountId)).id;
}

/** Issue 29 item 3: the console's usage page draws acceptance per verdict and per day, and shows owners the index gaps. */
describe('feedback on the console usage page (Chromium)', () => {
  let service: TestServer;
  let https: { origin: string; close(): Promise<void> };
  let browser: TestBrowser;
  let page: Page;
  let accountId: string;
  let key: string;

  async function answerAndConclude(query: string, conclusion: string): Promise<void> {
    const auth = { authorization: `Bearer ${key}` };
    const { responseId } = ValidateResponse.parse(await (await service.post('/v1/validate', { query, country: 'NL' }, auth)).json());
    expect((await service.post('/v1/validate/feedback', { responseId, conclusion }, auth)).status).toBe(204);
  }

  beforeAll(async () => {
    service = await startTestServer({ providers: 'pdok' });
    https = await serveHttps(service.app);
    browser = await launchBrowser();
    page = await browser.newPage();
    ({ accountId, key } = await service.createAccount({ plan: 'starter' }));
    // Correctable (a typo corrected): accepted twice, overridden once. Invalid (no such number): overridden twice, abandoned once.
    await answerAndConclude('Damrk 1, 1012 LG Amsterdam', 'validated_used');
    await answerAndConclude('Damrk 1, 1012 LG Amsterdam', 'validated_used');
    await answerAndConclude('Damrk 1, 1012 LG Amsterdam', 'user_used');
    await answerAndConclude('Damrak 999, 1012 LG Amsterdam', 'user_used');
    await answerAndConclude('Damrak 999, 1012 LG Amsterdam', 'user_used');
    await answerAndConclude('Damrak 999, 1012 LG Amsterdam', 'unused');
    await answerAndConclude('Damrak 1, 1012 LG Amsterdam', 'validated_used');
  });
  afterAll(async () => {
    await browser?.close();
    await https?.close();
    await service?.close();
  });

  it("draws today's acceptance per verdict, states the two rates, lists the gap for the owner, and passes axe", async () => {
    const session = await sessionFor(service, accountId, 'owner');
    await browser.context.addCookies([{ name: '__Host-addressd_session', value: session, url: https.origin }]);
    const log = recordConsole(page);
    await page.goto(`${https.origin}/dashboard/usage`);

    expect(await page.locator('#accepted-corrections').textContent()).toBe('2 of 3 (67 %)');
    expect(await page.locator('#overridden-invalid').textContent()).toBe('2 of 3 (67 %)');
    const chart = page.locator('svg.acceptance-chart');
    expect(await chart.getAttribute('aria-label')).toContain('2 of 3 correctable answers accepted as corrected, 2 of 3 invalid answers overridden');
    const today = page.locator('svg.acceptance-chart g.feedback-day').last();
    const cell = (verdict: string) => today.locator(`g.cell[data-verdict="${verdict}"]`);
    expect(await cell('correctable').getAttribute('data-validated-used')).toBe('2');
    expect(await cell('invalid').getAttribute('data-user-used')).toBe('2');
    expect(await cell('valid').getAttribute('data-total')).toBe('1');
    // Drawn: the invalid bar's segments are really there, taller for 2 than for 1.
    const heights = await cell('invalid').locator('rect').evaluateAll((rects) => rects.map((r) => (r as SVGRectElement).getBBox().height));
    expect(heights).toHaveLength(2);
    expect(heights[0]!).toBeGreaterThan(heights[1]!);
    expect(heights[1]!).toBeGreaterThan(0);

    const gaps = page.locator('table.gaps tbody tr');
    expect(await gaps.count()).toBe(1);
    expect(await gaps.first().locator('td').allTextContents()).toEqual(['2', 'no such number', 'Damrak 999, 1012 LG Amsterdam, NL', 'Damrak, 1012 LG Amsterdam, NL', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)]);

    mkdirSync(SHOTS, { recursive: true });
    await page.locator('#feedback').screenshot({ path: join(SHOTS, 'usage-feedback.png') });
    const results = await runAxe(page);
    expect(describeViolations(results)).toEqual([]);
    expect(log.errors).toEqual([]);
  });

  it('shows a member the acceptance but not the addresses of the gaps', async () => {
    const session = await sessionFor(service, accountId, 'member');
    const res = await fetch(`${service.url}/dashboard/usage`, { headers: { cookie: `addressd_session=${session}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('id="accepted-corrections"');
    expect(html).not.toContain('id="gaps"');
    expect(html).not.toContain('no such number');
  });
});
