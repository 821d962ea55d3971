import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock.js';
import { randomToken, sha256Hex } from '../lib/ids.js';
import { utcTimestamp } from '../lib/time.js';
import type { DatabaseSchema } from '../store/db/schema.js';

export interface ConsoleSession {
  personId: string;
  accountId: string;
  csrfToken: string;
  expiresAt: string;
}

/** A one-time notice carried to the next page (post/redirect/get). */
export type Flash =
  | { kind: 'keys'; keyIds: string[]; message: string }
  | { kind: 'notice'; message: string }
  | { kind: 'error'; message: string };

/**
 * Server-side console sessions in the main database, so every instance behind a load balancer
 * sees the same ones. The cookie carries 32 random bytes; the table keeps only their SHA-256,
 * so a copy of the database opens no session. A new id is issued at every log-in (fixation).
 */
export class SessionStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
  ) {}

  async create(personId: string, accountId: string): Promise<{ id: string; session: ConsoleSession }> {
    const now = this.clock.now();
    // Expired rows of everyone go on the way: sessions never pile up without a sweeper.
    await this.db.deleteFrom('console_sessions').where('expires_at', '<=', utcTimestamp(now)).execute();
    const id = randomToken(32);
    const session = { personId, accountId, csrfToken: randomToken(32), expiresAt: utcTimestamp(now + this.lifetimeMs) };
    await this.db
      .insertInto('console_sessions')
      .values({
        id_hash: sha256Hex(id),
        person_id: personId,
        account_id: accountId,
        csrf_token: session.csrfToken,
        flash: null,
        created_at: utcTimestamp(now),
        expires_at: session.expiresAt,
      })
      .execute();
    return { id, session };
  }

  async find(id: string | undefined): Promise<ConsoleSession | null> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const row = await this.db
      .selectFrom('console_sessions')
      .select(['person_id', 'account_id', 'csrf_token', 'expires_at'])
      .where('id_hash', '=', sha256Hex(id))
      .where('expires_at', '>', utcTimestamp(this.clock.now()))
      .executeTakeFirst();
    return row ? { personId: row.person_id, accountId: row.account_id, csrfToken: row.csrf_token, expiresAt: row.expires_at } : null;
  }

  async destroy(id: string | undefined): Promise<void> {
    if (id) await this.db.deleteFrom('console_sessions').where('id_hash', '=', sha256Hex(id)).execute();
  }

  async switchAccount(id: string, accountId: string): Promise<void> {
    await this.db.updateTable('console_sessions').set({ account_id: accountId, flash: null }).where('id_hash', '=', sha256Hex(id)).execute();
  }

  async setFlash(id: string, flash: Flash): Promise<void> {
    await this.db.updateTable('console_sessions').set({ flash: JSON.stringify(flash) }).where('id_hash', '=', sha256Hex(id)).execute();
  }

  /** Reads and clears the notice in one step, so a reload never shows a key in clear again. */
  async takeFlash(id: string): Promise<Flash | null> {
    const hash = sha256Hex(id);
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('console_sessions').select('flash').where('id_hash', '=', hash).executeTakeFirst();
      if (!row?.flash) return null;
      await trx.updateTable('console_sessions').set({ flash: null }).where('id_hash', '=', hash).execute();
      return JSON.parse(row.flash) as Flash;
    });
  }
}

/** Constant-time equality of two tokens (CSRF): different lengths are simply unequal. */
export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
