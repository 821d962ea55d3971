import type { ImportSession } from '../store/store.js';
import type { ImportCompanion } from '../types.js';
import { describeError } from '../../lib/describe-error.js';
import type { OsmStateStore, StateBatch, StateRecorder } from './osm-state.js';
import { writeStateBatch } from './record-state.js';
import { sqliteRecorder } from './sqlite-osm-state.js';
import { BatchQueue } from './batch-queue.js';

/** What recording the update state beside an import came to. */
export type RecordedState = { ways: number; areas: number; durationMs: number } | { error: string };

/**
 * Records an OSM extract's update state (osm-state.ts) while the import of the same file runs,
 * instead of reading the file again after it: the import's reader gathers it in the same reading
 * (osm-pbf.ts) and hands the batches to `take`, and their writes interleave with the import's.
 * (`read` gives the batches from elsewhere instead.)
 *
 * - SQLite: written through the import's connection, in its transaction (one writer a file): the
 *   index and the state it can be updated from commit together, or neither does.
 * - PostgreSQL: on a connection of its own, committed right after the import (which withdrew the
 *   state it replaces in its own commit); the server writes both at once.
 *
 * A failure of the recording never fails the import: the import commits, the state stays
 * withdrawn, and the failure is noted for `index status` and for updates to name when they refuse
 * (as with a recording after the import). A failed import stops the recording and leaves the
 * state as it was.
 */
export function recordAlongside(opts: {
  path: string;
  at: string;
  state: OsmStateStore;
  /** The batches (default: from the import's reading, through `take`). */
  read?: (path: string, signal: AbortSignal) => AsyncIterable<StateBatch>;
}): ImportCompanion & { result(): RecordedState | undefined } {
  const started = performance.now();
  const extract = { file: opts.path, at: opts.at };
  const stop = new AbortController();
  const queue = opts.read ? undefined : new BatchQueue<StateBatch>();
  stop.signal.addEventListener('abort', () => queue?.close());
  const read = opts.read ?? (() => queue!);
  let recorder: StateRecorder | undefined;
  /** SQLite: the recording is part of the import's transaction. */
  let inside = false;
  let counts: { ways: number; areas: number } | undefined;
  let failure: unknown;
  let committed = false;
  let pump: Promise<void> | undefined;
  let outcome: RecordedState | undefined;

  const run = async (session: ImportSession) => {
    inside = session.sqlite !== undefined;
    recorder = session.sqlite ? sqliteRecorder(session.sqlite, false) : await opts.state.beginRecord();
    for await (const batch of read(opts.path, stop.signal)) counts = (await writeStateBatch(recorder, batch)) ?? counts;
    if (!counts) throw new Error('the update state was not read to its end');
    // Now, while the import may still be writing, rather than at its commit.
    await recorder.complete();
  };
  /** Waits for the reading and writing to end; a failure is kept, never thrown (it must not fail the import). */
  const settle = async () => {
    await pump?.catch((err: unknown) => (failure ??= err));
  };
  const commit = async () => {
    try {
      await recorder!.commit(extract);
      committed = true;
    } catch (err) {
      failure ??= err;
    }
  };

  return {
    start(session) {
      pump = run(session);
      // Kept by settle(); a recording that failed takes no more batches (the import must not wait on it).
      pump.catch(() => queue?.close());
    },
    async beforeCommit() {
      await settle();
      if (inside && failure === undefined) await commit();
    },
    async afterCommit() {
      if (!inside && failure === undefined) await commit();
      if (committed) {
        outcome = { ...counts!, durationMs: Math.round(performance.now() - started) };
        return;
      }
      await recorder?.abort().catch(() => undefined);
      const error = describeError(failure ?? new Error('the update state was not recorded'));
      outcome = { error };
      // After the import's commit: on SQLite the state's own connection can write again.
      await opts.state.recordFailure({ ...extract, error }).catch(() => undefined);
    },
    async abort() {
      stop.abort();
      await settle();
      await recorder?.abort().catch(() => undefined);
    },
    result: () => outcome,
    ...(queue
      ? {
          async take(batch: StateBatch) {
            await queue.put(batch);
            // The areas are a reading's last batch.
            if (batch.kind === 'areas') queue.end();
          },
        }
      : {}),
  };
}
