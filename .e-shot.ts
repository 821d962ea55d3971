import { startTestServer } from './test/support/server.ts';
import { launchBrowser, recordConsole } from './test/support/browser.ts';
const s = await startTestServer();
const b = await launchBrowser({ colorScheme: (process.argv[2] as 'dark') ?? 'light' });
try {
  const page = await b.newPage();
  const log = recordConsole(page);
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(s.url + '/');
  await page.screenshot({ path: '/tmp/e-home.png', fullPage: true });
  for (const [i, q] of ['Damrak 1, 1012 LG Amsterdam', 'Prinsengracht 263, Amsterdm', 'Kalverstraat 999, Amsterdam'].entries()) {
    await page.click(`button[data-sample="${q}"]`);
    await page.waitForSelector('#demo-result article');
    await page.locator('#demo-result').screenshot({ path: `/tmp/e-result${i}.png` });
  }
  await page.goto(s.url + '/docs');
  await page.waitForSelector('#redoc[data-ready]', { timeout: 20000 });
  await page.screenshot({ path: '/tmp/e-docs.png' });
  console.log(log, [...new Set(urls)]);
} finally { await b.close(); await s.close(); }
