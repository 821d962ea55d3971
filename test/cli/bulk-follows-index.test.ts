import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLookupDeps } from '../../src/cli/bulk/lookup-deps.js';
import { Repeats } from '../../src/cli/bulk/repeats.js';
import { lookupRows, type LookupDeps } from '../../src/cli/bulk/row-lookup.js';
import { runCli } from '../../src/cli/program.js';
import { loadConfig } from '../../src/config.js';
import { systemClock } from '../../src/lib/clock.js';
import { importArgs, writeDamrakMonth } from '../local-index/support/damrak-files.js';
import { createSandbox, STORAGE_BACKENDS, type Sandbox } from '../support/backends.js';
import { waitFor } from '../support/wait-for.js';

const scratch = mkdtempSync(join(tmpdir(), 'bulk-follow-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const files = writeDamrakMonth(scratch);

/** Issue 28 item 1: a list run's own cache (no Redis) and its repeats follow an import made while it runs. */
describe.each(STORAGE_BACKENDS)('a list run across an import (%s)', (backend) => {
  let sandbox: Sandbox;
  let deps: LookupDeps & { close(): Promise<void> };
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
    expect(await runCli(importArgs(files.before), { stdout: () => undefined, stderr: () => undefined, env: sandbox.env })).toBe(0);
    deps = await openLookupDeps(loadConfig({ ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' }), systemClock);
  });
  afterEach(async () => {
    await deps?.close();
    await sandbox?.cleanup();
  });

  const caller = { accountId: 'acc_list', source: 'list.csv', thresholds: { valid: 80, correctable: 50 } };
  const grant = { reservation: null, open: true, short: false, plan: 'growth', quota: 1000 };
  const request = { query: 'Damrak 120, 1012 LG Amsterdam', country: 'NL' };
  /** One row through the run's engine and cache: its verdict, and whether it was a cache hit. */
  const row = async () => {
    const { done } = await lookupRows(deps, caller, { rows: [{ index: 0, request }], grant, credits: 10 }, 1, () => false);
    return { verdict: done[0]!.fields[0], cached: done[0]!.charge.event.cached };
  };
  const generation = () => deps.runner.dataGenerations(deps.runner.eligible('geocode', 'NL'), 'NL');

  it('answers from the new data once the import commits: neither its cache nor its repeats keep the old answer', async () => {
    const repeats = new Repeats(deps.runner);
    expect(await row()).toEqual({ verdict: 'invalid', cached: false });
    expect(await row()).toEqual({ verdict: 'invalid', cached: true });
    const keyBefore = repeats.key(request);
    const was = generation();

    expect(await runCli(importArgs(files.after), { stdout: () => undefined, stderr: () => undefined, env: sandbox.env })).toBe(0);
    // PostgreSQL: the commit's NOTIFY reaches the run's listening connection a moment later.
    await waitFor(() => JSON.stringify(generation()) !== JSON.stringify(was), 'the run to see the import');
    expect(await row()).toEqual({ verdict: 'valid', cached: false });
    expect(repeats.key(request)).not.toBe(keyBefore);
  });
});
