import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { pageCertificate } from './https-page-server.js';

/** Debian's package; `.ci/run` installs it when missing. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Headless Debian Chromium through playwright-core. Trusts exactly the test certificate of
 * https-page-server (by its key hash), so pages on https://127.0.0.1:<port> are real secure contexts.
 */
export async function launchBrowser(options: { colorScheme?: 'light' | 'dark'; hasTouch?: boolean } = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install chromium (.ci/run does it)`);
  const { spki } = await pageCertificate();
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    colorScheme: options.colorScheme ?? 'light',
    hasTouch: options.hasTouch ?? false,
    viewport: { width: 800, height: 600 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      `--ignore-certificate-errors-spki-list=${spki}`,
    ],
  });
  return {
    context,
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface ConsoleLog {
  /** console.error calls, uncaught exceptions and errors Chromium itself logs (CORS, failed loads). */
  errors: string[];
  warnings: string[];
}

/** Starts recording a page's console; read the arrays after the interaction. */
export function recordConsole(page: Page): ConsoleLog {
  const log: ConsoleLog = { errors: [], warnings: [] };
  page.on('console', (m) => {
    const where = m.location().url ? ` (${m.location().url})` : '';
    if (m.type() === 'error') log.errors.push(`${m.text()}${where}`);
    if (m.type() === 'warning') log.warnings.push(`${m.text()}${where}`);
  });
  page.on('pageerror', (e) => log.errors.push(`uncaught: ${e.message}`));
  return log;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page (WCAG 2.x A/AA and best practices by default) and returns its results. */
export async function runAxe(page: Page, options: RunOptions = {}): Promise<AxeResults> {
  await page.evaluate(axeSource);
  const run: RunOptions = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, ...options };
  return page.evaluate((opts) => (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<AxeResults> } }).axe.run(document, opts), run);
}

/** One line per violation, for readable assertion failures. */
export const describeViolations = (results: AxeResults): string[] =>
  results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
