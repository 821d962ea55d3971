import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { beforeAfter, goalReport, sideBySide, storesFrom } from '../../bench/goal-table.js';
import { listGoalRows, listHeading, type ListRecord } from '../../bench/list/record.js';
import { scaleGoalRows, type Run, type ScaleRecord } from '../../bench/scale/record.js';
import type { Latency } from '../../bench/scale/queries.js';

/**
 * The tables `bench:scale` and `bench:list` end with are what an operator reads a run by: each
 * store's figure under its name, the goal beside it, met or missed per cell, and with a saved
 * earlier run the before → after. Run here on recorded inputs: a saved record of this repository
 * (bench/results/scale-10m-osm.json, from before the pooled figures were kept) and small records
 * shaped as the benches write them. No timing is measured.
 */

const lat = (p99: number): Latency => ({ n: 300, p50: p99 / 2, p99, max: p99 * 1.5, right: 1 });
const classes = (p99: number) => ({ rare: lat(p99), common: lat(p99), 'most common': lat(p99) });

function osmRun(store: Run['store'], rate: number, rssMiB: number, validateP99: number, streetNumberP99: number): Run {
  return {
    store,
    source: 'osm',
    addresses: 2_000_000,
    towns: 1_200,
    importSeconds: 2_000_000 / rate,
    rate,
    peakRssBytes: rssMiB * 1024 * 1024,
    diskBytes: 1,
    queries: { validate: classes(validateP99 + 1), autocomplete: classes(3), validateAll: lat(validateP99), streetNumber: lat(streetNumberP99) },
  };
}

// The issue's own table, as a record the bench would have saved.
const after: ScaleRecord = {
  at: '2026-11-27T09:00:00.000Z',
  commit: 'abc1234',
  loadavg: [0.5, 0.6, 0.7],
  runs: [osmRun('sqlite', 34_700, 734, 7.3, 6.5), osmRun('postgres', 19_400, 709, 11.7, 11.9)],
};
const recorded = JSON.parse(readFileSync(new URL('../../bench/results/scale-10m-osm.json', import.meta.url), 'utf8')) as ScaleRecord;

describe('bench:scale goal table', () => {
  it('puts both stores side by side with the goal and a mark per cell', () => {
    expect(sideBySide(scaleGoalRows(after))).toEqual([
      '|  | SQLite | PostgreSQL | goal |',
      '|---|---|---|---|',
      '| OSM import, addresses/s with `--update` state | 34,700/s **missed** | 19,400/s **missed** | ≥ 50,000/s |',
      '| OSM import, peak RSS | 734 MiB met | 709 MiB met | ≤ 1.5 GiB |',
      '| validate p99, one at a time over HTTP | 7.3 ms met | 11.7 ms **missed** | ≤ 10 ms |',
      '| autocomplete p99 ("street number") | 6.5 ms **missed** | 11.9 ms **missed** | ≤ 5 ms |',
    ]);
  });

  it('shows only the stores that ran', () => {
    const sqliteOnly: ScaleRecord = { ...after, runs: after.runs.filter((r) => r.store === 'sqlite') };
    const table = sideBySide(scaleGoalRows(sqliteOnly), ['sqlite']);
    expect(table[0]).toBe('|  | SQLite | goal |');
    expect(table[4]).toBe('| validate p99, one at a time over HTTP | 7.3 ms met | ≤ 10 ms |');
  });

  it('reads a record saved before the pooled figures: validate is the worst class, street number unknown', () => {
    const rows = scaleGoalRows(recorded);
    const validate = rows.find((r) => r.label.startsWith('validate'))!;
    // scale-10m-osm.json: SQLite classes 6.81 / 7.28 / 6.78 ms, PostgreSQL 14.33 / 16.04 / 11.95 ms.
    expect(validate.values.sqlite).toBeCloseTo(7.28, 1);
    expect(validate.values.postgres).toBeCloseTo(16.04, 1);
    const table = sideBySide(rows);
    expect(table).toContain('| autocomplete p99 ("street number") | — | — | ≤ 5 ms |');
    expect(table).toContain('| OSM import, peak RSS | 1,070 MiB met | 1,149 MiB met | ≤ 1.5 GiB |');
  });

  it('compares a saved run with this one as before → after, marking the after figure', () => {
    expect(beforeAfter(scaleGoalRows(recorded), scaleGoalRows(after))).toEqual([
      '|  | SQLite before → after | PostgreSQL before → after | goal |',
      '|---|---|---|---|',
      '| OSM import, addresses/s with `--update` state | 25,208/s → 34,700/s **missed** | 14,306/s → 19,400/s **missed** | ≥ 50,000/s |',
      '| OSM import, peak RSS | 1,070 MiB → 734 MiB met | 1,149 MiB → 709 MiB met | ≤ 1.5 GiB |',
      '| validate p99, one at a time over HTTP | 7.3 ms → 7.3 ms met | 16.0 ms → 11.7 ms **missed** | ≤ 10 ms |',
      '| autocomplete p99 ("street number") | — → 6.5 ms **missed** | — → 11.9 ms **missed** | ≤ 5 ms |',
    ]);
  });

  it('adds the CSV import row when the run had a CSV source, and a row the earlier run lacks shows —', () => {
    const csv: Run = { ...osmRun('sqlite', 137_515, 550, 6, 4), source: 'csv' };
    const both: ScaleRecord = { ...after, runs: [...after.runs, csv] };
    const table = beforeAfter(scaleGoalRows(after), scaleGoalRows(both));
    expect(table).toContain('| CSV import, addresses/s | — → 137,515/s met | — → — | ≥ 100,000/s |');
  });
});

