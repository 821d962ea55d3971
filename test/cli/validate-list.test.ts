import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resultFields } from '../../src/cli/bulk/output.js';
import { runCli } from '../../src/cli/program.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

async function cli(env: Record<string, string>, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  return { code, stdout, stderr };
}

const STREETS = ['Keizersgracht', 'Prinsengracht', 'Herengracht', 'Molenstraat', 'Berkenlaan', 'Lindenweg', 'Kerkplein', 'Havenkade', 'Dijkstraat', 'Schoolstraat', 'Vondelstraat', 'Oranjesingel'];
const TOWNS = [
  { city: 'Amsterdam', pc: 1012, lat: 52.37, lng: 4.89 },
  { city: 'Haarlem', pc: 2011, lat: 52.38, lng: 4.63 },
  { city: 'Zaandam', pc: 1506, lat: 52.44, lng: 4.82 },
];
const NUMBERS = 30;

/** An OpenAddresses file of STREETS × TOWNS × NUMBERS addresses (a postcode per ten numbers). */
function indexFile(): { text: string; addresses: { street: string; number: string; postcode: string; city: string }[] } {
  const addresses: { street: string; number: string; postcode: string; city: string }[] = [];
  const lines = ['LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH'];
  TOWNS.forEach((town, t) =>
    STREETS.forEach((street, s) => {
      for (let n = 1; n <= NUMBERS; n++) {
        const postcode = `${town.pc + s} ${'ABCDEFGHJK'[Math.floor((n - 1) / 10)]}${'LMNPRSTVWX'[t]}`;
        const lat = (town.lat + s * 0.002 + n * 0.00005).toFixed(6);
        const lng = (town.lng + s * 0.003).toFixed(6);
        lines.push(`${lng},${lat},${n},${street},,${town.city},,Noord-Holland,${postcode},,`);
        addresses.push({ street, number: String(n), postcode, city: town.city });
      }
    }),
  );
  return { text: `${lines.join('\n')}\n`, addresses };
}

/** Rows as a customer file holds them: clean, typos, wrong postcodes, no city, upper case, numbers that do not exist, repeats. */
function listRows(addresses: ReturnType<typeof indexFile>['addresses'], count: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const a = addresses[(i * 7919) % addresses.length]!;
    let street = a.street;
    let number = a.number;
    let postcode = a.postcode;
    let city = a.city;
    switch (i % 10) {
      case 1:
        street = street.slice(0, 3) + street[4] + street[3] + street.slice(5);
        break;
      case 2:
        postcode = `${Number(postcode.slice(0, 4)) + 3} ZZ`;
        break;
      case 3:
        city = '';
        break;
      case 4:
        street = street.toUpperCase();
        city = city.toUpperCase();
        break;
      case 5:
        number = String(Number(number) + 100);
        break;
      case 6:
        if (i > 50) {
          rows.push(rows[i - 37]!);
          continue;
        }
        break;
      case 7:
        street = `Nergens${street.slice(-6)}`;
        break;
    }
    rows.push(`${street} ${number}, ${postcode}${city ? ` ${city}` : ''}`);
  }
  return rows;
}

