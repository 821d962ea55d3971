import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { NotFoundError } from './accounts.js';
import { normalizeEmail } from './people.js';

/** An invite is good for a week, once. */
export const INVITE_LIFETIME_MS = 7 * 86_400_000;

export interface Invite {
  id: string;
  accountId: string;
  email: string;
  expiresAt: string;
}

/** One-time invitations of an email into an existing account (the operator's `addressd invite`). */
export class InviteStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly clock: Clock,
  ) {}

  /** Returns the code in clear this once; only its SHA-256 is stored. */
  async create(accountId: string, email: string): Promise<Invite & { code: string }> {
    const account = await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new NotFoundError('account', accountId);
    const now = this.clock.now();
    const code = `inv_${randomToken(24)}`;
    const invite = { id: newId('inv'), accountId, email: normalizeEmail(email), expiresAt: utcTimestamp(now + INVITE_LIFETIME_MS) };
    await this.db
      .insertInto('invites')
      .values({
        id: invite.id,
        account_id: accountId,
        email: invite.email,
        code_hash: sha256Hex(code),
        created_at: utcTimestamp(now),
        expires_at: invite.expiresAt,
        used_at: null,
      })
      .execute();
    return { ...invite, code };
  }

  /** The open invite behind a code; used, expired or unknown codes are all null. */
  async find(code: string | undefined): Promise<Invite | null> {
    if (!code || !/^inv_[A-Za-z0-9_-]{32}$/.test(code)) return null;
    const row = await this.db
      .selectFrom('invites')
      .selectAll()
      .where('code_hash', '=', sha256Hex(code))
      .where('used_at', 'is', null)
      .where('expires_at', '>', utcTimestamp(this.clock.now()))
      .executeTakeFirst();
    return row ? { id: row.id, accountId: row.account_id, email: row.email, expiresAt: row.expires_at } : null;
  }

  /** Marks an invite used; false when another request used it first. */
  async consume(inviteId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invites')
      .set({ used_at: utcTimestamp(this.clock.now()) })
      .where('id', '=', inviteId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
