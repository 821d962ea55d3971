/**
 * The goal tables `bench:scale` and `bench:list` end with: one row per measured figure, the two
 * stores side by side, the goal as a column and a met/missed mark per cell; and, given a saved
 * earlier run, the same rows as `before → after`. Pure formatting over figures already taken
 * (test/bench/goal-table.test.ts runs it on recorded inputs), so a bench only says which
 * figures it has.
 */

export const STORES = ['sqlite', 'postgres'] as const;
export type Store = (typeof STORES)[number];
const STORE_NAMES: Record<Store, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** One figure of both stores, with the goal each must meet. */
export interface GoalRow {
  label: string;
  /** The goal as printed in the table's goal column. */
  goal: string;
  /** The figure per store; absent when that store was not run (or an older record lacks it). */
  values: Partial<Record<Store, number>>;
  format: (x: number) => string;
  met: (store: Store, x: number) => boolean;
}

const cell = (row: GoalRow, x: number | undefined) => (x === undefined ? '—' : row.format(x));
const mark = (row: GoalRow, store: Store, x: number | undefined) => (x === undefined ? '' : row.met(store, x) ? ' met' : ' **missed**');
const table = (header: string[], body: string[][]) => [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)];

/** Markdown table: the figure of each store run, with its mark, beside the goal. */
export function sideBySide(rows: readonly GoalRow[], stores: readonly Store[] = STORES): string[] {
  return table(
    ['', ...stores.map((s) => STORE_NAMES[s]), 'goal'],
    rows.map((row) => [row.label, ...stores.map((s) => `${cell(row, row.values[s])}${mark(row, s, row.values[s])}`), row.goal]),
  );
}

/**
 * Markdown table of the rows of `after` as `before → after` (rows matched by label), the mark
 * on the after figure; a row or store the earlier record lacks shows `—` on its side.
 */
export function beforeAfter(before: readonly GoalRow[], after: readonly GoalRow[], stores: readonly Store[] = STORES): string[] {
  const earlier = new Map(before.map((r) => [r.label, r]));
  return table(
    ['', ...stores.map((s) => `${STORE_NAMES[s]} before → after`), 'goal'],
    after.map((row) => {
      const b = earlier.get(row.label);
      return [row.label, ...stores.map((s) => `${b ? cell(b, b.values[s]) : '—'} → ${cell(row, row.values[s])}${mark(row, s, row.values[s])}`), row.goal];
    }),
  );
}

/**
 * What a bench prints at its end: the line naming the run, its side-by-side table, and given an
 * earlier record, the line naming that one and the before → after table. `describe` gives a
 * record's line and goal rows.
 */
export function goalReport<R>(describe: (record: R) => { heading: string; rows: GoalRow[] }, record: R, before: R | undefined, stores: readonly Store[]): string[] {
  const now = describe(record);
  const out = ['', now.heading, ...sideBySide(now.rows, stores)];
  if (before === undefined) return out;
  const then = describe(before);
  return [...out, '', `before: ${then.heading}`, ...beforeAfter(then.rows, now.rows, stores)];
}

/**
 * The stores a `--store` flag names, in run order: `both` (the default), `sqlite`, `postgres`,
 * or a list joined by `,` or `|` (the older `--only sqlite|postgres`).
 */
export function storesFrom(flag: string | undefined): Store[] {
  if (flag === undefined || flag === 'both') return [...STORES];
  const named = flag.split(/[,|]/);
  const unknown = named.filter((s) => !(STORES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`--store must be sqlite, postgres or both, not ${flag}`);
  return STORES.filter((s) => named.includes(s));
}

/** A saved record's commit, time and load average, for the line above its table. */
export function recordStamp(record: { commit: string; at: string; loadavg: readonly number[] }): string {
  return `${record.commit} at ${record.at} (load ${record.loadavg.map((x) => x.toFixed(2)).join(' ')})`;
}

export const perSecond = (x: number) => `${Math.round(x).toLocaleString('en')}/s`;
export const mebibytes = (b: number) => `${Math.round(b / 1024 / 1024).toLocaleString('en')} MiB`;
export const milliseconds = (x: number) => `${x.toFixed(1)} ms`;
