import { describe, expect, it } from 'vitest';
import { equalParts } from '../../src/cli/bulk/equal-parts.js';
import { PrimedAhead } from '../../src/cli/bulk/primed-ahead.js';
import { damrakLookups, LIST_CALLER, OPEN_GRANT } from './support/damrak-lookups.js';
import { lookupRows, type LookupDeps, type RowJob } from '../../src/cli/bulk/row-lookup.js';
import { readValidateInput, type ValidateInput } from '../../src/engine/validate-input.js';

const rows: RowJob[] = Array.from({ length: 41 }, (_, index) => {
  const n = (index % 8) + 1;
  const text = [`Damrak ${n}, 1012 LG Amsterdam`, `damrak ${n} amsterdam`, `Damrka ${n}, 1012 LG`][index % 3]!;
  return { index, request: { query: `${text}${index >= 24 ? ` (${index})` : ''}`, country: 'NL' } };
});

describe('rows read and primed ahead of their batch (PrimedAhead)', () => {
  it('gives each row its reading once, after its priming is answered', async () => {
    let release!: () => void;
    const primed: ValidateInput[][] = [];
    const ahead = new PrimedAhead(async (inputs) => {
      primed.push(inputs);
      await new Promise<void>((resolve) => (release = resolve));
    });
    ahead.add(rows.slice(0, 3));
    let taken: Map<number, ValidateInput> | undefined;
    const taking = ahead.take([rows[1]!, rows[2]!, rows[5]!]).then((m) => (taken = m));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still priming: the rows must not run on an index that has not got their answers yet.
    expect(taken).toBeUndefined();
    release();
    await taking;
    expect([...taken!.keys()]).toEqual([1, 2]);
    expect(taken!.get(2)?.query).toEqual(readValidateInput(rows[2]!.request).query);
    expect(primed.map((inputs) => inputs.map((i) => i.query))).toEqual([rows.slice(0, 3).map((r) => readValidateInput(r.request).query)]);
    // Taken once; row 0 was never given to this thread and goes with its batch's last row.
    expect((await ahead.take([rows[1]!])).size).toBe(0);
    expect(ahead.size).toBe(1);
    ahead.forgetThrough(0);
    expect(ahead.size).toBe(0);
  });

  it('cuts a chunk into the parts the threads get, in order, none empty', () => {
    expect(equalParts([1, 2, 3, 4, 5], 2)).toEqual([[1, 2, 3], [4, 5]]);
    expect(equalParts([1, 2, 3, 4, 5], 4)).toEqual([[1, 2], [3, 4], [5]]);
    expect(equalParts([1], 3)).toEqual([[1]]);
    expect(equalParts([], 2)).toEqual([]);
  });
});

describe('a batch whose rows were primed ahead', () => {
  const { open } = damrakLookups('primed-ahead-');
  const caller = LIST_CALLER;
  const grant = OPEN_GRANT;

  it('primes only the rows not primed ahead, and answers every row as without it', async () => {
    const alone = await lookupRows(await open(), caller, { rows, grant, credits: 1000 }, 8, () => false);

    const deps = await open();
    const primed: string[][] = [];
    const spied: LookupDeps = { ...deps, prime: async (inputs) => void primed.push(inputs.map((i) => i.query.query ?? '')) };
    const ahead = new PrimedAhead(spied.prime);
    ahead.add(rows.slice(0, 20));
    const outcome = await lookupRows(spied, caller, { rows, grant, credits: 1000 }, 8, () => false, ahead);

    const text = (r: RowJob) => readValidateInput(r.request).query.query ?? '';
    expect(primed).toEqual([rows.slice(0, 20).map(text), rows.slice(20).map(text)]);
    expect(outcome.done.map((d) => [d.index, d.fields])).toEqual(alone.done.map((d) => [d.index, d.fields]));
    expect(ahead.size).toBe(0);
  });
});
