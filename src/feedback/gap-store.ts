import type { Kysely, Transaction } from 'kysely';
import { sha256Hex } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema, FeedbackGapsTable } from '../store/db/schema.js';
import { GAP_FIELDS, type GapAddress, type GapField, type GapFields, type GapKind } from './gap-rule.js';

/** One index gap as `addressd gaps` and the console list it. */
export interface GapRow {
  kind: GapKind;
  country: string;
  typed: GapFields;
  read: GapFields;
  count: number;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  firstSeen: string;
  lastSeen: string;
}

export interface GapFilter {
  /** One account's gaps (the console); every account's, merged, when absent (the operator's CLI). */
  accountId?: string;
  /** ISO alpha-2, upper case. */
  country?: string;
  /** Seen on or after this UTC day (`YYYY-MM-DD`). */
  since?: string;
  limit?: number;
}

const COLUMN: Record<GapField, 'street' | 'house_number' | 'postcode' | 'city' | 'country'> = {
  street: 'street',
  houseNumber: 'house_number',
  postcode: 'postcode',
  city: 'city',
  country: 'country',
};
type Side = 'typed' | 'read';
const column = (side: Side, field: GapField) => `${side}_${COLUMN[field]}` as const;

/** Spelling differences alone (case, spacing) are one gap. */
const normal = (v: string | undefined) => (v ?? '').normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Index gaps (issue 29 item 4), deduplicated per account by the normalized address typed and read,
 * with a count and first and last seen. Kept until FEEDBACK_RETENTION_DAYS after last seen.
 */
export class GapStore {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** One more customer insisted on this address; in the feedback's transaction. */
  async add(trx: Transaction<DatabaseSchema>, accountId: string, gap: GapAddress, now: number): Promise<void> {
    const key = sha256Hex(JSON.stringify([gap.kind, ...GAP_FIELDS.map((f) => normal(gap.typed[f])), ...GAP_FIELDS.map((f) => normal(gap.read[f]))]));
    const at = utcTimestamp(now);
    const row: FeedbackGapsTable = {
      account_id: accountId,
      gap_key: key,
      kind: gap.kind,
      country: (gap.typed.country ?? gap.read.country ?? '').toUpperCase(),
      typed_street: null,
      typed_house_number: null,
      typed_postcode: null,
      typed_city: null,
      typed_country: null,
      read_street: null,
      read_house_number: null,
      read_postcode: null,
      read_city: null,
      read_country: null,
      count: 1,
      first_seen: at,
      last_seen: at,
    };
    for (const side of ['typed', 'read'] as const) for (const f of GAP_FIELDS) row[column(side, f)] = gap[side][f] ?? null;
    await trx
      .insertInto('feedback_gaps')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['account_id', 'gap_key']).doUpdateSet((eb) => ({ count: eb('feedback_gaps.count', '+', 1), last_seen: eb.ref('excluded.last_seen') })),
      )
      .execute();
  }

  /** Most frequent first (then most recent), never one last seen before `keptSince` (UTC timestamp). */
  async list(filter: GapFilter, keptSince: string): Promise<GapRow[]> {
    const sides = (['typed', 'read'] as const).flatMap((side) => GAP_FIELDS.map((f) => column(side, f)));
    const rows = await this.db
      .selectFrom('feedback_gaps')
      .where('last_seen', '>=', keptSince)
      .$if(filter.accountId !== undefined, (qb) => qb.where('account_id', '=', filter.accountId as string))
      .$if(filter.country !== undefined, (qb) => qb.where('country', '=', filter.country as string))
      .$if(filter.since !== undefined, (qb) => qb.where('last_seen', '>=', filter.since as string))
      .select(({ fn }) => [
        'gap_key',
        fn.max('kind').as('kind'),
        fn.max('country').as('country'),
        ...sides.map((c) => fn.max(c).as(c)),
        fn.sum('count').as('count'),
        fn.min('first_seen').as('first_seen'),
        fn.max('last_seen').as('last_seen'),
      ])
      .groupBy('gap_key')
      .execute();
    // Ordered here, so SQLite and PostgreSQL list alike.
    const gaps = rows.map((r) => {
      const record = r as unknown as Record<string, string | null>;
      const side = (s: Side): GapFields => {
        const out: GapFields = {};
        for (const f of GAP_FIELDS) {
          const v = record[column(s, f)];
          if (v) out[f] = v;
        }
        return out;
      };
      return {
        key: r.gap_key,
        row: {
          kind: r.kind as GapKind,
          country: r.country,
          typed: side('typed'),
          read: side('read'),
          count: Number(r.count),
          firstSeen: r.first_seen,
          lastSeen: r.last_seen,
        } satisfies GapRow,
      };
    });
    gaps.sort((a, b) => b.row.count - a.row.count || cmp(b.row.lastSeen, a.row.lastSeen) || cmp(a.key, b.key));
    return gaps.slice(0, filter.limit ?? gaps.length).map((g) => g.row);
  }

  /** Gaps not seen since `cutoff` (UTC timestamp) go: they hold addresses people typed. */
  async purge(cutoff: string): Promise<number> {
    const result = await this.db.deleteFrom('feedback_gaps').where('last_seen', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
