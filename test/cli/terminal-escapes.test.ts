import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { terminalJson, terminalLine } from '../../src/cli/terminal-text.js';
import { GapStore } from '../../src/feedback/gap-store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 36: stored and imported text reaches the operator's terminal through every CLI text
 * output (gaps, the import's bad-row list, account and key lists, index status, errors). None of
 * it may act on the terminal: every control character, C1 control and bidi override is printed
 * escaped (`\x1b`), and `--json` keeps them as JSON escapes, parsing back to the same value.
 */
const ATTACK = 'Evilweg\u001b[2J\u001b]0;PWNED\u0007\u001b]52;c;SGk=\u0007\u009b31m\u202e';
/** Anything a terminal would act on or reorder, raw in the output. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalLine and terminalJson', () => {
  it('shows each control as the escape a developer would type', () => {
    expect(terminalLine(ATTACK)).toBe('Evilweg\\x1b[2J\\x1b]0;PWNED\\x07\\x1b]52;c;SGk=\\x07\\x9b31m\\u202e');
    expect(terminalLine('Dam\nrak\r\t\u0000\u007f\u2066')).toBe('Dam\\x0arak\\x0d\\x09\\x00\\x7f\\u2066');
    expect(terminalLine('Städtle 12, 9490 Vaduz שלום 東京 😀')).toBe('Städtle 12, 9490 Vaduz שלום 東京 😀');
  });

  it('--json: the same value, with nothing raw a terminal would act on', () => {
    const value = { street: ATTACK, list: ['\u2028', '\u0085'] };
    const printed = terminalJson(value);
    expect(printed).not.toMatch(RAW);
    expect(JSON.parse(printed)).toEqual(value);
  });
});

describe.each(STORAGE_BACKENDS)('CLI text output on %s', (backend) => {
  let server: TestServer;

  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: server.sandbox.env });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'pdok' });
    // Gaps stored before the API refused control characters, or read from a provider's answer.
    const account = await server.createAccount({ plan: 'starter' });
    const gaps = new GapStore(server.services.database.db);
    await server.services.database.db.transaction().execute((trx) =>
      gaps.add(trx, account.accountId, { kind: 'street', typed: { street: ATTACK, houseNumber: '1', city: 'Vaduz', country: 'LI' }, read: { street: `Read${ATTACK}` } }, Date.now()),
    );
    await server.services.accounts.create({ plan: 'free', name: `Shop ${ATTACK}` });
  });
  afterAll(async () => server?.close());

  it('addressd gaps: escaped in the text list and in --csv; intact in --json', async () => {
    const text = await cli('gaps');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(RAW);
    expect(text.stdout).toContain(terminalLine(ATTACK));
    const csv = await cli('gaps', '--csv');
    expect(csv.stdout).not.toMatch(RAW);
    expect(csv.stdout).toContain('Evilweg\\x1b[2J');
    const json = await cli('gaps', '--json');
    expect(json.stdout).not.toMatch(RAW);
    const { gaps } = JSON.parse(json.stdout) as { gaps: { typed: { street: string } }[] };
    expect(gaps[0]?.typed.street).toBe(ATTACK);
  });

  it('account list: a customer-given name is escaped', async () => {
    const res = await cli('account', 'list');
    expect(res.code).toBe(0);
    expect(res.stdout).not.toMatch(RAW);
    expect(res.stdout).toContain(`Shop ${terminalLine(ATTACK)}`);
  });

  it("import's bad-row list and index status: a file's cells and name are escaped", async () => {
    const dir = server.sandbox.dataDir;
    const path = join(dir, 'evil\u001b]0;x\u0007.csv');
    writeFileSync(path, ['street,houseNumber,postcode,city,country,lat,lng', `Landstrasse,1,9495,Triesen,LI,47.1,9.52`, `Landstrasse,2,9495,Triesen,${ATTACK},47.1,9.52`, `${ATTACK},3,9495,Triesen,LI,north${ATTACK},9.52`].join('\n'));
    const res = await cli('import', path);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('row 3: invalid_country');
    expect(res.stdout).toContain('row 4: invalid_coordinates');
    expect(res.stdout + res.stderr).not.toMatch(RAW);
    expect(res.stdout).toContain('evil\\x1b]0;x\\x07.csv');
    const status = await cli('index', 'status');
    expect(status.code).toBe(0);
    expect(status.stdout + status.stderr).not.toMatch(RAW);
    expect(status.stdout).toContain('evil\\x1b]0;x\\x07.csv');
  });

  it("commander's own errors (a mistyped argument quoted back) are escaped too", async () => {
    const res = await cli('gaps', '--country', `N${ATTACK}`);
    expect(res.code).not.toBe(0);
    expect(res.stderr).not.toMatch(RAW);
    expect(res.stderr).toContain(terminalLine(ATTACK));
  });

  it('an error that quotes its input is one escaped line', async () => {
    const res = await cli('import', join(server.sandbox.dataDir, `missing${ATTACK}.csv`));
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n').filter((l) => l.startsWith('error: '))).toHaveLength(1);
    expect(res.stderr).not.toMatch(RAW);
    expect(res.stderr).toContain(terminalLine(ATTACK));
  });
});
