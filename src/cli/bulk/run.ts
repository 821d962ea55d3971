import type { Account } from '../../accounts/accounts.js';
import type { BulkLedger } from '../../billing/bulk-ledger.js';
import { PLAN_QUOTAS } from '../../billing/plans.js';
import type { ValidateRequest } from '../../contract/validate.js';
import { ChunkBiller, type ChunkGrant } from '../../engine/chunk-biller.js';
import { CreditsExhaustedError } from '../../engine/errors.js';
import type { ProviderRunner } from '../../engine/fan-out.js';
import { ValidateEngine } from '../../engine/validate.js';
import { mapBounded } from '../../lib/bounded.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';
import type { ResponseCache } from '../../store/cache/response-cache.js';
import { type InputFile, readRows } from './input.js';
import { Journal, type JournalRow, type JournalState } from './journal.js';
import { type ColumnMapping, rowRequest } from './mapping.js';
import { errorFields, type OutputWriter, type ResultFields, resultFields } from './output.js';

/** What a bulk run uses of the service: the same runner, cache and ledger as the API. */
export interface BulkDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  cacheTtlMs: number;
  ledger: BulkLedger;
  clock: Clock;
  /**
   * How often a chunk renews its reservation while its rows run (a third of
   * RESERVATION_MAX_AGE_MS): a chunk outlasts any single request, and the sweepers of running
   * servers must not take it for one a crashed process left.
   */
  renewEveryMs: number;
}

export interface BulkRunOptions {
  input: InputFile;
  mapping: ColumnMapping;
  country?: string;
  account: Account;
  source: string;
  concurrency: number;
  /** Rows billed together: one reservation and one settle transaction per chunk. */
  chunkRows: number;
  journal: Journal;
  /** Rows an earlier, interrupted run finished (from its journal). */
  done: Map<number, ResultFields>;
  output: OutputWriter;
  /** Set (by Ctrl-C) to stop: rows running finish and are settled and written, no new row starts. */
  stop: { requested: boolean };
  onRow?: () => void;
}

export interface BulkSummary {
  rows: number;
  /** Rows finished, this run and earlier ones. */
  done: number;
  valid: number;
  correctable: number;
  invalid: number;
  /** Rows without a usable address (the error column says why); not looked up, not billed. */
  skipped: number;
  creditsThisRun: number;
  outcome: 'complete' | 'interrupted' | 'credits-exhausted';
  /** First row (0-based) not done when the run stopped early. */
  stoppedAtRow?: number;
}

/** Usage events of the CLI: endpoint and credential are named for what they are, not an HTTP path or a key. */
export const CLI_ENDPOINT = 'cli validate';
export const CLI_CREDENTIAL = 'cli';

/** A row on its way to the output; `fromJournal` rows were finished (and billed) by an earlier run. */
type Pending = { index: number; row: string[]; request?: ValidateRequest; result?: ResultFields; fromJournal?: boolean };

/**
 * Validates every row of the input through the API's engine, chunk by chunk, in input order.
 * Each chunk: reserve its worst case once → validate its rows a few at a time (ChunkBiller: the
 * API's billing rules per row) → journal the results (synced) → settle the chunk in one
 * transaction with one usage event per row and the chunk's receipt → journal `settled` → write
 * the output rows. The output always holds a prefix of the input: when the run stops early, rows
 * finished after the first unfinished one stay in the journal for the resumed run.
 */
export async function runBulk(deps: BulkDeps, opts: BulkRunOptions): Promise<BulkSummary> {
  const summary: BulkSummary = { rows: opts.input.rows, done: 0, valid: 0, correctable: 0, invalid: 0, skipped: 0, creditsThisRun: 0, outcome: 'complete' };
  const count = (fields: ResultFields) => {
    summary.done++;
    const verdict = fields[0];
    if (verdict === 'valid' || verdict === 'correctable' || verdict === 'invalid') summary[verdict]++;
    else summary.skipped++;
    opts.onRow?.();
  };
  let buffer: Pending[] = [];
  let requests = 0;
  let stopped = false;

  /** Runs the buffered rows as one chunk, then writes its finished prefix; at the first unfinished row the run has stopped. */
  const flush = async () => {
    if (buffer.some((p) => !p.fromJournal)) {
      const outcome = await runChunk(deps, opts, buffer, count);
      summary.creditsThisRun += outcome.credits;
      if (outcome.exhausted) summary.outcome = 'credits-exhausted';
    }
    for (const p of buffer) {
      if (!p.result) {
        stopped = true;
        summary.stoppedAtRow ??= p.index;
      } else if (!stopped) {
        await opts.output.write(p.row, p.result);
      }
    }
    buffer = [];
    requests = 0;
  };

  let index = 0;
  for await (const row of readRows(opts.input)) {
    const i = index++;
    const earlier = opts.done.get(i);
    if (earlier) {
      count(earlier);
      if (stopped) continue;
      if (buffer.length === 0) await opts.output.write(row, earlier);
      else buffer.push({ index: i, row, result: earlier, fromJournal: true });
      continue;
    }
    if (stopped || opts.stop.requested) {
      summary.stoppedAtRow ??= i;
      stopped = true;
      continue;
    }
    const made = rowRequest(opts.input.columns, row, opts.mapping, opts.country);
    buffer.push(made.ok ? { index: i, row, request: made.request } : { index: i, row, result: errorFields(made.error) });
    if (made.ok && ++requests >= opts.chunkRows) await flush();
  }
  if (buffer.length > 0) await flush();
  if (summary.outcome === 'complete' && summary.done < summary.rows) summary.outcome = 'interrupted';
  return summary;
}

