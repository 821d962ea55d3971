import type { Account } from '../../accounts/accounts.js';
import type { BulkLedger } from '../../billing/bulk-ledger.js';
import { PLAN_QUOTAS } from '../../billing/plans.js';
import type { ValidateRequest } from '../../contract/validate.js';
import type { BulkCharge } from '../../billing/bulk-ledger.js';
import type { UsageEventInput } from '../../billing/credit-ledger.js';
import type { ChunkGrant } from '../../engine/chunk-biller.js';
import { newId } from '../../lib/ids.js';
import { type InputFile, readRows } from './input.js';
import type { Journal, JournalRow, JournalState } from './journal.js';
import { equalParts } from './equal-parts.js';
import type { LookupPool } from './lookup-pool.js';
import { type ColumnMapping, isUnknownCountry, NO_ADDRESS, rowRequest } from './mapping.js';
import { currentLayout, ERROR, errorFields, needsRetry, type OutputWriter, type ResultFields, VERDICT, VERIFIED } from './output.js';
import { type KnownAnswer, Repeats } from './repeats.js';
import { type BulkCaller, CLI_CREDENTIAL, CLI_ENDPOINT, type LookupDeps, type LookupOutcome, lookupRows, type RowJob } from './row-lookup.js';

export { CLI_CREDENTIAL, CLI_ENDPOINT } from './row-lookup.js';

/** What a bulk run uses of the service: the same runner, cache and ledger as the API. */
export interface BulkDeps extends LookupDeps {
  ledger: BulkLedger;
  /** Lookup threads (`--workers`); without them the rows are looked up in this thread. */
  pool?: LookupPool | undefined;
  /**
   * Where lookups are in-process CPU alone (`local` on SQLite): the threads share each chunk,
   * taking this many rows at a time, so none waits at the end of a chunk for another's slower
   * half. Unset, each thread gets an equal part: PostgreSQL primes a part in a few statements, and
   * HTTP providers keep `concurrency` rows of it in flight.
   */
  shareRows?: number | undefined;
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
  /** After each row this run finished, with the rows done so far (earlier runs' included). */
  onRow?: (done: number) => void;
}

export interface BulkSummary {
  rows: number;
  /** Rows written to the output, this run's and earlier runs' (the counts below add up to it). */
  done: number;
  valid: number;
  correctable: number;
  invalid: number;
  /** Rows no provider answered (nothing was checked, 0 credits): `--retry-unverified` looks them up again. */
  unverified: number;
  /** Rows not looked up, not billed (the error column says why): the sum of the three below. */
  skipped: number;
  /** Rows without an address. */
  noAddress: number;
  /** Rows whose country cell is neither a code nor a country name. */
  unknownCountry: number;
  /** Rows with a field the API would refuse (too long, control characters). */
  badField: number;
  /** Rows finished (and billed) but not written: after the first unfinished row, kept in the journal for `--resume`. */
  held: number;
  /** Rows answered by an earlier row asking the same (billed as a cache hit). */
  repeats: number;
  creditsThisRun: number;
  outcome: 'complete' | 'interrupted' | 'credits-exhausted';
  /** First row (0-based) not done when the run stopped early. */
  stoppedAtRow?: number;
}

/** Why a row was not looked up, from its error column. */
function skipKind(fields: ResultFields): 'noAddress' | 'unknownCountry' | 'badField' {
  const error = fields[ERROR] ?? '';
  return error === NO_ADDRESS ? 'noAddress' : isUnknownCountry(error) ? 'unknownCountry' : 'badField';
}

/** A row on its way to the output; `fromJournal` rows were finished (and billed) by an earlier run. */
type Pending = { index: number; row: string[]; request?: ValidateRequest; requestKey?: string; result?: ResultFields; fromJournal?: boolean };

/**
 * Validates every row of the input through the API's engine, chunk by chunk, in input order.
 * Each chunk: reserve its worst case once → look its rows up (in the lookup threads when there
 * are, else here, a few at a time; a repeat of an earlier row's request is answered from it, as a
 * cache hit) → journal the results (synced) → settle the chunk in one transaction with one usage
 * event per row and the chunk's receipt → journal `settled` → write the output rows. The output
 * always holds a prefix of the input: when the run stops early, rows finished after the first
 * unfinished one stay in the journal for the resumed run.
 */
