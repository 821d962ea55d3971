import { mebibytes, milliseconds, perSecond, recordStamp, type GoalRow, type Store } from '../goal-table.js';
import { FREQUENCIES, type Frequency } from './country.js';
import type { Latency, QueryFigures } from './queries.js';

/** Issue #30's goals (the CSV rate and municipality share are the earlier scale work's). */
export const TARGETS = { csvRate: 100_000, osmRate: 50_000, osmRssBytes: 1.5 * 1024 ** 3, autocompleteP99: 5, validateP99: 10, municipality: 0.99, reverseP99: 10 };

/** One store and one source file: the import, then the queries against the service it serves. */
export interface Run {
  store: Store;
  source: 'csv' | 'osm';
  addresses: number;
  towns: number;
  importSeconds: number;
  /** CPU seconds of the import process (user + system): steadier than wall time on a shared machine. */
  importCpuSeconds?: number;
  rate: number;
  peakRssBytes: number;
  diskBytes: number;
  /** In-process geocode per call (ms), by street-name frequency: mean CPU, p50/p99 wall (cpu-process.ts). */
  geocodeCpu?: { [F in Frequency]: { p50: number; p99: number; mean: number } } & { noTown?: { [F in Frequency]: { p50: number; p99: number; mean: number } } };
  queries: QueryFigures;
  /** Reverse look-up over HTTP (issue 35, reverse-queries.ts); absent in records from before it. */
  reverse?: Latency;
}

/** What `bench:scale --save FILE` writes and `--compare FILE` reads. */
export interface ScaleRecord {
  at: string;
  commit: string;
  loadavg: number[];
  runs: Run[];
}

/**
 * A validate figure of a run: the pooled distribution, or in records from before it was kept,
 * the worst class's p99 (never lower than the pooled p99 would have been, so a before figure
 * does not flatter the before).
 */
function validateP99(q: QueryFigures): number {
  return q.validateAll?.p99 ?? Math.max(...FREQUENCIES.map((f) => q.validate[f].p99));
}

const figure = (record: ScaleRecord, source: Run['source'], pick: (r: Run) => number | undefined): GoalRow['values'] => {
  const values: GoalRow['values'] = {};
  for (const r of record.runs) {
    if (r.source !== source) continue;
    const x = pick(r);
    if (x !== undefined) values[r.store] = x;
  }
  return values;
};

/**
 * The goal rows of a scale record. The query rows are those of the OSM run (the issue's
 * country-shaped extract), or of the CSV run when the record has no OSM run. Labels name no
 * size, so runs of different sizes still line up in `beforeAfter` (`scaleHeading` names them).
 */
export function scaleGoalRows(record: ScaleRecord): GoalRow[] {
  const osm = record.runs.some((r) => r.source === 'osm');
  const querySource = osm ? 'osm' : 'csv';
  const rows: GoalRow[] = [];
  if (osm) {
    rows.push(
      { label: `OSM import, addresses/s with \`--update\` state`, goal: `≥ ${perSecond(TARGETS.osmRate)}`, values: figure(record, 'osm', (r) => r.rate), format: perSecond, met: (_, x) => x >= TARGETS.osmRate },
      { label: 'OSM import, peak RSS', goal: '≤ 1.5 GiB', values: figure(record, 'osm', (r) => r.peakRssBytes), format: mebibytes, met: (_, x) => x <= TARGETS.osmRssBytes },
    );
  }
  if (record.runs.some((r) => r.source === 'csv')) {
    rows.push({ label: 'CSV import, addresses/s', goal: `≥ ${perSecond(TARGETS.csvRate)}`, values: figure(record, 'csv', (r) => r.rate), format: perSecond, met: (_, x) => x >= TARGETS.csvRate });
  }
  const latency = (pick: (q: QueryFigures) => Latency | number | undefined) => (r: Run) => {
    const x = pick(r.queries);
    return typeof x === 'number' ? x : x?.p99;
  };
  rows.push(
    { label: 'validate p99, one at a time over HTTP', goal: `≤ ${TARGETS.validateP99} ms`, values: figure(record, querySource, latency(validateP99)), format: milliseconds, met: (_, x) => x <= TARGETS.validateP99 },
    { label: 'autocomplete p99 ("street number")', goal: `≤ ${TARGETS.autocompleteP99} ms`, values: figure(record, querySource, latency((q) => q.streetNumber)), format: milliseconds, met: (_, x) => x <= TARGETS.autocompleteP99 },
  );
  // Records from before reverse look-up (issue 35) have no figure for it: no row, rather than a row of dashes.
  if (record.runs.some((r) => r.reverse)) {
    rows.push({ label: 'reverse look-up p99, one at a time over HTTP', goal: `≤ ${TARGETS.reverseP99} ms`, values: figure(record, querySource, (r) => r.reverse?.p99), format: milliseconds, met: (_, x) => x <= TARGETS.reverseP99 });
  }
  return rows;
}

/** The line above a record's table: what was imported, and where the query rows come from. */
export function scaleHeading(record: ScaleRecord): string {
  const sources = [...new Set(record.runs.map((r) => r.source))].map((source) => {
    const r = record.runs.find((x) => x.source === source)!;
    return `${source.toUpperCase()} ${r.addresses.toLocaleString('en')} addresses, ${r.towns.toLocaleString('en')} municipalities`;
  });
  const queries = record.runs.some((r) => r.source === 'osm') ? 'OSM' : 'CSV';
  return `${recordStamp(record)}: ${sources.join('; ')}; queries against the ${queries} import`;
}
