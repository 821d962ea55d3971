import type { Generated } from 'kysely';

/**
 * Table types of the main database (accounts, credentials, credits, usage).
 * One schema for SQLite and PostgreSQL; timestamps are UTC text `YYYY-MM-DD HH:MM:SS`
 * so both dialects sort and group them the same way.
 */
export interface AccountsTable {
  id: string;
  name: string | null;
  plan: string;
  /** Purchased pack credits still available; spent only after the monthly grant. */
  extra_credits: number;
  valid_threshold: number;
  correctable_threshold: number;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  env: string;
  name: string | null;
  /** SHA-256 hex of the whole key: the look-up column. */
  key_hash: string;
  /** AES-256-GCM sealed copy, so the console can re-reveal the key. */
  key_sealed: string;
  /** First characters, safe to list (`ak_live_AbC…`). */
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface PublishableTokensTable {
  id: string;
  account_id: string;
  env: string;
  token_hash: string;
  token_sealed: string;
  created_at: string;
  revoked_at: string | null;
}

export interface TokenOriginsTable {
  token_id: string;
  origin: string;
}

/** Credits spent per account and UTC month: grant first, then extra credits. */
export interface CreditMonthsTable {
  account_id: string;
  month: string;
  used_grant: number;
  used_extra: number;
}

/** Credits held for a request in flight; settled or released, so a crash never leaks money. */
export interface CreditReservationsTable {
  id: string;
  account_id: string;
  month: string;
  grant_amount: number;
  extra_amount: number;
  created_at: string;
}

export interface UsageEventsTable {
  id: Generated<number>;
  account_id: string;
  credential_id: string;
  env: string;
  endpoint: string;
  verdict: string | null;
  provider: string | null;
  latency_ms: number;
  cached: number;
  credits: number;
  query: string | null;
  source: string | null;
  at: string;
  day: string;
  month: string;
}

/** Per-day totals of usage events, written with each event (GET /v1/usage reads these). */
export interface UsageDailyTable {
  account_id: string;
  day: string;
  month: string;
  endpoint: string;
  /** '' when the event had none. */
  verdict: string;
  /** '' when untagged. */
  source: string;
  n: number;
  credits: number;
}

export interface DatabaseSchema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  publishable_tokens: PublishableTokensTable;
  token_origins: TokenOriginsTable;
  credit_months: CreditMonthsTable;
  credit_reservations: CreditReservationsTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
}
