import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { openLookupDeps } from '../../../src/cli/bulk/lookup-deps.js';
import type { LookupDeps } from '../../../src/cli/bulk/row-lookup.js';
import { runCli } from '../../../src/cli/program.js';
import { loadConfig } from '../../../src/config.js';
import { systemClock } from '../../../src/lib/clock.js';
import { importArgs, writeDamrakMonth } from '../../local-index/support/damrak-files.js';
import { createSandbox, type Sandbox } from '../../support/backends.js';

/** A list's caller and a chunk grant with credits enough, for `lookupRows`. */
export const LIST_CALLER = { accountId: 'acc_list', source: 'list.csv', thresholds: { valid: 80, correctable: 50 } };
export const OPEN_GRANT = { reservation: null, open: true, short: false, plan: 'growth', quota: 1000 };

/**
 * A lookup thread's dependencies over a SQLite index of the Damrak files (`local` only), for the
 * describe block it is called in: the index is imported before its tests, and every `open()`ed
 * set of dependencies is closed after them.
 */
export function damrakLookups(prefix: string): { open: () => Promise<LookupDeps> } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  let sandbox: Sandbox;
  const opened: (LookupDeps & { close(): Promise<void> })[] = [];
  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    expect(await runCli(importArgs(writeDamrakMonth(scratch).before), { stdout: () => undefined, stderr: () => undefined, env: sandbox.env })).toBe(0);
  });
  afterAll(async () => {
    for (const deps of opened) await deps.close();
    await sandbox?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });
  return {
    open: async () => {
      const deps = await openLookupDeps(loadConfig({ ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' }), systemClock);
      opened.push(deps);
      return deps;
    },
  };
}
