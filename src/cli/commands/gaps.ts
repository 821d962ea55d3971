import { type Command, InvalidArgumentError } from 'commander';
import { keptSince } from '../../feedback/feedback.js';
import { GAP_FIELDS, type GapFields, gapText } from '../../feedback/gap-rule.js';
import { type GapRow, GapStore } from '../../feedback/gap-store.js';
import { systemClock } from '../../lib/clock.js';
import type { CliContext } from '../context.js';
import { neutralizeCell } from '../bulk/cell-safety.js';

interface GapsOptions {
  country?: string;
  since?: string;
  account?: string;
  csv?: boolean;
}

function countryArg(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not an ISO 3166-1 alpha-2 country code`);
  return value.toUpperCase();
}

function dayArg(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new InvalidArgumentError(`"${value}" is not a date (YYYY-MM-DD)`);
  }
  return value;
}

const CSV_COLUMNS = [
  'count',
  'kind',
  'country',
  ...GAP_FIELDS.map((f) => `typed_${f}`),
  ...GAP_FIELDS.map((f) => `read_${f}`),
  'first_seen',
  'last_seen',
];

/**
 * A CSV cell. Quoted when it must be; and since these are addresses people typed, opened in
 * spreadsheets, a cell that would start a formula (= + - @) is defused with a leading apostrophe.
 */
function cell(value: string | number | undefined): string {
  const text = value === undefined ? '' : typeof value === 'string' ? neutralizeCell(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV's lines: printed one by one, so a cell's control characters are escaped like any other output line. */
function csv(gaps: GapRow[]): string[] {
  const side = (f: GapFields) => GAP_FIELDS.map((k) => f[k]);
  const rows = gaps.map((g) => [g.count, g.kind, g.country, ...side(g.typed), ...side(g.read), g.firstSeen, g.lastSeen].map(cell).join(','));
  return [CSV_COLUMNS.join(','), ...rows];
}

function line(g: GapRow): string {
  const read = gapText(g.read);
  return `${String(g.count).padStart(5)}  ${g.kind === 'street' ? 'no street' : 'no number'}  ${gapText(g.typed)}${read ? `  (we read: ${read})` : ''}  last ${g.lastSeen.slice(0, 10)}`;
}

/**
 * `addressd gaps`: the addresses customers used although the data has no such street or house
 * number (issue 29), most frequent first: what to add to OpenStreetMap or the operator's feed.
 */
export function registerGapsCommand(program: Command, ctx: CliContext): void {
  program
    .command('gaps')
    .description(`index gaps customers revealed: addresses they used that the data lacks, most frequent first (kept FEEDBACK_RETENTION_DAYS)`)
    .option('--country <CC>', 'only this country', countryArg)
    .option('--since <YYYY-MM-DD>', 'only gaps seen on or after this UTC day', dayArg)
    .option('--account <id>', "only this account's (default: every account's, merged)")
    .option('--csv', 'print CSV (a header, then one row per gap)')
    .action(async (opts: GapsOptions) => {
      if (opts.csv && ctx.json()) throw new Error('choose one of --json and --csv');
      const { database } = await ctx.stores('read');
      const gaps = await new GapStore(database.db).list(
        { ...(opts.country ? { country: opts.country } : {}), ...(opts.since ? { since: opts.since } : {}), ...(opts.account ? { accountId: opts.account } : {}) },
        keptSince(systemClock.now(), ctx.config.FEEDBACK_RETENTION_DAYS * 86_400_000),
      );
      if (opts.csv) {
        ctx.out({}, csv(gaps));
        return;
      }
      ctx.out({ gaps }, gaps.length ? gaps.map(line) : ['no index gaps recorded']);
    });
}
