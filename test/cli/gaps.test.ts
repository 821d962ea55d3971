import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { ValidateResponse } from '../../src/contract/validate.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** `addressd gaps` (issue 29 item 4): the index gaps customers revealed, from the store the service writes. */
describe.each(STORAGE_BACKENDS)('addressd gaps on %s', (backend) => {
  let server: TestServer;

  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['gaps', ...args], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: server.sandbox.env });
    return { code, stdout, stderr };
  }

  async function insist(key: string, body: object): Promise<void> {
    const auth = { authorization: `Bearer ${key}` };
    const { responseId } = ValidateResponse.parse(await (await server.post('/v1/validate', body, auth)).json());
    expect((await server.post('/v1/validate/feedback', { responseId, conclusion: 'user_used' }, auth)).status).toBe(204);
  }

  beforeAll(async () => {
    server = await startTestServer({ backend, providers: 'pdok' });
    const first = await server.createAccount({ plan: 'starter' });
    const second = await server.createAccount({ plan: 'starter' });
    // The same missing number from two accounts, and once more: merged, 3 times.
    await insist(first.key, { query: 'Damrak 999, 1012 LG Amsterdam', country: 'NL' });
    await insist(first.key, { query: 'Damrak 999, 1012 LG Amsterdam', country: 'NL' });
    await insist(second.key, { query: 'Damrak 999, 1012 LG Amsterdam', country: 'NL' });
    // A street nobody has, typed as a spreadsheet formula: listed, and defused in CSV.
    await insist(first.key, { components: { street: '=HYPERLINK("x")', houseNumber: '1', city: 'Amsterdam' }, country: 'NL' });
  });
  afterAll(async () => server.close());

  it('--json: one object, most frequent first, every account merged', async () => {
    const result = await cli(['--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const { gaps } = JSON.parse(result.stdout) as { gaps: { kind: string; count: number; country: string; typed: Record<string, string> }[] };
    expect(gaps.map((g) => [g.count, g.kind, g.country, g.typed.street])).toEqual([
      [3, 'house', 'NL', 'Damrak'],
      [1, 'street', 'NL', '=HYPERLINK("x")'],
    ]);
  });

  it('--country and --since filter', async () => {
    const count = async (args: string[]) => (JSON.parse((await cli([...args, '--json'])).stdout) as { gaps: unknown[] }).gaps.length;
    expect(await count(['--country', 'nl'])).toBe(2);
    expect(await count(['--country', 'DE'])).toBe(0);
    expect(await count(['--since', '2000-01-01'])).toBe(2);
    expect(await count(['--since', '2999-01-01'])).toBe(0);
  });

  it('--csv: a header and one row per gap, formula cells defused', async () => {
    const result = await cli(['--csv']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'count,kind,country,typed_street,typed_houseNumber,typed_postcode,typed_city,typed_country,read_street,read_houseNumber,read_postcode,read_city,read_country,first_seen,last_seen',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^3,house,NL,Damrak,999,1012 LG,Amsterdam,NL,Damrak,,1012 LG,Amsterdam,NL,\d{4}-/);
    expect(lines[2]).toMatch(/^1,street,NL,"'=HYPERLINK\(""x""\)",1,,Amsterdam,NL,,,,,,/);
  });

  it('refuses a bad argument in one line, and --csv with --json', async () => {
    for (const args of [['--country', 'Netherlands'], ['--since', 'yesterday'], ['--csv', '--json']]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
