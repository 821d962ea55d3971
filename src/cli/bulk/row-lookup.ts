import type { BulkCharge } from '../../billing/bulk-ledger.js';
import type { ValidateRequest } from '../../contract/validate.js';
import { type ChunkGrant, ChunkBiller } from '../../engine/chunk-biller.js';
import { CreditsExhaustedError } from '../../engine/errors.js';
import type { ProviderRunner } from '../../engine/fan-out.js';
import type { Thresholds } from '../../engine/types.js';
import { isUnverified } from '../../engine/unverified.js';
import { ValidateEngine } from '../../engine/validate.js';
import { readValidateInput, type ValidateInput } from '../../engine/validate-input.js';
import { mapBounded } from '../../lib/bounded.js';
import type { Clock } from '../../lib/clock.js';
import type { ResponseCache } from '../../store/cache/response-cache.js';
import { type ResultFields, resultFields } from './output.js';
import type { PrimedAhead } from './primed-ahead.js';

/** Usage events of the CLI: endpoint and credential are named for what they are, not an HTTP path or a key. */
export const CLI_ENDPOINT = 'cli validate';
export const CLI_CREDENTIAL = 'cli';

/** What a lookup needs of the service: the API's runner and cache (in the main thread, or a lookup thread's own). */
export interface LookupDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  cacheTtlMs: number;
  clock: Clock;
  /**
   * The rows about to be looked up, handed over at once as the engine reads them: the local index
   * looks their words, postcodes and streets up together (a few statements a chunk instead of a few
   * a row), and the rows then find them waiting. Answers do not depend on it.
   */
  prime?: ((inputs: ValidateInput[]) => Promise<void>) | undefined;
}

/** Who the rows are billed to. */
export interface BulkCaller {
  accountId: string;
  source: string;
  thresholds: Thresholds;
}

export interface RowJob {
  index: number;
  request: ValidateRequest;
}

/** A row looked up: its output fields, its bill, and what a repeat of it may reuse. */
export interface RowDone {
  index: number;
  fields: ResultFields;
  charge: BulkCharge;
  /** Every provider meant to answer did: the API would cache this answer (and so may a repeat). */
  complete: boolean;
  unverified: boolean;
}

export interface LookupBatch {
  rows: RowJob[];
  grant: ChunkGrant;
  /** What of the chunk's reservation these rows may spend. */
  credits: number;
  /**
   * Rows several threads share (the same batch sent to each): a thread takes the next `group` rows
   * no thread has taken (`next`: one Int32, the first row not taken), so the threads of a chunk
   * finish together instead of waiting for the slowest one's fixed half. Without it, every row.
   */
  shared?: { next: SharedArrayBuffer; group: number };
}

export interface LookupOutcome {
  done: RowDone[];
  /** The credits ran out: rows not in `done` were not looked up. */
  exhausted: boolean;
}

/** Rows handed to `LookupDeps.prime` at once. */
const PRIMED_ROWS = 250;

/**
 * Rows through the API's engine (same cache, same reading, scoring and verdict as POST
 * /v1/validate), billed to a ChunkBiller: the same code in the main thread and in lookup threads,
 * so a row gets the same answer wherever it runs. `stopped()` is asked before each row starts.
 * `ahead`: the thread's rows read and primed before their batch came (primed-ahead.ts).
 */
export async function lookupRows(
  deps: LookupDeps,
  caller: BulkCaller,
  batch: LookupBatch,
  concurrency: number,
  stopped: () => boolean,
  ahead?: PrimedAhead,
): Promise<LookupOutcome> {
  const biller = new ChunkBiller(deps.clock, batch.grant, batch.credits);
  // Repeats are answered before they get here (repeats.ts): the engine need not remember requests.
  // Each row is read once: for the priming below, and by the engine (a reading depends on the request alone).
  const readings = new Map<ValidateRequest, ValidateInput>();
  const readInput = (request: ValidateRequest) => readings.get(request) ?? readValidateInput(request);
  const engine = new ValidateEngine({ runner: deps.runner, cache: deps.cache, biller, cacheTtlMs: deps.cacheTtlMs, rememberRequests: false, readInput });
  const done: RowDone[] = [];
  let exhausted = false;
  const lookUp = async (row: RowJob) => {
    if (exhausted || stopped()) return;
    const ctx = {
      accountId: caller.accountId,
      credentialId: CLI_CREDENTIAL,
      env: 'live',
      endpoint: CLI_ENDPOINT,
      source: caller.source,
      startedAt: deps.clock.now(),
      thresholds: caller.thresholds,
    };
    try {
      const response = await engine.validate(row.request, ctx);
      const bill = biller.calls.get(ctx);
      if (!bill) throw new Error('a bulk row was answered without a bill');
      done.push({ index: row.index, fields: resultFields(response), charge: bill.charge, complete: bill.complete, unverified: isUnverified(response) });
    } catch (error) {
      if (!(error instanceof CreditsExhaustedError)) throw error;
      exhausted = true;
    }
  };
  // The rows this thread runs, a group at a time: all of them, or those it takes of a shared batch.
  const shared = batch.shared && { next: new Int32Array(batch.shared.next), group: batch.shared.group };
  let taken = 0;
  const take = (): RowJob[] => {
    if (!shared) return batch.rows.slice(taken, (taken = batch.rows.length));
    const from = Atomics.add(shared.next, 0, shared.group);
    return batch.rows.slice(from, from + shared.group);
  };
  // Nothing is taken once stopped: rows of a shared batch not taken are left to the other threads.
  while (!exhausted && !stopped()) {
    const group = take();
    if (group.length === 0) break;
    // A slice at a time, primed just before it runs (what the index keeps waiting for the rows is bounded).
    for (let at = 0; at < group.length && !exhausted && !stopped(); at += PRIMED_ROWS) await lookUpSlice(group.slice(at, at + PRIMED_ROWS));
  }
  // Rows read ahead up to this batch's last that it did not hold will not come (another thread's, or repeats).
  if (ahead && batch.rows.length > 0) ahead.forgetThrough(batch.rows.reduce((last, r) => Math.max(last, r.index), -Infinity));
  return { done, exhausted };

  async function lookUpSlice(slice: RowJob[]): Promise<void> {
    readings.clear();
    const early = ahead ? await ahead.take(slice) : undefined;
    // Only the rows not primed ahead are primed now.
    const fresh: ValidateInput[] = [];
    for (const r of slice) {
      let input = early?.get(r.index);
      if (!input) fresh.push((input = readValidateInput(r.request)));
      readings.set(r.request, input);
    }
    // A failed priming only leaves the rows to ask for themselves (and fail there, if they must).
    if (fresh.length > 0) await deps.prime?.(fresh).catch(() => undefined);
    await mapBounded(slice, concurrency, lookUp);
  }
}