describe.each(STORAGE_BACKENDS)('a list through addressd validate on %s', (backend) => {
  let server: TestServer;
  let env: Record<string, string>;
  let addresses: ReturnType<typeof indexFile>['addresses'];
  const file = (name: string, text: string) => {
    const p = path.join(server.sandbox.dataDir, name);
    writeFileSync(p, text);
    return p;
  };

  beforeAll(async () => {
    const { createSandbox } = await import('../support/backends.js');
    const sandbox = await createSandbox(backend);
    env = { ...sandbox.env, PROVIDERS: 'local', LOG_LEVEL: 'silent' };
    const index = indexFile();
    addresses = index.addresses;
    const oa = path.join(sandbox.dataDir, 'index.oa.csv');
    writeFileSync(oa, index.text);
    expect((await cli(env, ['import', oa, '--format', 'openaddresses', '--country', 'NL', '--json'])).code).toBe(0);
    server = await startTestServer({ sandbox, providers: 'local' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await server?.sandbox.cleanup();
  });

  it('answers every row exactly as POST /v1/validate answers it (lookup threads, repeats, chunks)', async () => {
    const { accountId, key } = await server.createAccount({ plan: 'growth' });
    const rows = listRows(addresses, 2000);
    const input = file('list.csv', `id,address\n${rows.map((r, i) => `${i},"${r}"`).join('\n')}\n`);
    const res = await cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--workers', '2', '--chunk', '300', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const summary = JSON.parse(res.stdout) as Record<string, number>;
    expect(summary).toMatchObject({ rows: 2000, done: 2000, outcome: 'complete', unverified: 0 });
    expect(summary.repeats).toBeGreaterThan(100);
    // Every kind of answer is in the list, so the comparison covers them all.
    expect(summary.valid).toBeGreaterThan(0);
    expect(summary.correctable).toBeGreaterThan(0);
    expect(summary.invalid).toBeGreaterThan(0);

    const [header, ...written] = parse(readFileSync(input.replace(/\.csv$/, '.validated.csv'), 'utf8')) as string[][];
    expect(header?.slice(0, 2)).toEqual(['id', 'address']);
    expect(written).toHaveLength(2000);
    for (const [i, row] of written.entries()) {
      const api = await server.app.request('/v1/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: rows[i], country: 'NL' }),
      });
      expect(api.status).toBe(200);
      const fields = resultFields((await api.json()) as ValidateResponse);
      // The verified column is the bulk run's own (the API says it in a header); the rest must be equal.
      expect({ row: i, query: rows[i], fields: row.slice(2, 2 + fields.length - 1) }).toEqual({ row: i, query: rows[i], fields: fields.slice(0, -1) });
    }
  }, 600_000);

  it.runIf(backend === 'postgres')('looks a chunk of exact rows up in the index in a few statements, whatever the number of rows (set-based on PostgreSQL)', async () => {
    const { accountId } = await server.createAccount({ plan: 'growth' });
    const query = vi.spyOn(pg.Pool.prototype, 'query');
    try {
      /** The local index's statements while a list of `n` exact rows runs in one chunk (no lookup threads: this process's). */
      const statements = async (n: number) => {
        const rows = Array.from({ length: n }, (_, i) => addresses[(i * 37) % addresses.length]!).map((a) => `${a.street} ${a.number}, ${a.postcode} ${a.city}`);
        const input = file(`exact-${n}.csv`, `address\n${rows.map((r) => `"${r}"`).join('\n')}\n`);
        query.mockClear();
        const res = await cli(env, ['validate', input, '--account', accountId, '--country', 'NL', '--workers', '0', '--chunk', '250', '--json']);
        expect(res.code, res.stderr).toBe(0);
        expect(JSON.parse(res.stdout)).toMatchObject({ rows: n, valid: n });
        // Lookups only: every open index also reads its version every 2 s (FROM local_meta), as
        // many times as the run lasts; a busy machine's longer run counted more of them.
        const lookup = (text: string) => /local_|addressd_local_search/.test(text) && !/FROM local_meta/.test(text);
        return query.mock.calls.filter(([q]) => lookup(typeof q === 'string' ? q : (q as { text: string }).text)).length;
      };
      const [few, many] = [await statements(40), await statements(200)];
      // Row by row, each row costs a statement or two: 160 more rows, 160-320 more statements.
      expect(many - few).toBeLessThanOrEqual(2);
    } finally {
      query.mockRestore();
    }
  }, 120_000);

  it('takes each row\'s country from a country column found by its name (code or name), and refuses a value that is no country', async () => {
    const { accountId } = await server.createAccount({ plan: 'starter' });
    const a = addresses[0]!;
    const line = `${a.street} ${a.number}, ${a.postcode} ${a.city}`;
    const input = file('mixed.csv', `Address;Country\n${line};NL\n${line};Netherlands\n${line};de\n${line};Atlantis\n${line};\n`);
    const res = await cli(env, ['validate', input, '--account', accountId, '--workers', '0', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const [, ...rows] = parse(readFileSync(input.replace(/\.csv$/, '.validated.csv'), 'utf8'), { delimiter: ';' }) as string[][];
    const at = (name: string) => (header as string[]).indexOf(name);
    const header = ['Address', 'Country', 'verdict', 'confidence', 'reasons', 'street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'lat', 'lng', 'provider', 'error', 'verified'];
    // NL by code and by name: found in the Dutch index. DE: the index holds no German address, so
    // nothing is found (as the API with country DE). No country: read from the text.
    expect(rows.map((r) => [r[at('verdict')], r[at('country')]])).toEqual([
      ['valid', 'NL'],
      ['valid', 'NL'],
      [expect.not.stringMatching(/^valid$/), ''],
      ['', ''],
      ['valid', 'NL'],
    ]);
    expect(rows[3]?.[at('error')]).toMatch(/^unknown country "Atlantis" in column Country/);
  });
});
