import type { Kysely } from 'kysely';
import type { PlanId } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { Change } from '../store/changes/index.js';
import type { DatabaseSchema } from '../store/db/schema.js';

export interface Account {
  id: string;
  name: string | null;
  plan: PlanId;
  extraCredits: number;
  thresholds: { valid: number; correctable: number };
  createdAt: string;
}

export interface NewAccount {
  plan?: PlanId;
  name?: string;
  extraCredits?: number;
  validThreshold?: number;
  correctableThreshold?: number;
}

export class NotFoundError extends Error {
  constructor(what: string, id: string) {
    super(`Unknown ${what} ${id}`);
    this.name = 'NotFoundError';
  }
}

type Row = DatabaseSchema['accounts'];

function toAccount(row: Row): Account {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanId,
    extraCredits: Number(row.extra_credits),
    thresholds: { valid: Number(row.valid_threshold), correctable: Number(row.correctable_threshold) },
    createdAt: row.created_at,
  };
}

export class AccountStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly clock: Clock,
    /** Told after the plan or extra credits change, so cached accounts and balances follow. */
    private readonly onChange: (change: Change) => void = () => undefined,
  ) {}

  async create(input: NewAccount): Promise<Account> {
    const valid = input.validThreshold ?? 80;
    const correctable = input.correctableThreshold ?? 50;
    if (correctable > valid) throw new RangeError('The correctable threshold cannot exceed the valid threshold');
    const row: Row = {
      id: newId('acc'),
      name: input.name ?? null,
      plan: input.plan ?? 'free',
      extra_credits: input.extraCredits ?? 0,
      valid_threshold: valid,
      correctable_threshold: correctable,
      created_at: utcTimestamp(this.clock.now()),
    };
    await this.db.insertInto('accounts').values(row).execute();
    return toAccount(row);
  }

  async find(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  }

  /** Every account, oldest first (ids sort by creation time). */
  async list(): Promise<Account[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().orderBy('id').execute();
    return rows.map(toAccount);
  }

  async get(id: string): Promise<Account> {
    const account = await this.find(id);
    if (!account) throw new NotFoundError('account', id);
    return account;
  }

  async setPlan(id: string, plan: PlanId): Promise<Account> {
    const result = await this.db.updateTable('accounts').set({ plan }).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('account', id);
    this.onChange({ topic: 'account', id });
    return this.get(id);
  }

  /** Adds purchased extra credits (kept across months, spent after the monthly grant). */
  async addExtraCredits(id: string, amount: number): Promise<Account> {
    const result = await this.db
      .updateTable('accounts')
      .set((eb) => ({ extra_credits: eb('extra_credits', '+', amount) }))
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('account', id);
    this.onChange({ topic: 'account', id });
    return this.get(id);
  }
}
