import type { ExtractMark, StateBatch, StateRecorder, OsmStateStore } from './osm-state.js';
import { readOsmState, type StateReadOptions } from './state-reader.js';

/** Writes one batch of a recording; the last one (the areas) tells how much was recorded. */
export async function writeStateBatch(recorder: StateRecorder, batch: StateBatch): Promise<{ ways: number; areas: number } | undefined> {
  switch (batch.kind) {
    case 'ways':
      await recorder.ways(batch.rows);
      return undefined;
    case 'areas':
      await recorder.areas(batch.rows);
      // Boundaries only: place nodes ride in the same batch.
      return { ways: batch.ways, areas: batch.rows.filter((a) => a.value.kind !== 'place').length };
  }
}

/** Writes a whole recording and commits it; any failure aborts it (the previous state stays). */
export async function writeRecording(recorder: StateRecorder, batches: AsyncIterable<StateBatch>, extract: ExtractMark): Promise<{ ways: number; areas: number }> {
  try {
    let counts: { ways: number; areas: number } | undefined;
    for await (const batch of batches) counts = (await writeStateBatch(recorder, batch)) ?? counts;
    if (!counts) throw new Error('the update state was not read to its end');
    await recorder.complete();
    await recorder.commit(extract);
    return counts;
  } catch (err) {
    await recorder.abort();
    throw err;
  }
}

/**
 * Records what later updates of this extract need (osm-state.ts) after the import, in this
 * thread, in a transaction of its own: an interrupted recording leaves the previous state. The
 * CLI records it during the import instead (record-alongside.ts); both read through the import's
 * reader (osm-pbf.ts), this one through state-reader.ts.
 */
export async function recordOsmState(state: OsmStateStore, path: string, at: string, opts?: StateReadOptions): Promise<{ ways: number; areas: number }> {
  const recorder = await state.beginRecord();
  return writeRecording(recorder, readOsmState(path, opts), { file: path, at });
}
