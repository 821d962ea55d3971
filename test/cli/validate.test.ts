import { execFile, spawn } from 'node:child_process';
import { existsSync, linkSync, readFileSync, statSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkLedger } from '../../src/billing/bulk-ledger.js';
import { runCli } from '../../src/cli/program.js';
import { systemClock } from '../../src/lib/clock.js';
import { openDatabase, type Database } from '../../src/store/db/database.js';
import { startPdokEmulator, type Emulator } from '../emulators/index.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

const BIN = path.resolve('bin/addressd.js');
const FIXTURE = path.resolve('test/fixtures/import/amsterdam.oa.csv');
const BERLIN = path.resolve('test/fixtures/import/berlin.csv');
const mode = (file: string) => statSync(file).mode & 0o777;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(env: Record<string, string>, args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

/** An output file's records; the delimiter is the header's (the input's). */
function csv(text: string): string[][] {
  return parse(text, { delimiter: text.split('\n')[0]?.includes(';') ? ';' : ',' }) as string[][];
}

/** `addressd validate` (issue 13) on both storage backends, against the offline index and the PDOK emulator. */
describe.each(STORAGE_BACKENDS)('addressd validate on %s', (backend) => {
  let sandbox: Sandbox;
  let env: Record<string, string>;
  let database: Database;
  let ledger: BulkLedger;
  const file = (name: string, text: string) => {
    const p = path.join(sandbox.dataDir, name);
    writeFileSync(p, text);
    return p;
  };
  const newAccount = async (plan = 'starter') => JSON.parse((await cli(env, ['account', 'create', '--plan', plan, '--json'])).stdout).id as string;
  const events = (accountId: string) =>
    database.db
      .selectFrom('usage_events')
      .select(['endpoint', 'credential_id', 'source', 'query', 'verdict', 'cached', 'credits'])
      .where('account_id', '=', accountId)
      .execute();

  /** The usual umask (022), which alone would make files 0644: the modes asserted are the command's own. */
  let umask: number;
  beforeAll(async () => {
    umask = process.umask(0o022);
    sandbox = await createSandbox(backend);
    env = { ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' };
    expect((await cli(env, ['import', FIXTURE, '--country', 'NL', '--json'])).code).toBe(0);
    database = await openDatabase({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl } : {}) });
    ledger = new BulkLedger(database, systemClock);
  });
  afterAll(async () => {
    process.umask(umask);
    await database?.close();
    await sandbox?.cleanup();
  });

  it('validates a CSV with a free-text column into the input columns plus the result, billing each row once', async () => {
    const accountId = await newAccount();
    const input = file(
      'customers.csv',
      'id;Full address;note\n1;Damrak 1, 1012 LG Amsterdam;a\n2;Keizersgracht 123 Amsterdam;"b; c"\n3;;empty\n4;Damrk 2, Amsterdam;typo\n5;Nowherelane 5, Utrecht;unknown\n',
    );
    const res = await cli(env, ['validate', input, '--account', accountId, '--query-column', 'Full address', '--country', 'NL', '--chunk', '2']);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`store: ${backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`);
    expect(res.stdout).toContain('5 of 5 rows');
    expect(res.stdout).toContain('valid 1, correctable 2, invalid 1, not verified 0, no address 1; 4 credits spent by this run');

    const out = readFileSync(path.join(sandbox.dataDir, 'customers.validated.csv'), 'utf8');
    const [header, ...rows] = csv(out);
    expect(header).toEqual(['id', 'Full address', 'note', 'verdict', 'confidence', 'reasons', 'street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'lat', 'lng', 'provider', 'error', 'verified',
      'unit', 'formatted', 'action', 'granularity', 'inferred']);
    expect(rows.map((r) => [r[0], r[3], r[6], r[7], r[8], r[14], r[16], r[18], r[19], r[20]])).toEqual([
      ['1', 'valid', 'Damrak', '1', '1012 LG', 'local', 'yes', 'Damrak 1, 1012 LG Amsterdam', 'accept', 'house'],
      ['2', 'correctable', 'Keizersgracht', '123', '1015 CW', 'local', 'yes', 'Keizersgracht 123, 1015 CW Amsterdam', 'confirm', 'house'],
      ['3', '', '', '', '', '', '', '', '', ''],
      ['4', 'correctable', 'Damrak', '2', '1012 LG', 'local', 'yes', 'Damrak 2, 1012 LG Amsterdam', 'confirm', 'house'],
      ['5', 'invalid', '', '', '', '', 'yes', '', 'fix', 'none'],
    ]);
    // What the data derived (issue 34): nothing in a file that states every town and postcode.
    expect(rows.map((r) => r[21])).toEqual(['', '', '', '', '']);
    expect(out).toContain('"b; c"');
    expect(rows[2]?.[15]).toBe('no address in this row');
    expect(rows[3]?.[5]).toContain('components_corrected');
    expect(Number(rows[0]?.[12])).toBeCloseTo(52.3749, 3);

    // One usage event per looked-up row, as the API writes them; the empty row cost nothing.
    const recorded = await events(accountId);
    expect(recorded).toHaveLength(4);
    for (const e of recorded) expect(e).toMatchObject({ endpoint: 'cli validate', credential_id: 'cli', source: 'cli', credits: 1 });
    expect(recorded.map((e) => e.query).sort()).toEqual(['Damrak 1, 1012 LG Amsterdam', 'Damrk 2, Amsterdam', 'Keizersgracht 123 Amsterdam', 'Nowherelane 5, Utrecht']);
    expect((await ledger.balance(accountId)).usedThisMonth).toBe(4);
    // Two chunks of two look-ups (the empty row rides along unbilled), each with its receipt; nothing held, no journal left.
    const receipts = await database.db.selectFrom('bulk_receipts').select(['calls', 'credits']).where('account_id', '=', accountId).execute();
    expect(receipts.map((r) => [Number(r.calls), Number(r.credits)])).toEqual([[2, 2], [2, 2]]);
    expect(await database.db.selectFrom('credit_reservations').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
    expect(existsSync(path.join(sandbox.dataDir, 'customers.validated.csv.journal'))).toBe(false);
  });

  it('validates component columns (found by their names, or mapped with --columns) and JSON Lines', async () => {
    const accountId = await newAccount();
    const input = file('parts.csv', 'Straat,Nr,PC,Plaats\nDamrak,1,1012LG,Amsterdam\nPrinsengracht,263,1016 GV,Amsterdam\nHerengracht,999,1015BA,Amsterdam\n');
    const out = path.join(sandbox.dataDir, 'parts-out.csv');
    const res = await cli(env, ['validate', input, '--account', accountId, '--columns', 'street=Straat,houseNumber=Nr,postcode=PC,city=Plaats', '--country', 'NL', '--out', out, '--json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toMatchObject({ rows: 3, done: 3, valid: 2, invalid: 1, creditsThisRun: 3, outcome: 'complete', out, journal: null });
    const [header, ...rows] = csv(readFileSync(out, 'utf8'));
    expect(header?.slice(0, 5)).toEqual(['Straat', 'Nr', 'PC', 'Plaats', 'verdict']);
    expect(rows.map((r) => r[4])).toEqual(['valid', 'valid', 'invalid']);
    expect(rows[2]?.[6]).toContain('no_house_number_match');

    // Header names a person would use are found without --columns; result columns they share get a prefix.
    const named = file('named.jsonl', '{"street":"Damrak","housenumber":"3","unit":"2hg","postcode":"1012 LG","city":"Amsterdam","ref":7}\n{"street":"Dam","housenumber":"1","city":"Amsterdam","ref":8}\n');
    const jsonl = await cli(env, ['validate', named, '--account', accountId, '--json']);
    expect(jsonl.code).toBe(0);
    const lines = readFileSync(path.join(sandbox.dataDir, 'named.validated.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines).toEqual([
      expect.objectContaining({
        street: 'Damrak', ref: '7', verdict: 'valid', validated_street: 'Damrak', validated_postcode: '1012 LG', provider: 'local',
        // A unit column is found by its name and carried into the postal lines, not checked (the data lists none).
        validated_unit: '2hg', formatted: 'Damrak 3 2hg, 1012 LG Amsterdam', action: 'accept', granularity: 'house',
      }),
      // No postcode given: found, and the postcode it lacked is supplied.
      expect.objectContaining({ street: 'Dam', ref: '8', verdict: 'correctable', reasons: 'components_incomplete', validated_postcode: '1012 JS' }),
    ]);
  });

  it('refuses bad files with one clear line and exit 1, before anything is billed', async () => {
    const accountId = await newAccount();
    const cases: [string, string[], RegExp][] = [
      ['empty.csv', [], /empty\.csv is empty/],
      ['header-only.csv', [], /has a header but no rows/],
      ['colons.csv', [], /the header is one column "street:houseNumber:city"/],
      ['mixed.csv', [], /line 3: 1 fields where the header has 2: is it separated by ";"/],
      ['missing.csv', ['--query-column', 'address'], /no column "address" \(columns: street, city\)/],
      ['missing.csv', ['--columns', 'street=street,postcode=zip'], /no column "zip"/],
      ['broken.jsonl', [], /broken\.jsonl line 2: not a JSON object/],
      ['nowhere.csv', [], /nowhere\.csv: no such file/],
    ];
    file('empty.csv', '');
    file('header-only.csv', 'street,city\n');
    file('colons.csv', 'street:houseNumber:city\nDamrak:1:Amsterdam\n');
    file('mixed.csv', 'address,city\nDamrak 1,Amsterdam\nDamrak 2;Amsterdam\n');
    file('missing.csv', 'street,city\nDamrak 1,Amsterdam\n');
    file('broken.jsonl', '{"query":"Damrak 1"}\n[1,2]\n');
    for (const [name, extra, message] of cases) {
      const res = await cli(env, ['validate', path.join(sandbox.dataDir, name), '--account', accountId, ...extra]);
      expect(res.code, name).toBe(1);
      expect(res.stdout, name).toBe('');
      expect(res.stderr, name).toMatch(/^error: [^\n]+\n$/);
      expect(res.stderr, name).toMatch(message);
    }
    const unknown = await cli(env, ['validate', path.join(sandbox.dataDir, 'missing.csv'), '--account', 'acc_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: Unknown account acc_nope\n$/m);
    // With lookup threads, which start loading before the account is read: they are ended and the process exits.
    const threaded = await promisify(execFile)(process.execPath, [BIN, 'validate', path.join(sandbox.dataDir, 'missing.csv'), '--account', 'acc_nope', '--workers', '2'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      timeout: 20_000,
    }).then(
      () => ({ code: 0, killed: false, stderr: '' }),
      (error: { code: number; killed: boolean; stderr: string }) => error,
    );
    expect(threaded).toMatchObject({ code: 1, killed: false });
    expect(threaded.stderr).toMatch(/^error: Unknown account acc_nope\n$/m);
    expect(await events(accountId)).toEqual([]);
  });

  it('resumes from the journal: a paid chunk whose `settled` line was lost is not billed again, an unpaid one runs again', async () => {
    const accountId = await newAccount();
    const input = file('crash.csv', 'address\nDamrak 1 Amsterdam\nDamrak 2 Amsterdam\nDamrak 3 Amsterdam\nDamrak 4 Amsterdam\nDam 1 Amsterdam\n');
    const out = path.join(sandbox.dataDir, 'crash.validated.csv');
    const journal = `${out}.journal`;
    // The state a crash leaves: rows 0, 1 and 4 settled in the database (receipt written) but the
    // process died before journaling `settled`; rows 2-3 reserved and journaled but never settled.
    const meta = { t: 'run', input, bytes: statSync(input).size, rows: 5, columns: ['address'], mapping: { query: 'address' }, country: null, account: accountId, source: 'cli' };
    const marked = ['valid', '100', '', 'FROM-JOURNAL', '1', '1012 LG', 'Amsterdam', '', 'NL', '52', '4', 'local', ''];
    const event = (query: string) => ({ accountId, credentialId: 'cli', env: 'live', endpoint: 'cli validate', verdict: 'valid', provider: 'local', latencyMs: 1, cached: false, query, source: 'cli' });
    const paid = await ledger.reserve(accountId, 3);
    const paidQueries = ['Damrak 1 Amsterdam', 'Damrak 2 Amsterdam', 'Dam 1 Amsterdam'];
    await ledger.settleChunk(accountId, paid, paidQueries.map((q) => ({ credits: 1, event: event(q) })), 'blk_paid');
    const held = await ledger.reserve(accountId, 2);
    writeFileSync(
      journal,
      [
        meta,
        { t: 'reserved', id: 'blk_paid', reservation: paid },
        { t: 'chunk', id: 'blk_paid', credits: 3, rows: [[0, marked], [1, marked], [4, marked]] },
        { t: 'reserved', id: 'blk_unpaid', reservation: held },
        { t: 'chunk', id: 'blk_unpaid', credits: 2, rows: [[2, marked], [3, marked]] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n{"t":"settl',
    );
    expect((await ledger.balance(accountId)).usedThisMonth).toBe(5);

    // Without --resume the journal is not overwritten; with it the run completes.
    const refused = await cli(env, ['validate', input, '--account', accountId]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/holds an interrupted run: add --resume/);
    const other = await cli(env, ['validate', input, '--account', accountId, '--resume', '--source', 'other']);
    expect(other.stderr).toMatch(/belongs to another run/);

    const res = await cli(env, ['validate', input, '--account', accountId, '--resume', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ rows: 5, done: 5, creditsThisRun: 2, outcome: 'complete' });
    const rows = csv(readFileSync(out, 'utf8')).slice(1);
    // In input order: row 4, done before the gap was filled, waits for rows 2-3.
    expect(rows.map((r) => r[4])).toEqual(['FROM-JOURNAL', 'FROM-JOURNAL', 'Damrak', 'Damrak', 'FROM-JOURNAL']);
    // Rows 0, 1, 4 once (the paid chunk), rows 2-3 once each: five events, five credits, no reservation held.
    expect((await events(accountId)).map((e) => e.query).sort()).toEqual(['Dam 1 Amsterdam', 'Damrak 1 Amsterdam', 'Damrak 2 Amsterdam', 'Damrak 3 Amsterdam', 'Damrak 4 Amsterdam']);
    expect((await ledger.balance(accountId)).usedThisMonth).toBe(5);
    expect(await database.db.selectFrom('credit_reservations').select('id').where('account_id', '=', accountId).execute()).toEqual([]);
    expect(existsSync(journal)).toBe(false);
    const again = await cli(env, ['validate', input, '--account', accountId, '--resume']);
    expect(again.stderr).toMatch(/nothing to resume/);
  });

  it('stops when the credits run out part-way, and --resume continues once credits are added', async () => {
    const accountId = await newAccount('free');
    const spend = await ledger.reserve(accountId, 498);
    await ledger.settleChunk(accountId, spend, [{ credits: 498, event: { accountId, credentialId: 'x', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null } }], 'blk_spend');
    const input = file('short.csv', 'address\nDamrak 1 Amsterdam\nDamrak 2 Amsterdam\nDamrak 3 Amsterdam\nDamrak 4 Amsterdam\n');
    const res = await cli(env, ['validate', input, '--account', accountId, '--chunk', '3']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('2 of 4 rows');
    expect(res.stdout).toContain('credits ran out at row 3');
    expect((await ledger.balance(accountId)).available).toBe(0);
    expect((await cli(env, ['credits', 'add', accountId, '10'])).code).toBe(0);
    const resumed = await cli(env, ['validate', input, '--account', accountId, '--chunk', '3', '--resume', '--json']);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ done: 4, creditsThisRun: 2, outcome: 'complete' });
    expect((await events(accountId)).filter((e) => e.endpoint === 'cli validate')).toHaveLength(4);
  });
  it('counts in its summary exactly the rows it wrote, when credits run out with finished rows after the gap (issue 28 §8)', async () => {
    const accountId = await newAccount('free');
    const spend = await ledger.reserve(accountId, 498);
    await ledger.settleChunk(accountId, spend, [{ credits: 498, event: { accountId, credentialId: 'x', env: 'live', endpoint: '/v1/validate', verdict: null, provider: null, latencyMs: 0, cached: false, query: null, source: null } }], 'blk_spend2');
    // Rows 4-5 have no address: finished (unbilled) in the chunk, after row 3 that the credits did not reach.
    const input = file('gap.csv', 'address,note\nDamrak 1 Amsterdam,a\nDamrak 2 Amsterdam,b\nDamrak 3 Amsterdam,c\n,d\n,e\nDamrak 4 Amsterdam,f\n');
    const out = path.join(sandbox.dataDir, 'gap.validated.csv');
    const stopped = await cli(env, ['validate', input, '--account', accountId, '--chunk', '10', '--json']);
    expect(stopped.code).toBe(1);
    const summary = JSON.parse(stopped.stdout) as Record<string, number>;
    const written = csv(readFileSync(out, 'utf8')).slice(1);
    expect(written).toHaveLength(2);
    expect(summary).toMatchObject({ rows: 6, done: 2, skipped: 0, held: 2, outcome: 'credits-exhausted' });
    expect(summary.valid! + summary.correctable! + summary.invalid! + summary.unverified! + summary.skipped!).toBe(summary.done);
    const human = await cli(env, ['validate', input, '--account', accountId, '--chunk', '10', '--resume']);
    expect(human.stdout).toContain('2 of 6 rows');
    expect(human.stdout).toContain('2 later rows are done and kept in the journal');

    expect((await cli(env, ['credits', 'add', accountId, '10'])).code).toBe(0);
    const resumed = await cli(env, ['validate', input, '--account', accountId, '--chunk', '10', '--resume', '--json']);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ rows: 6, done: 6, unverified: 0, noAddress: 2, skipped: 2, held: 0, outcome: 'complete' });
    expect(csv(readFileSync(out, 'utf8')).slice(1)).toHaveLength(6);
  });

  it('names an unrecognised country in the row\'s error and counts it apart from rows without an address (issue 28 §8)', async () => {
    const accountId = await newAccount();
    const input = file('countries.csv', 'address;country\nDamrak 1, 1012 LG Amsterdam;NL\nDamrak 2, 1012 LG Amsterdam;XX\n;NL\n');
    const res = await cli(env, ['validate', input, '--account', accountId]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('3 of 3 rows');
    expect(res.stdout).toContain('valid 1, correctable 0, invalid 0, not verified 0, no address 1, unknown country 1;');
    const [header, ...rows] = csv(readFileSync(path.join(sandbox.dataDir, 'countries.validated.csv'), 'utf8'));
    const error = header!.indexOf('error');
    expect(rows.map((r) => r[error])).toEqual(['', expect.stringMatching(/^unknown country "XX" in column country/), 'no address in this row']);
    const refused = await cli(env, ['validate', input, '--account', accountId, '--country', 'XX']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unknown country "XX"/);
  });

  it('refuses an --out that is the input by another name (symlink, hard link) before writing anything (issue 28 §9)', async () => {
    const accountId = await newAccount();
    const text = 'address\nDamrak 1 Amsterdam\nDamrak 2 Amsterdam\n';
    const input = file('precious.csv', text);
    const soft = path.join(sandbox.dataDir, 'precious-soft.csv');
    const hard = path.join(sandbox.dataDir, 'precious-hard.csv');
    symlinkSync(input, soft);
    linkSync(input, hard);
    for (const out of [soft, hard]) {
      const res = await cli(env, ['validate', input, '--account', accountId, '--out', out]);
      expect(res.code, out).toBe(1);
      expect(res.stderr).toMatch(/is the input file .*precious\.csv \(the same file under another name, a link\): choose another --out/);
      expect(readFileSync(input, 'utf8')).toBe(text);
      expect(existsSync(`${out}.journal`)).toBe(false);
      expect(existsSync(`${out}.lock`)).toBe(false);
    }
    // Reading the input through a link and writing elsewhere is fine.
    expect((await cli(env, ['validate', soft, '--account', accountId, '--out', path.join(sandbox.dataDir, 'precious-out.csv')])).code).toBe(0);
    expect(await events(accountId)).toHaveLength(2);
  });

  it('neutralises formula cells of the CSV it writes (OWASP), unless --raw-cells; writes it 0600 (issue 28 §8-9)', async () => {
    const accountId = await newAccount();
    const input = file('formulas.csv', 'address,note\nDamrak 1 Amsterdam,"=HYPERLINK(""http://evil.example"",""x"")"\nDamrak 2 Amsterdam,@SUM(A1)\nDamrak 3 Amsterdam,+31 20 555\nDamrak 4 Amsterdam,-3\n');
    const out = path.join(sandbox.dataDir, 'formulas.validated.csv');
    expect((await cli(env, ['validate', input, '--account', accountId])).code).toBe(0);
    expect(mode(out)).toBe(0o600);
    const notes = csv(readFileSync(out, 'utf8')).slice(1).map((r) => r[1]);
    expect(notes).toEqual(['\'=HYPERLINK("http://evil.example","x")', "'@SUM(A1)", "'+31 20 555", "'-3"]);
    const raw = path.join(sandbox.dataDir, 'formulas.raw.csv');
    expect((await cli(env, ['validate', input, '--account', accountId, '--out', raw, '--raw-cells'])).code).toBe(0);
    expect(csv(readFileSync(raw, 'utf8')).slice(1).map((r) => r[1])).toEqual(['=HYPERLINK("http://evil.example","x")', '@SUM(A1)', '+31 20 555', '-3']);
  });

  it('finishes a run with unverified rows (exit 0), never blocks a fresh run, and --retry-unverified rewrites only those rows in place (issue 28 §8)', async () => {
    const accountId = await newAccount();
    // The index holds no German address yet: the Berlin row is not verified.
    const input = file('mixed-retry.csv', 'address;country\nDamrak 1, 1012 LG Amsterdam;NL\nUnter den Linden 77, 10117 Berlin;DE\nDamrak 2, 1012 LG Amsterdam;NL\n');
    const out = path.join(sandbox.dataDir, 'mixed-retry.validated.csv');
    const journal = `${out}.journal`;
    const first = await cli(env, ['validate', input, '--account', accountId]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('3 of 3 rows');
    expect(first.stdout).toContain('finished; 1 rows not verified');
    expect(first.stdout).toContain('--retry-unverified');
    expect(first.stdout).not.toMatch(/interrupted|--resume/);
    expect(mode(journal)).toBe(0o600);
    const before = csv(readFileSync(out, 'utf8'));
    const verified = before[0]!.indexOf('verified');
    expect(before.slice(1).map((r) => r[verified])).toEqual(['yes', 'no', 'yes']);
    // The row nothing checked asks the customer to confirm it, never to fix it (issue 34 item 8).
    expect(before[2]![before[0]!.indexOf('action')]).toBe('confirm');

    // A fresh run of the same file is not refused: it replaces the finished run.
    const fresh = await cli(env, ['validate', input, '--account', accountId, '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ done: 3, unverified: 1, outcome: 'complete', journal });
    const resume = await cli(env, ['validate', input, '--account', accountId, '--resume']);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toMatch(/finished; --retry-unverified/);

    expect((await cli(env, ['import', BERLIN, '--country', 'DE', '--json'])).code).toBe(0);
    const paidBefore = (await ledger.balance(accountId)).usedThisMonth;
    const retry = await cli(env, ['validate', input, '--account', accountId, '--retry-unverified', '--json']);
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ rows: 3, done: 3, unverified: 0, creditsThisRun: 1, outcome: 'complete', journal: null });
    expect((await ledger.balance(accountId)).usedThisMonth).toBe(paidBefore + 1);
    const after = csv(readFileSync(out, 'utf8'));
    // The other rows are as they were, in their places; the Berlin row is now checked.
    expect([after[0], after[1], after[3]]).toEqual([before[0], before[1], before[3]]);
    expect(after[2]!.slice(0, 3)).toEqual(['Unter den Linden 77, 10117 Berlin', 'DE', 'valid']);
    expect(after[2]![verified]).toBe('yes');
    expect(existsSync(journal)).toBe(false);
    expect((await cli(env, ['validate', input, '--account', accountId, '--retry-unverified'])).stderr).toMatch(/nothing to retry/);
  });
});

/**
 * Runs `addressd validate` as a child process and sends it `signal` as soon as its first chunk is
 * settled (the journal says so), while the next chunk is in flight; resolves with how it ended.
 */
async function stopMidRun(env: Record<string, string>, args: string[], journal: string, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (existsSync(journal) && readFileSync(journal, 'utf8').includes('"t":"settled"')) {
        watcher.close();
        resolve();
      }
    };
    const watcher = watch(path.dirname(journal), check);
    void exited.then(({ code }) => {
      watcher.close();
      reject(new Error(`the run ended (exit ${code}) before it could be stopped: ${stdout}`));
    });
    check();
  });
  child.kill(signal);
  return { exit: await exited, stdout };
}

describe('addressd validate interrupted with Ctrl-C', () => {
  let sandbox: Sandbox;
  let pdok: Emulator;
  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
    pdok = await startPdokEmulator();
  });
  afterAll(async () => {
    await pdok?.close();
    await sandbox?.cleanup();
  });

  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
  ] as const)('on %s (a closed terminal, a stop) finishes the rows in flight like Ctrl-C, writes and bills them, exits %i (issue 28 §8)', async (signal, exitCode) => {
    const env = { ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, LOG_LEVEL: 'silent', PROVIDER_TIMEOUT_MS: '10000' };
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'])).stdout).id as string;
    const rows = Array.from({ length: 40 }, (_, i) => `Signalweg ${i + 1} Amsterdam`);
    const input = path.join(sandbox.dataDir, `${signal}.csv`);
    writeFileSync(input, `address\n${rows.join('\n')}\n`);
    const out = path.join(sandbox.dataDir, `${signal}.validated.csv`);
    const journal = `${out}.journal`;
    pdok.setFault({ mode: 'slow', delayMs: 1500 });
    try {
      const { exit, stdout } = await stopMidRun(env, ['validate', input, '--account', accountId, '--country', 'NL', '--chunk', '4', '--concurrency', '2', '--json'], journal, signal);
      expect(exit).toEqual({ code: exitCode, signal: null });
      const written = csv(readFileSync(out, 'utf8')).slice(1);
      // What was looked up was billed and written: no row in flight is lost or cut off.
      expect(written.length).toBeGreaterThanOrEqual(4);
      expect(written.length).toBeLessThan(40);
      expect(written.map((r) => r[0])).toEqual(rows.slice(0, written.length));
      expect(JSON.parse(stdout)).toMatchObject({ rows: 40, done: written.length, outcome: 'interrupted', journal });
      const database = await openDatabase({ dataDir: sandbox.dataDir });
      try {
        const billed = await database.db.selectFrom('usage_events').select('query').where('account_id', '=', accountId).execute();
        expect(billed.map((e) => e.query).sort()).toEqual(rows.slice(0, written.length).sort());
      } finally {
        await database.close();
      }
    } finally {
      pdok.setFault({ mode: 'none' });
    }
  }, 120_000);

  it('finishes the rows in flight, writes them, exits 130, and --resume completes without billing a row twice', async () => {
    const env = { ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: pdok.url, LOG_LEVEL: 'silent', PROVIDER_TIMEOUT_MS: '10000' };
    const accountId = JSON.parse((await cli(env, ['account', 'create', '--plan', 'starter', '--json'])).stdout).id as string;
    const rows = Array.from({ length: 40 }, (_, i) => `Teststraat ${i + 1} Amsterdam`);
    const input = path.join(sandbox.dataDir, 'big.csv');
    writeFileSync(input, `address\n${rows.join('\n')}\n`);
    const out = path.join(sandbox.dataDir, 'big.validated.csv');
    const journal = `${out}.journal`;
    // Slow answers (two rows at a time, 1.5 s each: 30 s for the file), so the run is surely
    // mid-way when it is interrupted, however late this busy machine lets the test react.
    pdok.setFault({ mode: 'slow', delayMs: 1500 });

    // Interrupted as soon as the first chunk is settled.
    const { exit, stdout } = await stopMidRun(env, ['validate', input, '--account', accountId, '--country', 'NL', '--chunk', '4', '--concurrency', '2'], journal, 'SIGINT');
    expect(exit.code).toBe(130);
    pdok.setFault({ mode: 'none' });

    const database = await openDatabase({ dataDir: sandbox.dataDir });
    try {
      const written = csv(readFileSync(out, 'utf8')).slice(1);
      expect(written.length).toBeGreaterThanOrEqual(4);
      expect(written.length).toBeLessThan(40);
      expect(written.map((r) => r[0])).toEqual(rows.slice(0, written.length));
      expect(stdout).toContain(`${written.length} of 40 rows`);
      expect(stdout).toContain('--resume');
      const billedBefore = await database.db.selectFrom('usage_events').select('query').where('account_id', '=', accountId).execute();
      expect(billedBefore).toHaveLength(written.length);

      const res = await promisify(execFile)(process.execPath, [BIN, 'validate', input, '--account', accountId, '--country', 'NL', '--resume', '--json'], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      });
      expect(JSON.parse(res.stdout)).toMatchObject({ rows: 40, done: 40, creditsThisRun: 40 - written.length, outcome: 'complete' });
      const all = csv(readFileSync(out, 'utf8')).slice(1);
      expect(all.map((r) => r[0])).toEqual(rows);
      // Every row billed exactly once: 40 events, 40 credits (PDOK answered each look-up).
      const billed = await database.db.selectFrom('usage_events').select('query').where('account_id', '=', accountId).execute();
      expect(billed.map((e) => e.query).sort()).toEqual([...rows].sort());
      expect(Number((await database.db.selectFrom('credit_months').select('used_grant').where('account_id', '=', accountId).executeTakeFirstOrThrow()).used_grant)).toBe(40);
    } finally {
      await database.close();
    }
  }, 120_000);
});
