import { inspectInput, readRows } from '../src/cli/bulk/input.js';
import { resolveMapping, rowRequest } from '../src/cli/bulk/mapping.js';
import { loadConfig } from '../src/config.js';
import type { ValidateRequest } from '../src/contract/validate.js';
import { mapBounded } from '../src/lib/bounded.js';
import { createLogger } from '../src/lib/logger.js';
import { createServices } from '../src/services.js';

/**
 * The "before" of bench/cli-validate.ts: FILE's rows through the API's engine and billing as they
 * are (a quota check, a reservation transaction and a settle transaction per row), 8 at a time,
 * as `addressd validate` did before it billed in chunks. Prints {rows, seconds}.
 */
const [file, accountId] = process.argv.slice(2);
if (!file || !accountId) throw new Error('usage: cli-validate-baseline.ts FILE ACCOUNT_ID');
const services = await createServices(loadConfig(), { logger: createLogger('silent') });
try {
  const input = await inspectInput(file);
  const mapping = resolveMapping(input.columns, file);
  const requests: ValidateRequest[] = [];
  for await (const row of readRows(input)) {
    const made = rowRequest(input.columns, row, mapping, 'NL');
    if (made.ok) requests.push(made.request);
  }
  const account = await services.accounts.get(accountId);
  const t = performance.now();
  await mapBounded(requests, 8, (request) =>
    services.validate.validate(request, {
      accountId,
      credentialId: 'bench',
      env: 'live',
      endpoint: 'bench per-row',
      source: 'bench',
      startedAt: services.clock.now(),
      thresholds: account.thresholds,
    }),
  );
  process.stdout.write(`${JSON.stringify({ rows: requests.length, seconds: (performance.now() - t) / 1000 })}\n`);
} finally {
  await services.close();
}
