import { describe, expect, it } from 'vitest';
import { damrakLookups, LIST_CALLER, OPEN_GRANT } from './support/damrak-lookups.js';
import { lookupRows, type RowJob } from '../../src/cli/bulk/row-lookup.js';

/**
 * Lookup threads that share a chunk (`LookupBatch.shared`, `local` on SQLite) take its rows a few
 * at a time: together they answer every row once, as one thread running them all answers it.
 */
describe('rows of a chunk shared by lookup threads', () => {
  const { open } = damrakLookups('shared-rows-');
  const caller = LIST_CALLER;
  const grant = OPEN_GRANT;
  // Numbers the street has and some it lacks, written a few ways: valid, correctable and invalid rows.
  const rows: RowJob[] = Array.from({ length: 41 }, (_, index) => {
    const n = (index % 8) + 1;
    const text = [`Damrak ${n}, 1012 LG Amsterdam`, `damrak ${n} amsterdam`, `Damrka ${n}, 1012 LG`][index % 3]!;
    return { index, request: { query: `${text}${index >= 24 ? ` (${index})` : ''}`, country: 'NL' } };
  });

  it('answers every row exactly once between the threads, each as one thread alone answers it', async () => {
    const alone = await lookupRows(await open(), caller, { rows, grant, credits: 1000 }, 8, () => false);
    expect(alone.done.map((d) => d.index).sort((a, b) => a - b)).toEqual(rows.map((r) => r.index));

    const shared = { next: new SharedArrayBuffer(4), group: 3 };
    const [a, b] = [await open(), await open()];
    const outcomes = await Promise.all([a, b].map((deps) => lookupRows(deps, caller, { rows, grant, credits: 1000, shared }, 8, () => false)));
    const done = outcomes.flatMap((o) => o.done);
    expect(done.map((d) => d.index).sort((x, y) => x - y)).toEqual(rows.map((r) => r.index));
    const byIndex = new Map(alone.done.map((d) => [d.index, d.fields]));
    for (const d of done) expect(d.fields, rows[d.index]!.request.query).toEqual(byIndex.get(d.index));
    expect(new Set(done.map((d) => d.fields[0]))).toEqual(new Set(['valid', 'correctable', 'invalid']));
  });

  it('leaves every row to the other threads when one is asked to stop before it took any', async () => {
    const shared = { next: new SharedArrayBuffer(4), group: 4 };
    const stopped = await lookupRows(await open(), caller, { rows, grant, credits: 1000, shared }, 8, () => true);
    expect(stopped.done).toEqual([]);
    const rest = await lookupRows(await open(), caller, { rows, grant, credits: 1000, shared }, 8, () => false);
    expect(rest.done.map((d) => d.index).sort((x, y) => x - y)).toEqual(rows.map((r) => r.index));
  });
});
