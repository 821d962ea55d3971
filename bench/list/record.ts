import { perSecond, recordStamp, type GoalRow, type Store } from '../goal-table.js';

/** Issue #30's goal for `addressd validate` on a customer list, start-up included. */
export const LIST_TARGETS: Record<Store, number> = { sqlite: 5_000, postgres: 2_000 };

/** One `addressd validate` of the list on one store with one `--workers` value. */
export interface ListRun {
  store: Store;
  /** The `--workers` given, or `default` (the command's own). */
  workers: string;
  rows: number;
  /** Wall time of the whole command, start-up included. */
  seconds: number;
  rate: number;
  cpuMsPerRow: number;
  peakRssBytes: number;
}

/** What `bench:list --save FILE` writes and `--compare FILE` reads (the scale record's shape). */
export interface ListRecord {
  at: string;
  commit: string;
  loadavg: number[];
  /** Rows of the list and addresses of the index it was drawn from. */
  rows: number;
  index: number;
  runs: ListRun[];
}

/** One goal row per `--workers` value, both stores side by side. */
export function listGoalRows(record: ListRecord): GoalRow[] {
  const workers = [...new Set(record.runs.map((r) => r.workers))];
  return workers.map((w) => {
    const values: GoalRow['values'] = {};
    for (const r of record.runs) if (r.workers === w) values[r.store] = r.rate;
    return {
      label: `customer list (\`addressd validate\`${w === 'default' ? '' : ` --workers ${w}`}), rows/s incl. start-up`,
      goal: `≥ ${LIST_TARGETS.sqlite.toLocaleString('en')} / ≥ ${LIST_TARGETS.postgres.toLocaleString('en')}`,
      values,
      format: perSecond,
      met: (store, x) => x >= LIST_TARGETS[store],
    };
  });
}

/** The line above a record's table. */
export function listHeading(record: ListRecord): string {
  return `${recordStamp(record)}: ${record.rows.toLocaleString('en')} rows against an index of ${record.index.toLocaleString('en')} addresses`;
}
