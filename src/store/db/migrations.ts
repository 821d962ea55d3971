import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './dialect.js';

/**
 * Migrations in code (no files to ship), written once with Kysely's schema builder so they run
 * on SQLite and PostgreSQL alike. Append new ones; never edit a released one.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  const autoId = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('accounts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text')
          .addColumn('plan', 'text', (c) => c.notNull())
          .addColumn('extra_credits', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('valid_threshold', 'integer', (c) => c.notNull().defaultTo(80))
          .addColumn('correctable_threshold', 'integer', (c) => c.notNull().defaultTo(50))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('env', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('key_sealed', 'text', (c) => c.notNull())
          .addColumn('key_prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
        await db.schema
          .createTable('publishable_tokens')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('env', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('token_sealed', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema.createIndex('tokens_account').on('publishable_tokens').column('account_id').execute();
        await db.schema
          .createTable('token_origins')
          .addColumn('token_id', 'text', (c) => c.notNull().references('publishable_tokens.id'))
          .addColumn('origin', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('token_origins_pk', ['token_id', 'origin'])
          .execute();
        await db.schema.createIndex('token_origins_origin').on('token_origins').column('origin').execute();
        await db.schema
          .createTable('credit_months')
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('month', 'text', (c) => c.notNull())
          .addColumn('used_grant', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('used_extra', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('credit_months_pk', ['account_id', 'month'])
          .execute();
        await db.schema
          .createTable('credit_reservations')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('month', 'text', (c) => c.notNull())
          .addColumn('grant_amount', 'integer', (c) => c.notNull())
          .addColumn('extra_amount', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('usage_events')
          .addColumn('id', autoId, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('credential_id', 'text', (c) => c.notNull())
          .addColumn('env', 'text', (c) => c.notNull())
          .addColumn('endpoint', 'text', (c) => c.notNull())
          .addColumn('verdict', 'text')
          .addColumn('provider', 'text')
          .addColumn('latency_ms', 'integer', (c) => c.notNull())
          .addColumn('cached', 'integer', (c) => c.notNull())
          .addColumn('credits', 'integer', (c) => c.notNull())
          .addColumn('query', 'text')
          .addColumn('source', 'text')
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('month', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('usage_account_month').on('usage_events').columns(['account_id', 'month']).execute();
        await db.schema.createIndex('usage_account_day').on('usage_events').columns(['account_id', 'day']).execute();
        await db.schema.createIndex('usage_account_id').on('usage_events').columns(['account_id', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['usage_events', 'credit_reservations', 'credit_months', 'token_origins', 'publishable_tokens', 'api_keys', 'accounts']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // GET /v1/usage grouped every event of the month on each call: slow once an account has
    // a few hundred thousand. The ledger now keeps per-day totals in the same transaction as
    // each event; this builds them for the events written before.
    '0002_usage_daily': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('usage_daily')
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('month', 'text', (c) => c.notNull())
          .addColumn('endpoint', 'text', (c) => c.notNull())
          // '' for none (no verdict, untagged): NULL cannot take part in the key on both dialects.
          .addColumn('verdict', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('n', 'integer', (c) => c.notNull())
          .addColumn('credits', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day', 'endpoint', 'verdict', 'source'])
          .execute();
        await db.schema.createIndex('usage_daily_month').on('usage_daily').columns(['account_id', 'month']).execute();
        await sql`
          INSERT INTO usage_daily (account_id, day, month, endpoint, verdict, source, n, credits)
          SELECT account_id, day, month, endpoint, coalesce(verdict, ''), coalesce(source, ''), count(*), sum(credits)
          FROM usage_events
          GROUP BY account_id, day, month, endpoint, coalesce(verdict, ''), coalesce(source, '')`.execute(db);
        // `recent` filtered by a rare tag would otherwise walk every event of the account.
        await db.schema.createIndex('usage_account_source_id').on('usage_events').columns(['account_id', 'source', 'id']).execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('usage_account_source_id').ifExists().execute();
        await db.schema.dropTable('usage_daily').ifExists().execute();
      },
    },
    // A reservation belongs to the instance that made it (issue 14): a restarted instance releases
    // its predecessor's at once, any instance releases others' once older than the longest request.
    '0003_reservation_owner': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('credit_reservations').addColumn('owner', 'text').execute();
        await db.schema.createIndex('credit_reservations_owner').on('credit_reservations').column('owner').execute();
        await db.schema.createIndex('credit_reservations_created').on('credit_reservations').column('created_at').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropIndex('credit_reservations_created').ifExists().execute();
        await db.schema.dropIndex('credit_reservations_owner').ifExists().execute();
        await db.schema.alterTable('credit_reservations').dropColumn('owner').execute();
      },
    },
    // The console (issue 12): people who log in, their memberships of accounts, one-time invites,
    // server-side sessions (shared by every instance) and when each secret key was last used.
    '0004_console': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('people')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('memberships')
          .addColumn('person_id', 'text', (c) => c.notNull().references('people.id'))
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('memberships_pk', ['person_id', 'account_id'])
          .execute();
        await db.schema.createIndex('memberships_account').on('memberships').column('account_id').execute();
        await db.schema
          .createTable('invites')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('code_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .execute();
        await db.schema
          .createTable('console_sessions')
          .addColumn('id_hash', 'text', (c) => c.primaryKey())
          .addColumn('person_id', 'text', (c) => c.notNull().references('people.id'))
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('csrf_token', 'text', (c) => c.notNull())
          .addColumn('flash', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('console_sessions_person').on('console_sessions').column('person_id').execute();
        await db.schema.createIndex('console_sessions_expires').on('console_sessions').column('expires_at').execute();
        await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
        for (const t of ['console_sessions', 'invites', 'memberships', 'people']) {
          await db.schema.dropTable(t).ifExists().execute();
        }
      },
    },
    // Bulk validation (issue 13): the idempotency keys of settled chunks, so `addressd validate
    // --resume` never bills a row twice even when it crashed between paying and writing the row down.
    '0005_bulk_receipts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('bulk_receipts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('calls', 'integer', (c) => c.notNull())
          .addColumn('credits', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable('bulk_receipts').ifExists().execute();
      },
    },
    // Every call writes a usage event (issue 11: a cache hit's largest cost is that insert). Since
    // 0002 the month and day reports read usage_daily; nothing reads usage_events by month or day,
    // so those two indexes only made each insert update two more B-trees. Kept: (account, id) and
    // (account, source, id) for the recent-calls list.
    '0006_usage_event_indexes': {
      async up(db: Kysely<unknown>) {
        await db.schema.dropIndex('usage_account_month').ifExists().execute();
        await db.schema.dropIndex('usage_account_day').ifExists().execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.createIndex('usage_account_month').ifNotExists().on('usage_events').columns(['account_id', 'month']).execute();
        await db.schema.createIndex('usage_account_day').ifNotExists().on('usage_events').columns(['account_id', 'day']).execute();
      },
    },
    // Sign-up answers alike for a new and a known email (issue 20): what it has to say reaches the
    // person at their next log-in instead (a new account's first keys, or "someone tried to sign up
    // with your email").
    '0007_people_login_notice': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('people').addColumn('login_notice', 'text').execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.alterTable('people').dropColumn('login_notice').execute();
      },
    },
    // The hot path's reservation and settle in one round trip each (issue 22): on PostgreSQL the ledger's reserve —
    // lock the account, make the month's row, read it, debit the grant then extra credits, record
    // the reservation — runs server-side as one function, exactly the steps credit-ledger.ts takes
    // on SQLite, instead of eight statements with BEGIN and COMMIT. Each statement of a PL/pgSQL
    // function reads what committed before it (READ COMMITTED), after the account lock is taken.
    '0008_reserve_function': {
      async up(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`
          CREATE OR REPLACE FUNCTION addressd_reserve(p_account text, p_month text, p_want integer, p_quotas jsonb, p_id text, p_at text, p_owner text)
          RETURNS TABLE (r_grant integer, r_extra integer, r_plan text)
          LANGUAGE plpgsql AS $fn$
          DECLARE
            v_plan text;
            v_extra_credits integer;
            v_used integer;
            v_grant_left integer;
            v_total integer;
            v_grant integer;
            v_extra integer;
          BEGIN
            SELECT a.plan, a.extra_credits INTO v_plan, v_extra_credits FROM accounts a WHERE a.id = p_account FOR UPDATE;
            IF NOT FOUND THEN
              RAISE EXCEPTION 'no account %', p_account USING ERRCODE = 'P0002';
            END IF;
            INSERT INTO credit_months (account_id, month, used_grant, used_extra) VALUES (p_account, p_month, 0, 0)
              ON CONFLICT (account_id, month) DO NOTHING;
            SELECT m.used_grant INTO v_used FROM credit_months m WHERE m.account_id = p_account AND m.month = p_month;
            v_grant_left := greatest(0, coalesce((p_quotas ->> v_plan)::integer, 0) - v_used);
            v_total := greatest(0, least(p_want, v_grant_left + greatest(0, v_extra_credits)));
            v_grant := least(v_total, v_grant_left);
            v_extra := v_total - v_grant;
            IF v_total > 0 THEN
              UPDATE credit_months m SET used_grant = m.used_grant + v_grant, used_extra = m.used_extra + v_extra
                WHERE m.account_id = p_account AND m.month = p_month;
              IF v_extra <> 0 THEN
                UPDATE accounts a SET extra_credits = a.extra_credits - v_extra WHERE a.id = p_account;
              END IF;
              INSERT INTO credit_reservations (id, account_id, month, grant_amount, extra_amount, created_at, owner)
                VALUES (p_id, p_account, p_month, v_grant, v_extra, p_at, p_owner);
            END IF;
            RETURN QUERY SELECT v_grant, v_extra, v_plan;
          END
          $fn$`.execute(db);
        // A settle that charges its reservations in full drops them: all of them, or it fails
        // (SQLSTATE AD001, one was released meanwhile) and its statement writes nothing.
        await sql`
          CREATE OR REPLACE FUNCTION addressd_drop_reservations(p_ids text[])
          RETURNS integer
          LANGUAGE plpgsql AS $fn$
          DECLARE
            v_dropped integer;
          BEGIN
            DELETE FROM credit_reservations r WHERE r.id = ANY(p_ids);
            GET DIAGNOSTICS v_dropped = ROW_COUNT;
            IF v_dropped < coalesce(array_length(p_ids, 1), 0) THEN
              RAISE EXCEPTION 'a reservation was released meanwhile' USING ERRCODE = 'AD001';
            END IF;
            RETURN v_dropped;
          END
          $fn$`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect !== 'postgres') return;
        await sql`DROP FUNCTION IF EXISTS addressd_drop_reservations(text[])`.execute(db);
        await sql`DROP FUNCTION IF EXISTS addressd_reserve(text, text, integer, jsonb, text, text, text)`.execute(db);
      },
    },
    // Outcome feedback (issue 29): one row per answer that got feedback (its idempotency key;
    // response ids themselves are sealed, never stored), daily counts per verdict and conclusion,
    // and the index gaps customers revealed. Rows with addresses go after FEEDBACK_RETENTION_DAYS.
    '0009_feedback': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('feedback_responses')
          .addColumn('response_key', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('conclusion', 'text', (c) => c.notNull())
          .addColumn('answered_at', 'text', (c) => c.notNull())
          .addColumn('recorded_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('feedback_responses_answered').on('feedback_responses').column('answered_at').execute();
        await db.schema
          .createTable('feedback_daily')
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('month', 'text', (c) => c.notNull())
          .addColumn('verdict', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('conclusion', 'text', (c) => c.notNull())
          .addColumn('n', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('feedback_daily_pk', ['account_id', 'day', 'verdict', 'source', 'conclusion'])
          .execute();
        await db.schema.createIndex('feedback_daily_month').on('feedback_daily').columns(['account_id', 'month']).execute();
        let gaps = db.schema
          .createTable('feedback_gaps')
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('gap_key', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('country', 'text', (c) => c.notNull());
        for (const side of ['typed', 'read']) {
          for (const field of ['street', 'house_number', 'postcode', 'city', 'country']) gaps = gaps.addColumn(`${side}_${field}`, 'text');
        }
        await gaps
          .addColumn('count', 'integer', (c) => c.notNull())
          .addColumn('first_seen', 'text', (c) => c.notNull())
          .addColumn('last_seen', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('feedback_gaps_pk', ['account_id', 'gap_key'])
          .execute();
        await db.schema.createIndex('feedback_gaps_last_seen').on('feedback_gaps').column('last_seen').execute();
      },
      async down(db: Kysely<unknown>) {
        for (const t of ['feedback_gaps', 'feedback_daily', 'feedback_responses']) await db.schema.dropTable(t).ifExists().execute();
      },
    },
    // Usage rows off the request's path (issue 37): a call is answered once its reservation is
    // made, and its settle is written afterwards in batches. A reservation carries what its call's
    // usage event needs, so one left by a dead process is settled from itself (the call may have
    // been answered) instead of released. `usage_batches` records each background batch that
    // committed: a batch re-run after an unknown commit outcome finds its id and writes nothing.
    '0010_reservation_call': {
      async up(db: Kysely<unknown>) {
        for (const column of ['credential_id', 'env', 'endpoint', 'source']) {
          await db.schema.alterTable('credit_reservations').addColumn(column, 'text').execute();
        }
        await db.schema
          .createTable('usage_batches')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('usage_batches_at').on('usage_batches').column('at').execute();
        if (dialect !== 'postgres') return;
        // 0008's reserve, one statement still, recording the call too (a new overload; 0008's stays for a rollback).
        await sql`
          CREATE OR REPLACE FUNCTION addressd_reserve(p_account text, p_month text, p_want integer, p_quotas jsonb, p_id text, p_at text, p_owner text,
            p_credential text, p_env text, p_endpoint text, p_source text)
          RETURNS TABLE (r_grant integer, r_extra integer, r_plan text)
          LANGUAGE plpgsql AS $fn$
          DECLARE
            v_plan text;
            v_extra_credits integer;
            v_used integer;
            v_grant_left integer;
            v_total integer;
            v_grant integer;
            v_extra integer;
          BEGIN
            SELECT a.plan, a.extra_credits INTO v_plan, v_extra_credits FROM accounts a WHERE a.id = p_account FOR UPDATE;
            IF NOT FOUND THEN
              RAISE EXCEPTION 'no account %', p_account USING ERRCODE = 'P0002';
            END IF;
            INSERT INTO credit_months (account_id, month, used_grant, used_extra) VALUES (p_account, p_month, 0, 0)
              ON CONFLICT (account_id, month) DO NOTHING;
            SELECT m.used_grant INTO v_used FROM credit_months m WHERE m.account_id = p_account AND m.month = p_month;
            v_grant_left := greatest(0, coalesce((p_quotas ->> v_plan)::integer, 0) - v_used);
            v_total := greatest(0, least(p_want, v_grant_left + greatest(0, v_extra_credits)));
            v_grant := least(v_total, v_grant_left);
            v_extra := v_total - v_grant;
            IF v_total > 0 THEN
              UPDATE credit_months m SET used_grant = m.used_grant + v_grant, used_extra = m.used_extra + v_extra
                WHERE m.account_id = p_account AND m.month = p_month;
              IF v_extra <> 0 THEN
                UPDATE accounts a SET extra_credits = a.extra_credits - v_extra WHERE a.id = p_account;
              END IF;
              INSERT INTO credit_reservations (id, account_id, month, grant_amount, extra_amount, created_at, owner, credential_id, env, endpoint, source)
                VALUES (p_id, p_account, p_month, v_grant, v_extra, p_at, p_owner, p_credential, p_env, p_endpoint, p_source);
            END IF;
            RETURN QUERY SELECT v_grant, v_extra, v_plan;
          END
          $fn$`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`DROP FUNCTION IF EXISTS addressd_reserve(text, text, integer, jsonb, text, text, text, text, text, text, text)`.execute(db);
        }
        await db.schema.dropTable('usage_batches').ifExists().execute();
        for (const column of ['source', 'endpoint', 'env', 'credential_id']) {
          await db.schema.alterTable('credit_reservations').dropColumn(column).execute();
        }
      },
    },
  };
}

/** To the latest migration, or up (or down) to a named one (tests of a migration start from the state before it). */
export async function migrate(db: Kysely<unknown>, dialect: Dialect, schema?: string, target?: string): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({
    db,
    provider,
    // 0003 landed after 0004 had already run on some databases: run a missing earlier one rather
    // than refuse to start. Each migration touches only its own tables, so order between them is free.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (!error) return;
  const failed = results?.find((r) => r.status === 'Error');
  throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
