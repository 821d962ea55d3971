import type { BilledWork } from './billing.js';

/** Work's result or error, as a value: a failure nobody awaits yet must not go unhandled. */
export type Settled<T> = { result: BilledWork<T> } | { error: unknown };

/**
 * A billed call's work, started before it is known to be wanted (beside its cache read or its
 * reservation). A result that turns out not to be wanted (a cache hit, fewer credits) is simply
 * dropped; work dropped before its turn came never starts, and work dropped while its providers
 * were asked stops at its next `stillWanted` (before scoring what they answered).
 */
export interface WorkAhead<T> {
  readonly outcome: Promise<Settled<T>>;
  /** Not wanted after all: the work does not start if it has not yet. */
  drop(): void;
}

/**
 * Starts `work` on the next turn of the event loop: what the caller sends in this turn (a cache
 * read, a reservation) is on its way first, and the work's own first steps (reading the query) run
 * while it travels. An in-process cache answers before that turn: a hit drops the work unstarted.
 */
export function startAhead<T>(work: (stillWanted: () => void) => Promise<BilledWork<T>>): WorkAhead<T> {
  let dropped = false;
  /** Throws once the work was dropped: the work calls it between its steps. */
  const stillWanted = () => {
    if (dropped) throw new Error('work started ahead was dropped');
  };
  const outcome = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => {
      stillWanted();
      return work(stillWanted);
    })
    .then(
      (result): Settled<T> => ({ result }),
      (error: unknown): Settled<T> => ({ error }),
    );
  return { outcome, drop: () => void (dropped = true) };
}

/** What work started ahead gave: its result, or its error thrown. */
export async function aheadResult<T>(ahead: WorkAhead<T>): Promise<BilledWork<T>> {
  const settled = await ahead.outcome;
  if ('result' in settled) return settled.result;
  throw settled.error;
}

/**
 * A call's cache read with its work started beside it (`work` given: the request is likely a miss
 * and its providers cost no one a call): the hit, with the work dropped, or the work to bill.
 * `read` sends its request before its first await, so the read is on its way before the work.
 */
export async function readBeside<H, T>(
  read: () => Promise<H | undefined>,
  work: ((stillWanted: () => void) => Promise<BilledWork<T>>) | undefined,
): Promise<{ hit: H; ahead?: undefined } | { hit?: undefined; ahead: WorkAhead<T> | undefined }> {
  const reading = read();
  const ahead = work ? startAhead(work) : undefined;
  const hit = await reading;
  if (hit === undefined) return { ahead };
  ahead?.drop();
  return { hit };
}
