import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLookupDeps } from '../../src/cli/bulk/lookup-deps.js';
import { lookupRows, type LookupDeps, type RowJob } from '../../src/cli/bulk/row-lookup.js';
import { runCli } from '../../src/cli/program.js';
import { loadConfig } from '../../src/config.js';
import { systemClock } from '../../src/lib/clock.js';
import { importArgs, writeDamrakMonth } from '../local-index/support/damrak-files.js';
import { createSandbox, type Sandbox } from '../support/backends.js';

/**
 * Lookup threads that share a chunk (`LookupBatch.shared`, `local` on SQLite) take its rows a few
 * at a time: together they answer every row once, as one thread running them all answers it.
 */
describe('rows of a chunk shared by lookup threads', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'shared-rows-'));
  let sandbox: Sandbox;
  const opened: (LookupDeps & { close(): Promise<void> })[] = [];
  const open = async () => {
    const deps = await openLookupDeps(loadConfig({ ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' }), systemClock);
    opened.push(deps);
    return deps;
  };
  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    expect(await runCli(importArgs(writeDamrakMonth(scratch).before), { stdout: () => undefined, stderr: () => undefined, env: sandbox.env })).toBe(0);
  });
  afterAll(async () => {
    for (const deps of opened) await deps.close();
    await sandbox?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  const caller = { accountId: 'acc_list', source: 'list.csv', thresholds: { valid: 80, correctable: 50 } };
  const grant = { reservation: null, open: true, short: false, plan: 'growth', quota: 1000 };
  // Numbers the street has and some it lacks, written a few ways: valid, correctable and invalid rows.
  const rows: RowJob[] = Array.from({ length: 41 }, (_, index) => {
    const n = (index % 8) + 1;
    const text = [`Damrak ${n}, 1012 LG Amsterdam`, `damrak ${n} amsterdam`, `Damrka ${n}, 1012 LG`][index % 3]!;
    return { index, request: { query: `${text}${index >= 24 ? ` (${index})` : ''}`, country: 'NL' } };
  });

  it('answers every row exactly once between the threads, each as one thread alone answers it', async () => {
    const alone = await lookupRows(await open(), caller, { rows, grant, credits: 1000 }, 8, () => false);
    expect(alone.done.map((d) => d.index).sort((a, b) => a - b)).toEqual(rows.map((r) => r.index));

    const shared = { next: new SharedArrayBuffer(4), group: 3 };
    const [a, b] = [await open(), await open()];
    const outcomes = await Promise.all([a, b].map((deps) => lookupRows(deps, caller, { rows, grant, credits: 1000, shared }, 8, () => false)));
    const done = outcomes.flatMap((o) => o.done);
    expect(done.map((d) => d.index).sort((x, y) => x - y)).toEqual(rows.map((r) => r.index));
    const byIndex = new Map(alone.done.map((d) => [d.index, d.fields]));
    for (const d of done) expect(d.fields, rows[d.index]!.request.query).toEqual(byIndex.get(d.index));
    expect(new Set(done.map((d) => d.fields[0]))).toEqual(new Set(['valid', 'correctable', 'invalid']));
  });

  it('leaves every row to the other threads when one is asked to stop before it took any', async () => {
    const shared = { next: new SharedArrayBuffer(4), group: 4 };
    const stopped = await lookupRows(await open(), caller, { rows, grant, credits: 1000, shared }, 8, () => true);
    expect(stopped.done).toEqual([]);
    const rest = await lookupRows(await open(), caller, { rows, grant, credits: 1000, shared }, 8, () => false);
    expect(rest.done.map((d) => d.index).sort((x, y) => x - y)).toEqual(rows.map((r) => r.index));
  });
});