describe('bench:list goal table', () => {
  const list = (sqlite: number, postgres: number): ListRecord => ({
    at: '2026-11-27T09:00:00.000Z',
    commit: 'abc1234',
    loadavg: [0.5, 0.6, 0.7],
    rows: 40_000,
    index: 10_000_000,
    runs: [
      { store: 'sqlite', workers: 'default', rows: 40_000, seconds: 40_000 / sqlite, rate: sqlite, cpuMsPerRow: 0.3, peakRssBytes: 1 },
      { store: 'postgres', workers: 'default', rows: 40_000, seconds: 40_000 / postgres, rate: postgres, cpuMsPerRow: 0.5, peakRssBytes: 1 },
    ],
  });

  it('holds each store to its own goal', () => {
    expect(sideBySide(listGoalRows(list(3_000, 3_000))).at(-1)).toBe(
      '| customer list (`addressd validate`), rows/s incl. start-up | 3,000/s **missed** | 3,000/s met | ≥ 5,000 / ≥ 2,000 |',
    );
  });

  it('gives each --workers value its row, and compares with a saved run', () => {
    const before = list(3_769, 1_152);
    const now = list(5_100, 2_050);
    now.runs.push({ ...now.runs[0]!, workers: '2', rate: 4_000 });
    const table = beforeAfter(listGoalRows(before), listGoalRows(now));
    expect(table.slice(2)).toEqual([
      '| customer list (`addressd validate`), rows/s incl. start-up | 3,769/s → 5,100/s met | 1,152/s → 2,050/s met | ≥ 5,000 / ≥ 2,000 |',
      '| customer list (`addressd validate` --workers 2), rows/s incl. start-up | — → 4,000/s **missed** | — → — | ≥ 5,000 / ≥ 2,000 |',
    ]);
  });

  it('ends a run with its table, and with --compare the saved run named above the before → after table', () => {
    const describe = (r: ListRecord) => ({ heading: listHeading(r), rows: listGoalRows(r) });
    const now = { ...list(5_100, 2_050), commit: 'def5678' };
    expect(goalReport(describe, now, undefined, ['sqlite', 'postgres'])).toHaveLength(5);
    const report = goalReport(describe, now, list(3_769, 1_152), ['sqlite', 'postgres']);
    expect(report[1]).toBe('def5678 at 2026-11-27T09:00:00.000Z (load 0.50 0.60 0.70): 40,000 rows against an index of 10,000,000 addresses');
    expect(report[6]).toBe('before: abc1234 at 2026-11-27T09:00:00.000Z (load 0.50 0.60 0.70): 40,000 rows against an index of 10,000,000 addresses');
    expect(report.at(-1)).toContain('3,769/s → 5,100/s met');
  });
});

describe('--store', () => {
  it('runs both stores by default, one when named, and refuses anything else', () => {
    expect(storesFrom(undefined)).toEqual(['sqlite', 'postgres']);
    expect(storesFrom('both')).toEqual(['sqlite', 'postgres']);
    expect(storesFrom('postgres')).toEqual(['postgres']);
    expect(storesFrom('postgres|sqlite')).toEqual(['sqlite', 'postgres']);
    expect(() => storesFrom('mysql')).toThrow(/--store/);
  });
});
