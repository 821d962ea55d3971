import type { Kysely } from 'kysely';
import type { Environment } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import type { Sealer } from '../lib/seal.js';
import { utcTimestamp } from '../lib/time.js';
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
});

export class SecretKeyStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
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

  async reveal(keyId: string): Promise<{ id: string; key: string }> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    const key = row ? this.sealer.open(row.key_sealed, 'api_key') : null;
    if (!row || !key) throw new NotFoundError('key', keyId);
    return { id: row.id, key };
  }

  async rename(keyId: string, name: string): Promise<SecretKeyInfo> {
    const result = await this.db.updateTable('api_keys').set({ name }).where('id', '=', keyId).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new NotFoundError('key', keyId);
    return this.info(keyId);
  }

  async revoke(keyId: string): Promise<SecretKeyInfo> {
    const current = await this.info(keyId);
    if (!current.revokedAt) {
      await this.db
        .updateTable('api_keys')
        .set({ revoked_at: utcTimestamp(this.clock.now()) })
        .where('id', '=', keyId)
        .execute();
    }
    return this.info(keyId);
  }

  private async info(keyId: string): Promise<SecretKeyInfo> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
    if (!row) throw new NotFoundError('key', keyId);
    return toInfo(row);
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