export async function runBulk(deps: BulkDeps, opts: BulkRunOptions): Promise<BulkSummary> {
  const summary: BulkSummary = {
    rows: opts.input.rows,
    done: 0,
    valid: 0,
    correctable: 0,
    invalid: 0,
    unverified: 0,
    skipped: 0,
    noAddress: 0,
    unknownCountry: 0,
    badField: 0,
    held: 0,
    repeats: 0,
    creditsThisRun: 0,
    outcome: 'complete',
  };
  /**
   * Counts a row as it is written: the summary describes the output file (issue 28 §8: rows
   * finished after a gap were counted though the file stopped before them).
   */
  const written = async (p: { row: string[]; result: ResultFields; fromJournal?: boolean | undefined }) => {
    await opts.output.write(p.row, p.result);
    summary.done++;
    const verdict = p.result[VERDICT];
    if (p.result[VERIFIED] === 'no') summary.unverified++;
    else if (verdict === 'valid' || verdict === 'correctable' || verdict === 'invalid') summary[verdict]++;
    else {
      summary.skipped++;
      summary[skipKind(p.result)]++;
    }
    // Rows an earlier run finished are already on the bar (it starts at their count).
    if (!p.fromJournal) opts.onRow?.(summary.done);
  };
  const repeats = new Repeats(deps.runner);
  let buffer: Pending[] = [];
  let requests = 0;
  /** The output stopped at a row that is not done: nothing after it is written (it stays in the journal). */
  let gap = false;
  /** No new row starts (Ctrl-C, or a gap): the rest of the file is only counted. */
  let halted = false;
  const stoppedAt = (index: number) => {
    summary.stoppedAtRow = Math.min(summary.stoppedAtRow ?? index, index);
  };

  /** Writes a chunk's finished prefix; at the first unfinished row the run has stopped. */
  const writeOut = async (chunk: Pending[]) => {
    for (const p of chunk) {
      if (!p.result) {
        gap = true;
        stoppedAt(p.index);
      } else if (gap) {
        summary.held++;
      } else {
        await written({ ...p, result: p.result });
      }
    }
  };
  /** The previous chunk's settle and write, running while this chunk's rows are looked up. */
  let settling: Promise<void> | undefined;
  /** The previous chunk's lookups, running while the next chunk's rows are read. */
  let looking: Promise<unknown> | undefined;
  /** Chunks handed to the settle step and not yet written. */
  let unwritten = 0;

  /**
   * Hands the buffered rows to the lookups as one chunk, then to the settle-and-write step, and
   * returns while they are looked up: the next chunk's rows are read (and the previous chunk
   * settled and written) meanwhile, so the lookup threads wait neither for the CSV reading nor
   * for the journal's sync and the settle transaction. Chunks settle and write in input order,
   * and one chunk's rows are looked up only after the previous chunk's were (so repeats find
   * them, and a short reservation waits for what the previous chunk gives back).
   */
  const flush = async () => {
    const chunk = buffer;
    buffer = [];
    requests = 0;
    // Its rows are primed while the chunk before is looked up (and here the threads wait for nothing).
    if (looking) primeAhead(deps, chunk, repeats);
    await looking;
    const previous = settling;
    const lookup = chunk.some((p) => !p.fromJournal) ? lookUpChunk(deps, opts, chunk, repeats, previous) : Promise.resolve(undefined);
    looking = lookup;
    // Its failure is rethrown by the next flush and by this chunk's settle step.
    lookup.catch(() => undefined);
    unwritten++;
    settling = (async () => {
      const looked = await lookup;
      if (looked) {
        summary.creditsThisRun += looked.credits;
        summary.repeats += looked.repeats;
        if (looked.exhausted) summary.outcome = 'credits-exhausted';
      }
      try {
        await previous;
      } catch (error) {
        // The run ends here; this chunk stays reserved and journaled, and --resume gives it back.
        if (looked) clearInterval(looked.lease);
        throw error;
      }
      if (looked) await settleChunk(deps, opts, chunk, looked);
      await writeOut(chunk);
      unwritten--;
    })();
    // Its failure is rethrown by whoever awaits it next (the next flush, or the end of the run).
    settling.catch(() => undefined);
    await previous;
  };

  let index = 0;
  for await (const row of readRows(opts.input)) {
    const i = index++;
    const earlier = opts.done.get(i);
    if (earlier) {
      if (gap) summary.held++;
      else if (buffer.length === 0 && unwritten === 0) await written({ row, result: earlier, fromJournal: true });
      else buffer.push({ index: i, row, result: earlier, fromJournal: true });
      continue;
    }
    if (halted || gap || opts.stop.requested) {
      stoppedAt(i);
      halted = true;
      continue;
    }
    const made = rowRequest(opts.input.columns, row, opts.mapping, opts.country);
    buffer.push(made.ok ? { index: i, row, request: made.request, requestKey: repeats.requestKey(made.request) } : { index: i, row, result: errorFields(made.error) });
    if (made.ok && ++requests >= opts.chunkRows) await flush();
  }
  if (buffer.length > 0) await flush();
  await settling;
  if (summary.outcome === 'complete' && summary.done < summary.rows) summary.outcome = 'interrupted';
  return summary;
}

