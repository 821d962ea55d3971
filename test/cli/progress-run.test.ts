import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BulkLedger } from '../../src/billing/bulk-ledger.js';
import { runCli } from '../../src/cli/program.js';
import { systemClock } from '../../src/lib/clock.js';
import { openDatabase } from '../../src/store/db/database.js';
import { startPdokEmulator, type Emulator } from '../emulators/index.js';
import { createSandbox, type Sandbox } from '../support/backends.js';
import { waitFor } from '../support/wait-for.js';

const FIXTURE = path.resolve('test/fixtures/import/amsterdam.oa.csv');

/**
 * The bar of `addressd validate` as a person sees it: stderr made a terminal for the run, its
 * drawing and the command's notes collected in the order they were written.
 */
function watchTerminal() {
  const stderr = process.stderr as NodeJS.WriteStream;
  const saved = { isTTY: stderr.isTTY, columns: stderr.columns, write: stderr.write, cursorTo: stderr.cursorTo, clearLine: stderr.clearLine, moveCursor: stderr.moveCursor };
  const screen: string[] = [];
  Object.assign(stderr, {
    isTTY: true,
    columns: 200,
    cursorTo: () => (screen.push('<cursorTo>'), true),
    clearLine: () => true,
    moveCursor: () => true,
    write: (chunk: string | Uint8Array) => (screen.push(chunk.toString()), true),
  });
  return {
    screen,
    note: (text: string) => void screen.push(text),
    restore: () => Object.assign(stderr, saved),
  };
}

async function cli(env: Record<string, string>, args: string[], note: (t: string) => void) {
  let stdout = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: note, env });
  return { code, stdout };
}

describe('the progress bar of a run of addressd validate', () => {
  let sandbox: Sandbox;
  let pdok: Emulator;
  let terminal: ReturnType<typeof watchTerminal> | undefined;
  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    pdok = await startPdokEmulator();
  });
  afterEach(() => {
    terminal?.restore();
    terminal = undefined;
  });
  afterAll(async () => {
    await pdok?.close();
    await sandbox?.cleanup();
  });

  it('after --resume counts the rows done before once: it ends at rows/rows, never beyond', async () => {
    const env = { ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' };
    const quiet = () => undefined;
    expect((await cli(env, ['import', FIXTURE, '--country', 'NL'], quiet)).code).toBe(0);
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'], quiet)).stdout).id as string;
    const input = path.join(sandbox.dataDir, 'resume.csv');
    writeFileSync(input, 'address\nDamrak 1 Amsterdam\nDamrak 2 Amsterdam\nDamrak 3 Amsterdam\nDamrak 4 Amsterdam\nDam 1 Amsterdam\n');
    const out = path.join(sandbox.dataDir, 'resume.validated.csv');
    // An interrupted run: three rows done and paid (receipt in the database), two to go.
    const database = await openDatabase({ dataDir: sandbox.dataDir });
    try {
      const ledger = new BulkLedger(database, systemClock);
      const paid = await ledger.reserve(accountId, 3);
      const event = { accountId, credentialId: 'cli', env: 'live', endpoint: 'cli validate', verdict: 'valid', provider: 'local', latencyMs: 1, cached: false, query: 'q', source: 'cli' };
      await ledger.settleChunk(accountId, paid, [1, 2, 3].map(() => ({ credits: 1, event })), 'blk_done');
    } finally {
      await database.close();
    }
    const meta = { t: 'run', input, bytes: statSync(input).size, rows: 5, columns: ['address'], mapping: { query: 'address' }, country: null, account: accountId, source: 'cli' };
    const fields = ['valid', '100', '', 'Damrak', '1', '1012 LG', 'Amsterdam', '', 'NL', '52', '4', 'local', '', 'yes'];
    writeFileSync(
      `${out}.journal`,
      [meta, { t: 'chunk', id: 'blk_done', credits: 3, rows: [[0, fields], [1, fields], [2, fields]] }, { t: 'settled', id: 'blk_done' }].map((l) => JSON.stringify(l)).join('\n') + '\n',
    );

    terminal = watchTerminal();
    const res = await cli(env, ['validate', input, '--account', accountId, '--resume', '--workers', '0'], terminal.note);
    terminal.restore();
    expect(res.code).toBe(0);
    const drawn = terminal.screen.join('');
    const counts = [...drawn.matchAll(/(\d+)% \| (\d+)\/5 rows/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(counts[0]).toEqual([60, 3]);
    expect(counts.at(-1)).toEqual([100, 5]);
    expect(Math.max(...counts.map(([, rows]) => rows!))).toBe(5);
  });

  it('on Ctrl-C ends the bar on its own line before the note, and draws nothing after it', async () => {
    const env = { ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, LOG_LEVEL: 'silent', PROVIDER_TIMEOUT_MS: '10000' };
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'], () => undefined)).stdout).id as string;
    const input = path.join(sandbox.dataDir, 'stop.csv');
    writeFileSync(input, `address\n${Array.from({ length: 30 }, (_, i) => `Teststraat ${i + 1} Amsterdam`).join('\n')}\n`);
    const journal = path.join(sandbox.dataDir, 'stop.validated.csv.journal');
    pdok.setFault({ mode: 'slow', delayMs: 300 });
    const before = new Set(process.listeners('SIGINT'));
    terminal = watchTerminal();
    const run = cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--chunk', '4', '--concurrency', '2', '--workers', '0'], terminal.note);
    await waitFor(() => existsSync(journal) && readFileSync(journal, 'utf8').includes('"t":"settled"'), 'a settled chunk', 60_000);
    // The command's own SIGINT handler (calling it is what Ctrl-C does; emitting SIGINT would reach the test runner's too).
    const handler = process.listeners('SIGINT').find((l) => !before.has(l));
    expect(handler).toBeDefined();
    (handler as () => void)();
    const res = await run;
    terminal.restore();
    pdok.setFault({ mode: 'none' });
    expect(res.code).toBe(130);
    const screen = terminal.screen.join('');
    const note = screen.indexOf('stopping: finishing the rows in flight');
    expect(note).toBeGreaterThan(0);
    // The bar's line is ended before the note, and after the note the bar is never drawn again
    // (no redraw, no cursor jump back above the note that the summary would then overwrite).
    expect(screen.slice(0, note)).toMatch(/rows\/s \| ETA [^\n]*\n(\u001b\[\?25h)?$/);
    const after = screen.slice(note);
    expect(after).not.toContain('validating [');
    expect(after).not.toContain('\u001b8');
    expect(terminal.screen.slice(terminal.screen.findIndex((s) => s.includes('stopping:')) + 1)).not.toContain('<cursorTo>');
  }, 120_000);
});
