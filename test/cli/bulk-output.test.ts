import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { OutputWriter, RESULT_COLUMNS, type ResultFields } from '../../src/cli/bulk/output.js';
import { useModeTestDir } from '../support/mode-test-dir.js';

/** A result as a provider's answer fills it: a street name beginning with `=`, coordinates west and south. */
function result(fields: Partial<Record<(typeof RESULT_COLUMNS)[number], string>>): ResultFields {
  return RESULT_COLUMNS.map((c) => fields[c] ?? '');
}

/** What `addressd validate` writes, cell by cell (issue 28 §9: CSV injection, file modes). */
describe('OutputWriter', () => {
  const tmp = useModeTestDir('addressd-output-');

  const write = async (file: string, format: 'csv' | 'jsonl', rawCells?: boolean) => {
    const writer = new OutputWriter(file, format, ',', ['=name', 'note'], rawCells ? { rawCells } : {});
    const provider = result({ verdict: 'valid', confidence: '97', street: '=cmd|" /C calc"!A0', houseNumber: '+1', city: '@Town', lat: '-33.8688', lng: '-70.25', provider: 'photon' });
    for (const note of ['=HYPERLINK("http://evil.example","x")', '+31 20 555', '-3.5', '@SUM(A1)', '\tindent', '\rreturn', 'a=b', '']) await writer.write(['Ann', note], provider);
    await writer.close();
  };

  it('prefixes every CSV cell that begins with = + - @ tab or CR with a quote, customer or provider, header included; its own coordinates stay numbers', async () => {
    const file = path.join(tmp(), 'out.csv');
    await write(file, 'csv');
    const [header, ...rows] = parse(readFileSync(file, 'utf8'), { relax_quotes: true }) as string[][];
    expect(header?.slice(0, 2)).toEqual(["'=name", 'note']);
    expect(rows.map((r) => r[1])).toEqual(["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+31 20 555", "'-3.5", "'@SUM(A1)", "'\tindent", "'\rreturn", 'a=b', '']);
    const at = (c: string) => header!.indexOf(c);
    expect([rows[0]![at('street')], rows[0]![at('houseNumber')], rows[0]![at('city')]]).toEqual(["'=cmd|\" /C calc\"!A0", "'+1", "'@Town"]);
    expect([rows[0]![at('lat')], rows[0]![at('lng')], rows[0]![at('confidence')]]).toEqual(['-33.8688', '-70.25', '97']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes cells unchanged with rawCells, and JSON Lines (data for programs) as they are', async () => {
    const raw = path.join(tmp(), 'raw.csv');
    await write(raw, 'csv', true);
    const [header, ...rows] = parse(readFileSync(raw, 'utf8')) as string[][];
    expect(header?.[0]).toBe('=name');
    expect(rows[0]?.[1]).toBe('=HYPERLINK("http://evil.example","x")');
    const jsonl = path.join(tmp(), 'out.jsonl');
    await write(jsonl, 'jsonl');
    const first = JSON.parse(readFileSync(jsonl, 'utf8').split('\n')[0]!) as Record<string, string>;
    expect(first).toMatchObject({ '=name': 'Ann', note: '=HYPERLINK("http://evil.example","x")', street: '=cmd|" /C calc"!A0' });
  });

  it('tightens an output file that existed with a looser mode', async () => {
    const file = path.join(tmp(), 'old.csv');
    writeFileSync(file, 'old', { mode: 0o644 });
    await write(file, 'csv');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