/** A row of a chunk to look up, and the later rows of the chunk asking the same. */
type Lead = { pending: Pending & { request: ValidateRequest }; key: string; followers: Pending[] };

/** A chunk's rows to look up: those with a request and no result yet. */
function toLookUp(chunk: Pending[]): (Pending & { request: ValidateRequest })[] {
  return chunk.filter((p): p is Pending & { request: ValidateRequest } => p.request !== undefined && !p.result);
}

/** Rows answered by an earlier row of the run (`hits`); the first of each other request leads its repeats. */
function leadsOf(todo: (Pending & { request: ValidateRequest })[], repeats: Repeats): { hits: [Pending & { request: ValidateRequest }, KnownAnswer][]; leads: Map<string, Lead> } {
  const hits: [Pending & { request: ValidateRequest }, KnownAnswer][] = [];
  const leads = new Map<string, Lead>();
  for (const p of todo) {
    const key = repeats.key(p.request, p.requestKey);
    const known = repeats.get(key);
    if (known) hits.push([p, known]);
    else {
      const lead = leads.get(key);
      if (lead) lead.followers.push(p);
      else leads.set(key, { pending: p, key, followers: [] });
    }
  }
  return { hits, leads };
}

/**
 * The chunk's rows sent to the lookup threads to be primed while the chunk before is looked up
 * (`LookupPool.primeAhead`), split as `lookupChunk` will split its leads. Rows the chunk before
 * answers turn into repeats meanwhile, so a few rows may be primed on the other thread: those are
 * primed again with their batch. Only where threads get equal parts (PostgreSQL, HTTP providers).
 */
function primeAhead(deps: BulkDeps, chunk: Pending[], repeats: Repeats): void {
  if (!deps.pool || deps.shareRows !== undefined || !deps.prime) return;
  const jobs = [...leadsOf(toLookUp(chunk), repeats).leads.values()].map((l) => ({ index: l.pending.index, request: l.pending.request }));
  deps.pool.primeAhead(equalParts(jobs, deps.pool.size));
}

/** A chunk whose rows were looked up, waiting to be journaled and settled. */
interface LookedUp {
  id: string;
  reservation: ChunkGrant['reservation'];
  charges: BulkCharge[];
  credits: number;
  repeats: number;
  exhausted: boolean;
  /** Renews the reservation until the chunk is settled. */
  lease: NodeJS.Timeout | undefined;
}

/**
 * One chunk's lookups: fills `result` of every row it finished (rows without an address count as
 * finished, unbilled) and returns its bill: the charges, the credits they spend, the repeats
 * answered as cache hits, whether the account ran dry.
 */