/**
 * One chunk: fills `result` of every row it finished (rows without an address count as finished,
 * unbilled) and returns the credits it spent and whether the account ran dry.
 */
async function runChunk(
  deps: BulkDeps,
  opts: BulkRunOptions,
  chunk: Pending[],
  count: (fields: ResultFields) => void,
): Promise<{ credits: number; exhausted: boolean }> {
  const todo = chunk.filter((p) => p.request && !p.result);
  const id = newId('blk');
  const grant = await reserve(deps, opts, id, todo.length);
  const biller = new ChunkBiller(deps.ledger, deps.clock, grant);
  const engine = new ValidateEngine({ runner: deps.runner, cache: deps.cache, biller, cacheTtlMs: deps.cacheTtlMs });
  let exhausted = false;
  const reservation = grant.reservation;
  const lease = reservation ? setInterval(() => void deps.ledger.renew(reservation).catch(() => undefined), deps.renewEveryMs) : undefined;
  lease?.unref();

  await mapBounded(todo, opts.concurrency, async (p) => {
    if (exhausted || opts.stop.requested || !p.request) return;
    const ctx = {
      accountId: opts.account.id,
      credentialId: CLI_CREDENTIAL,
      env: 'live',
      endpoint: CLI_ENDPOINT,
      source: opts.source,
      startedAt: deps.clock.now(),
      thresholds: opts.account.thresholds,
    };
    try {
      p.result = resultFields(await engine.validate(p.request, ctx));
    } catch (error) {
      if (!(error instanceof CreditsExhaustedError)) throw error;
      exhausted = true;
    }
  }).finally(() => clearInterval(lease));

  const finished = chunk.filter((p): p is Pending & { result: ResultFields } => p.result !== undefined && !p.fromJournal);
  const credits = biller.charges.reduce((sum, c) => sum + c.credits, 0);
  const rows: JournalRow[] = finished.map((p) => [p.index, p.result]);
  await opts.journal.chunk(id, credits, rows);
  if (grant.reservation || biller.charges.length > 0) {
    await deps.ledger.settleChunk(opts.account.id, grant.reservation, biller.charges, id);
  }
  await opts.journal.settled(id);
  for (const p of finished) count(p.result);
  return { credits, exhausted };
}

/** The chunk's credits: the worst case of every row (each provider that could answer), once. */
async function reserve(deps: BulkDeps, opts: BulkRunOptions, id: string, rows: number): Promise<ChunkGrant> {
  const plan = opts.account.plan;
  const base = { plan, quota: PLAN_QUOTAS[plan] };
  if (rows === 0) return { ...base, reservation: null, open: true, short: false };
  const want = rows * deps.runner.eligible('geocode', undefined).length;
  if (want === 0) {
    const balance = await deps.ledger.balance(opts.account.id);
    return { ...base, reservation: null, open: balance.available > 0, short: false };
  }
  const reservation = await deps.ledger.reserve(opts.account.id, want);
  if (reservation) await opts.journal.reserved(id, reservation);
  return { ...base, reservation, open: reservation !== null, short: !reservation || reservation.total < want };
}

/**
 * Reads what an interrupted run left: rows of settled chunks (by journal, or by their receipt
 * in the database when the crash came between paying and writing `settled`) are done; a chunk
 * that never settled gives its reservation back and its rows run again.
 */
export async function recoverJournal(ledger: BulkLedger, state: JournalState): Promise<Map<number, ResultFields>> {
  const unsettled = [...state.chunks.keys()].filter((id) => !state.settled.has(id));
  const paid = await ledger.settledReceipts(unsettled);
  const done = new Map<number, ResultFields>();
  for (const [id, chunk] of state.chunks) {
    if (!state.settled.has(id) && !paid.has(id)) continue;
    for (const [index, fields] of chunk.rows) done.set(index, fields);
  }
  for (const [id, reservation] of state.reservations) {
    if (!state.settled.has(id) && !paid.has(id)) await ledger.release(reservation);
  }
  return done;
}
