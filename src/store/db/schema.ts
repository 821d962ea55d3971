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
  /** Written at most once a minute per key (console "last used"); null until first used. */
  last_used_at: string | null;
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
  /** INSTANCE_ID of the process that reserved (null: reserved before 0003, or by a tool). */
  owner: string | null;
  /**
   * The call it pays for (migration 0010), so a reservation a dead process left is settled from
   * itself: its usage event written with these. All null: a batch's or a bulk chunk's reservation
   * (released, not settled, by recovery), or one made before 0010.
   */
  credential_id: string | null;
  env: string | null;
  endpoint: string | null;
  source: string | null;
}

/** One background usage write that committed (its id): a re-run after an unknown outcome finds it and writes nothing. */
export interface UsageBatchesTable {
  id: string;
  at: string;
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

/** A person who logs in to the console; the email is stored lower-cased. */
export interface PeopleTable {
  id: string;
  email: string;
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url), so the cost can change later. */
  password_hash: string;
  created_at: string;
  /** A notice (sessions.ts `Flash`, JSON) shown at the next log-in: first keys, a sign-up attempt. */
  login_notice: string | null;
}

export interface MembershipsTable {
  person_id: string;
  account_id: string;
  /** `owner` (signed up with it) or `member` (joined by invite). */
  role: string;
  created_at: string;
}

/** A one-time invitation of an email address into an account; only the code's SHA-256 is kept. */
export interface InvitesTable {
  id: string;
  account_id: string;
  email: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A logged-in console session; the cookie holds the id, the table only its SHA-256. */
export interface ConsoleSessionsTable {
  id_hash: string;
  person_id: string;
  /** The account the console shows (a person may belong to several). */
  account_id: string;
  csrf_token: string;
  /** One-time notice for the next page (JSON), e.g. key ids to show in clear once. */
  flash: string | null;
  created_at: string;
  expires_at: string;
}

/**
 * One settled chunk of a bulk run (`addressd validate`): its id is the chunk's idempotency key,
 * written in the transaction that bills the chunk, so a resumed run knows it was paid for.
 */
export interface BulkReceiptsTable {
  id: string;
  account_id: string;
  calls: number;
  credits: number;
  created_at: string;
}

/** One validate answer that got feedback, by its response id's key (feedback/response-ids.ts). */
export interface FeedbackResponsesTable {
  response_key: string;
  account_id: string;
  conclusion: string;
  /** When the answer was given (UTC `YYYY-MM-DD HH:MM:SS`): the row goes FEEDBACK_RETENTION_DAYS after. */
  answered_at: string;
  recorded_at: string;
}

/** Feedback per day of the answer, verdict, source ('' untagged) and conclusion. No address. */
export interface FeedbackDailyTable {
  account_id: string;
  day: string;
  month: string;
  verdict: string;
  source: string;
  conclusion: string;
  n: number;
}

/** An address customers used although we found no such street or number (feedback/gap-rule.ts). */
export interface FeedbackGapsTable {
  account_id: string;
  /** Digest of the normalized typed and read fields: one row per distinct gap per account. */
  gap_key: string;
  kind: string;
  /** The typed country, else the read one, else ''. */
  country: string;
  typed_street: string | null;
  typed_house_number: string | null;
  typed_postcode: string | null;
  typed_city: string | null;
  typed_country: string | null;
  read_street: string | null;
  read_house_number: string | null;
  read_postcode: string | null;
  read_city: string | null;
  read_country: string | null;
  count: number;
  first_seen: string;
  last_seen: string;
}

export interface DatabaseSchema {
  feedback_responses: FeedbackResponsesTable;
  feedback_daily: FeedbackDailyTable;
  feedback_gaps: FeedbackGapsTable;
  people: PeopleTable;
  memberships: MembershipsTable;
  invites: InvitesTable;
  console_sessions: ConsoleSessionsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  publishable_tokens: PublishableTokensTable;
  token_origins: TokenOriginsTable;
  credit_months: CreditMonthsTable;
  credit_reservations: CreditReservationsTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
  usage_batches: UsageBatchesTable;
  bulk_receipts: BulkReceiptsTable;
}