async function lookUpChunk(deps: BulkDeps, opts: BulkRunOptions, chunk: Pending[], repeats: Repeats, previous: Promise<void> | undefined): Promise<LookedUp> {
  const todo = toLookUp(chunk);
  const charges: BulkCharge[] = [];
  let repeated = 0;
  const asCacheHit = (p: Pending & { request: ValidateRequest }, known: KnownAnswer) => {
    p.result = known.fields;
    repeated++;
    const event = { ...cacheHitEvent(opts), verdict: known.verdict, provider: known.provider, query: p.request.query?.slice(0, 500) ?? known.query };
    charges.push({ credits: 0, event });
  };
  const { hits, leads } = leadsOf(todo, repeats);

  const id = newId('blk');
  // The reservations' journal lines, written in order while the rows are looked up (awaited below).
  const journal = { written: Promise.resolve() };
  let grant = await reserve(deps, opts, id, todo.length - hits.length, journal);
  if ((grant.short || !grant.open) && previous) {
    // The previous chunk gives back what it did not spend when it settles: wait for that before
    // calling the account short (its own failure is rethrown by the flush).
    await previous.catch(() => undefined);
    if (grant.reservation) await deps.ledger.release(grant.reservation);
    grant = await reserve(deps, opts, id, todo.length - hits.length, journal);
  }
  const reservation = grant.reservation;
  // As on the API, the quota gate comes before the cache: an account without credits gets no answer.
  if (grant.open) for (const [p, known] of hits) asCacheHit(p, known);
  const lease = reservation ? setInterval(() => void deps.ledger.renew(reservation).catch(() => undefined), deps.renewEveryMs) : undefined;
  lease?.unref();
  let exhausted = !grant.open;
  let spent = 0;
  try {
    const lookUp = async (rows: (Pending & { request: ValidateRequest })[]) => {
      if (rows.length === 0 || exhausted) return [];
      const outcome = await lookupChunk(deps, opts, grant, rows, (reservation?.total ?? 0) - spent);
      exhausted ||= outcome.exhausted;
      for (const d of outcome.done) {
        charges.push(d.charge);
        spent += d.charge.credits;
      }
      return outcome.done;
    };
    const byIndex = new Map(todo.map((p) => [p.index, p]));
    // Each lead by its row, so its key (a hash) is not computed again.
    const leadOf = new Map([...leads.values()].map((l) => [l.pending.index, l]));
    const again: (Pending & { request: ValidateRequest })[] = [];
    for (const d of await lookUp([...leadOf.values()].map((l) => l.pending))) {
      const lead = leadOf.get(d.index)!;
      lead.pending.result = d.fields;
      if (!d.complete) {
        // Not an answer the API would cache: its repeats are looked up themselves.
        again.push(...(lead.followers as (Pending & { request: ValidateRequest })[]));
        continue;
      }
      const known: KnownAnswer = { fields: d.fields, verdict: d.charge.event.verdict, provider: d.charge.event.provider, query: d.charge.event.query };
      repeats.remember(lead.key, known);
      for (const f of lead.followers) asCacheHit(f as Pending & { request: ValidateRequest }, known);
    }
    for (const d of await lookUp(again)) byIndex.get(d.index)!.result = d.fields;
    // Before the chunk's results can be journaled and settled.
    await journal.written;
  } catch (error) {
    clearInterval(lease);
    throw error;
  }
  return { id, reservation, charges, credits: spent, repeats: repeated, exhausted, lease };
}

/** One chunk's bill: its results journaled (synced), then one settle transaction, then `settled`. */
async function settleChunk(
  deps: BulkDeps,
  opts: BulkRunOptions,
  chunk: Pending[],
  looked: LookedUp,
): Promise<void> {
  try {
    const finished = chunk.filter((p): p is Pending & { result: ResultFields } => p.result !== undefined && !p.fromJournal);
    const rows: JournalRow[] = finished.map((p) => [p.index, p.result]);
    await opts.journal.chunk(looked.id, looked.credits, rows);
    if (looked.reservation || looked.charges.length > 0) await deps.ledger.settleChunk(opts.account.id, looked.reservation, looked.charges, looked.id);
    await opts.journal.settled(looked.id);
  } finally {
    clearInterval(looked.lease);
  }
}

/**
 * Looks rows up with `credits` of the chunk's reservation: split over the lookup threads when
 * every row's worst case is covered (each thread bills its share), else here in one biller, so
 * the last credits of a short reservation go to rows in input order.
 */
