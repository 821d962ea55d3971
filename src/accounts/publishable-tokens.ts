import type { Kysely } from 'kysely';
import type { Environment } from '../contract/enums.js';
import type { Clock } from '../lib/clock.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import type { Sealer } from '../lib/seal.js';
import { utcTimestamp } from '../lib/time.js';
import type { Change } from '../store/changes/index.js';
import type { DatabaseSchema } from '../store/db/schema.js';
import { NotFoundError } from './accounts.js';
import { parseExactHttpsOrigin } from './origins.js';

export const PUBLISHABLE_TOKEN_PATTERN = /^svc_pk_(live|test)_[A-Za-z0-9_-]{32}$/;

export interface TokenInfo {
  id: string;
  accountId: string;
  env: Environment;
  token: string;
  origins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface VerifiedToken {
  tokenId: string;
  accountId: string;
  env: Environment;
  origin: string;
}

export class InvalidOriginError extends Error {
  constructor(origin: string) {
    super(`Not an exact HTTPS origin: ${origin} (expected https://host[:port], no path, no wildcard)`);
    this.name = 'InvalidOriginError';
  }
}

export class PublishableTokenStore {
  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    /** Told after a revocation or an allowlist change, so cached credentials everywhere drop it. */
    private readonly onChange: (change: Change) => void = () => undefined,
  ) {}

  async create(accountId: string, env: Environment, origins: string[]): Promise<TokenInfo> {
    const unique = allowlist(origins);
    const account = await this.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw new NotFoundError('account', accountId);
    const token = `svc_pk_${env}_${randomToken(24)}`;
    const id = newId('tok');
    const createdAt = utcTimestamp(this.clock.now());
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('publishable_tokens')
        .values({
          id,
          account_id: accountId,
          env,
          token_hash: sha256Hex(token),
          token_sealed: this.sealer.seal(token, 'publishable_token'),
          created_at: createdAt,
          revoked_at: null,
        })
        .execute();
      await trx
        .insertInto('token_origins')
        .values(unique.map((origin) => ({ token_id: id, origin })))
        .execute();
    });
    return { id, accountId, env, token, origins: unique, createdAt, revokedAt: null };
  }

  async list(accountId: string): Promise<TokenInfo[]> {
    const rows = await this.db
      .selectFrom('publishable_tokens')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return this.withOrigins(rows);
  }

  /** One token; with `accountId`, another account's token is NotFound like an unknown id. */
  async get(tokenId: string, accountId?: string): Promise<TokenInfo> {
    let query = this.db.selectFrom('publishable_tokens').selectAll().where('id', '=', tokenId);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const row = await query.executeTakeFirst();
    if (!row) throw new NotFoundError('token', tokenId);
    return (await this.withOrigins([row]))[0]!;
  }

  /** Replaces a token's allowlist (validated exactly as at creation) in one transaction. */
  async setOrigins(tokenId: string, origins: string[], accountId?: string): Promise<TokenInfo> {
    const unique = allowlist(origins);
    const token = await this.get(tokenId, accountId);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('token_origins').where('token_id', '=', tokenId).execute();
      await trx
        .insertInto('token_origins')
        .values(unique.map((origin) => ({ token_id: tokenId, origin })))
        .execute();
    });
    this.onChange({ topic: 'credentials', id: token.accountId });
    return this.get(tokenId);
  }

  async revoke(tokenId: string, accountId?: string): Promise<{ id: string; revokedAt: string }> {
    const token = await this.get(tokenId, accountId);
    const revokedAt = token.revokedAt ?? utcTimestamp(this.clock.now());
    if (!token.revokedAt) {
      await this.db.updateTable('publishable_tokens').set({ revoked_at: revokedAt }).where('id', '=', tokenId).execute();
      this.onChange({ topic: 'credentials', id: token.accountId });
    }
    return { id: tokenId, revokedAt };
  }

  private async withOrigins(rows: Array<DatabaseSchema['publishable_tokens']>): Promise<TokenInfo[]> {
    const origins = rows.length
      ? await this.db
          .selectFrom('token_origins')
          .selectAll()
          .where(
            'token_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('origin')
          .execute()
      : [];
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      env: row.env as Environment,
      token: this.sealer.open(row.token_sealed, 'publishable_token') ?? '',
      origins: origins.filter((o) => o.token_id === row.id).map((o) => o.origin),
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
    }));
  }

  /** Token + exact origin → the token's account, or null (one 401 text covers every failure). */
  async verify(presented: string, origin: string): Promise<VerifiedToken | null> {
    if (!PUBLISHABLE_TOKEN_PATTERN.test(presented)) return null;
    const row = await this.db
      .selectFrom('publishable_tokens')
      .innerJoin('token_origins', 'token_origins.token_id', 'publishable_tokens.id')
      .select(['publishable_tokens.id', 'publishable_tokens.account_id', 'publishable_tokens.env'])
      .where('publishable_tokens.token_hash', '=', sha256Hex(presented))
      .where('publishable_tokens.revoked_at', 'is', null)
      .where('token_origins.origin', '=', origin)
      .executeTakeFirst();
    if (!row) return null;
    return { tokenId: row.id, accountId: row.account_id, env: row.env as Environment, origin };
  }

  /** Preflight: is this origin on any active token's allowlist? */
  async originAllowed(origin: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('token_origins')
      .innerJoin('publishable_tokens', 'publishable_tokens.id', 'token_origins.token_id')
      .select('token_origins.token_id')
      .where('token_origins.origin', '=', origin)
      .where('publishable_tokens.revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }
}

/**
 * A token's allowlist: at least one origin, each an exact HTTPS origin written canonically
 * (`https://EXAMPLE.com:443` is refused, not silently rewritten), duplicates dropped.
 */
export function allowlist(origins: string[]): string[] {
  if (origins.length === 0) throw new InvalidOriginError('(none given)');
  for (const origin of origins) {
    if (parseExactHttpsOrigin(origin) !== origin) throw new InvalidOriginError(origin);
  }
  return [...new Set(origins)];
}
