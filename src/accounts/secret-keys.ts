import type { Kysely } from 'kysely';
import type { Environment } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import type { Sealer } from '../lib/seal.js';
import { utcTimestamp } from '../lib/time.js';
import type { Change } from '../store/changes/index.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { NotFoundError } from './accounts.js';

/** `ak_live_` / `ak_test_` + 32 random bytes in base64url (43 characters). Anything else is malformed. */
export const SECRET_KEY_PATTERN = /^ak_(live|test)_[A-Za-z0-9_-]{43}$/;

export interface SecretKeyInfo {
  id: string;
  accountId: string;
  env: Environment;
  name: string | null;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface VerifiedKey {
  keyId: string;
  accountId: string;
  env: Environment;
}

export type KeyCheck = { ok: true; key: VerifiedKey } | { ok: false; reason: 'malformed' | 'unknown' };

type Row = DatabaseSchema['api_keys'];

const toInfo = (row: Row): SecretKeyInfo => ({
  id: row.id,
  accountId: row.account_id,
  env: row.env as Environment,
  name: row.name,
  prefix: row.key_prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/** "Last used" is shown to the minute: one write per key per minute at most, not one per request. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Every method that takes a key id also takes an optional `accountId`: the console passes its
 * account, so another account's key answers NotFound exactly like an id that does not exist.
 */
export class SecretKeyStore {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    /** Told after a revocation, so cached credentials everywhere drop it (Authenticator). */
    private readonly onChange: (change: Change) => void = () => undefined,
  ) {}

  async create(accountId: string, env: Environment, name?: string): Promise<SecretKeyInfo & { key: string }> {
    const account = await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new NotFoundError('account', accountId);
    const key = `ak_${env}_${randomToken(32)}`;
    const row: Row = {
      id: newId('key'),
      account_id: accountId,
      env,
      name: name ?? null,
      key_hash: sha256Hex(key),
      key_sealed: this.sealer.seal(key, 'api_key'),
      key_prefix: `${key.slice(0, 12)}…`,
      created_at: utcTimestamp(this.clock.now()),
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { ...toInfo(row), key };
  }

  async list(accountId: string): Promise<SecretKeyInfo[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toInfo);
  }

  async reveal(keyId: string, accountId?: string): Promise<{ id: string; key: string }> {
    const row = await this.row(keyId, accountId);
    const key = row ? this.sealer.open(row.key_sealed, 'api_key') : null;
    if (!row || !key) throw new NotFoundError('key', keyId);
    return { id: row.id, key };
  }

  async rename(keyId: string, name: string, accountId?: string): Promise<SecretKeyInfo> {
    await this.info(keyId, accountId);
    await this.db.updateTable('api_keys').set({ name }).where('id', '=', keyId).execute();
    return this.info(keyId);
  }

  async revoke(keyId: string, accountId?: string): Promise<SecretKeyInfo> {
    const current = await this.info(keyId, accountId);
    if (!current.revokedAt) {
      await this.db
        .updateTable('api_keys')
        .set({ revoked_at: utcTimestamp(this.clock.now()) })
        .where('id', '=', keyId)
        .execute();
      this.onChange({ topic: 'credentials', id: current.accountId });
    }
    return this.info(keyId);
  }

  async info(keyId: string, accountId?: string): Promise<SecretKeyInfo> {
    const row = await this.row(keyId, accountId);
    if (!row) throw new NotFoundError('key', keyId);
    return toInfo(row);
  }

  private row(keyId: string, accountId: string | undefined): Promise<Row | undefined> {
    let query = this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return query.executeTakeFirst();
  }

  /**
   * Records that a key was used, at most once a minute per key and process. Requests do not wait
   * for it (the promise never rejects); a failed write only costs a slightly older "last used".
   */
  touch(keyId: string, onError: (error: unknown) => void): Promise<void> {
    const now = this.clock.now();
    if (now - (this.touched.get(keyId) ?? -Infinity) < LAST_USED_EVERY_MS) return Promise.resolve();
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(keyId, now);
    return this.db
      .updateTable('api_keys')
      .set({ last_used_at: utcTimestamp(now) })
      .where('id', '=', keyId)
      .execute()
      .then(() => undefined, onError);
  }

  /**
   * Look-up by SHA-256 digest: the database compares digests, never the key, so timing reveals
   * nothing about stored keys. Revoked keys are `unknown`, as SPEC's one 401 text covers both.
   */
  async verify(presented: string): Promise<KeyCheck> {
    if (!SECRET_KEY_PATTERN.test(presented)) return { ok: false, reason: 'malformed' };
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'env', 'revoked_at'])
      .where('key_hash', '=', sha256Hex(presented))
      .executeTakeFirst();
    if (!row || row.revoked_at) return { ok: false, reason: 'unknown' };
    return { ok: true, key: { keyId: row.id, accountId: row.account_id, env: row.env as Environment } };
  }
}