async function lookupChunk(
  deps: BulkDeps,
  opts: BulkRunOptions,
  grant: ChunkGrant,
  rows: RowJob[],
  credits: number,
): Promise<LookupOutcome> {
  const caller: BulkCaller = { accountId: opts.account.id, source: opts.source, thresholds: opts.account.thresholds };
  const perRow = deps.runner.eligible('geocode', undefined).length;
  const jobs = rows.map((p) => ({ index: p.index, request: p.request }));
  if (!deps.pool || grant.short || !grant.open) {
    return lookupRows(deps, caller, { rows: jobs, grant, credits }, opts.concurrency, () => opts.stop.requested);
  }
  const pool = deps.pool;
  if (deps.shareRows !== undefined) {
    const outcomes = await pool.runShared({ rows: jobs, grant, credits: jobs.length * perRow }, deps.shareRows);
    // In input order, as the equal parts give them.
    return { done: outcomes.flatMap((o) => o.done).sort((a, b) => a.index - b.index), exhausted: outcomes.some((o) => o.exhausted) };
  }
  const outcomes = await pool.runParts(equalParts(jobs, pool.size).map((part) => ({ rows: part, grant, credits: part.length * perRow })));
  return { done: outcomes.flatMap((o) => o.done), exhausted: outcomes.some((o) => o.exhausted) };
}

/** The usage event of a repeat: a cache hit of the CLI, answered at once. */
function cacheHitEvent(opts: BulkRunOptions): UsageEventInput {
  return {
    accountId: opts.account.id,
    credentialId: CLI_CREDENTIAL,
    env: 'live',
    endpoint: CLI_ENDPOINT,
    verdict: null,
    provider: null,
    latencyMs: 0,
    cached: true,
    query: null,
    source: opts.source,
  };
}

/**
 * The chunk's credits: the worst case of every row (each provider that could answer), once. Its
 * journal line is appended to `journal.written` (in order, after any earlier one of the chunk) and
 * not waited for: the rows are looked up meanwhile (the line is on its way to the file either way).
 */
async function reserve(deps: BulkDeps, opts: BulkRunOptions, id: string, rows: number, journal: { written: Promise<void> }): Promise<ChunkGrant> {
  const plan = opts.account.plan;
  const base = { plan, quota: PLAN_QUOTAS[plan] };
  if (rows === 0) return { ...base, reservation: null, open: true, short: false };
  const want = rows * deps.runner.eligible('geocode', undefined).length;
  if (want === 0) {
    const balance = await deps.ledger.balance(opts.account.id);
    return { ...base, reservation: null, open: balance.available > 0, short: false };
  }
  // Not flushed on its own: the chunk's settle commits with the flush before its rows are written.
  const reservation = await deps.ledger.reserve(opts.account.id, want, undefined, { flush: false });
  if (reservation) {
    journal.written = journal.written.then(() => opts.journal.reserved(id, reservation));
    // Its failure is rethrown where the chunk waits for it, after its lookups.
    journal.written.catch(() => undefined);
  }
  return { ...base, reservation, open: reservation !== null, short: !reservation || reservation.total < want };
}

/**
 * Reads what an interrupted run left: rows of settled chunks (by journal, or by their receipt
 * in the database when the crash came between paying and writing `settled`) are done; a chunk
 * that never settled gives its reservation back and its rows run again, and so do rows no
 * provider answered (unverified: they cost nothing and may be verified now).
 */
export async function recoverJournal(ledger: BulkLedger, state: JournalState): Promise<Map<number, ResultFields>> {
  const unsettled = [...state.chunks.keys()].filter((id) => !state.settled.has(id));
  const paid = await ledger.settledReceipts(unsettled);
  const done = new Map<number, ResultFields>();
  for (const [id, chunk] of state.chunks) {
    if (!state.settled.has(id) && !paid.has(id)) continue;
    for (const [index, fields] of chunk.rows) {
      const current = currentLayout(fields);
      // Nothing was checked for it: the resumed run asks the providers again.
      if (!needsRetry(current)) done.set(index, current);
    }
  }
  for (const [id, reservation] of state.reservations) {
    if (!state.settled.has(id) && !paid.has(id)) await ledger.release(reservation);
  }
  return done;
}
