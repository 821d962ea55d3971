import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from '../../bench/accuracy/harness.js';
import type { Outcome } from '../../bench/accuracy/judge.js';
import { buildCases, KIND_GROUPS, type Kind } from '../../bench/accuracy/kinds.js';
import { cell, tally, type Tally } from '../../bench/accuracy/table.js';
import { countCompleteness } from '../../bench/accuracy/completeness.js';
import type { CorpusAddress } from '../../bench/accuracy/corpus.js';

/**
 * A slice of `npm run accuracy` (issue 15): a few addresses of every country in the corpus, among
 * them those with house letters and additions and (issue 21) with a number in the street's name,
 * typed every way (issue 27: with units, recipient lines and Austrian doors too), through /v1/validate with `local`.
 * The thresholds hold per kind, and per country for formatting, so a regression fails here.
 */
const PER_COUNTRY = 2;

function slice(addresses: readonly CorpusAddress[]): CorpusAddress[] {
  const out: CorpusAddress[] = [];
  for (const country of new Set(addresses.map((a) => a.country))) {
    const mine = addresses.filter((a) => a.country === country);
    const plain = mine.filter((a) => /^\d+$/.test(a.houseNumber)).slice(0, PER_COUNTRY);
    const lettered = mine.filter((a) => !/^\d+$/.test(a.houseNumber)).slice(0, PER_COUNTRY);
    // Issue 21: a street with a number in its name, where the country has one.
    const numbered = mine.filter((a) => /\d/.test(a.street) && !plain.includes(a)).slice(0, 1);
    out.push(...plain, ...lettered, ...numbered);
  }
  return out;
}

describe('verdict accuracy on a slice of the corpus (npm run accuracy)', () => {
  let harness: Harness;
  let outcomes: Outcome[];
  let t: Tally;

  beforeAll(async () => {
    harness = await openHarness();
    outcomes = await harness.run(buildCases(slice(harness.addresses), harness.universe));
    t = tally(outcomes);
  }, 240_000);
  afterAll(async () => harness?.close());

  const failures = (kind: Kind) =>
    outcomes
      .filter((o) => o.case.kind === kind && !o.ok)
      .map((o) => `${o.case.country} "${o.case.query}" → ${o.got}`)
      .slice(0, 5);
  const share = (kind: Kind, country?: string) => {
    const c = cell(t, kind, country);
    return c ? c.ok / c.n : 1;
  };

  it.each(KIND_GROUPS.formatting)('%s: valid in ≥ 98 % in every country', (kind) => {
    expect(cell(t, kind)?.n ?? 0).toBeGreaterThan(0);
    const low = t.countries.filter((c) => share(kind, c) < 0.98);
    expect({ low, failures: failures(kind) }).toEqual({ low: [], failures: low.length ? failures(kind) : [] });
  });

  it.each(KIND_GROUPS['does not exist'])('%s: never valid, invalid in ≥ 99 %', (kind) => {
    expect(cell(t, kind)?.valid).toBe(0);
    expect({ share: share(kind) >= 0.99, failures: failures(kind) }).toMatchObject({ share: true });
  });

  it.each(KIND_GROUPS.corrections)('%s: correctable with that component corrected in ≥ 95 %', (kind) => {
    expect({ share: share(kind) >= 0.95, failures: failures(kind) }).toMatchObject({ share: true });
  });

  it.each(KIND_GROUPS['kept as they were'])('%s: correctable in ≥ 99 %', (kind) => {
    expect({ share: share(kind) >= 0.99, failures: failures(kind) }).toMatchObject({ share: true });
  });

  // Issue 27: a unit, a recipient line or an Austrian door after a slash never costs the house its verdict.
  it.each(KIND_GROUPS['units and recipients'])('%s: valid with the unit read (or the line set aside) in ≥ 98 %, never valid for anything else', (kind) => {
    expect(cell(t, kind)?.n ?? 0).toBeGreaterThan(0);
    expect(cell(t, kind)?.falseValid).toBe(0);
    expect({ share: share(kind) >= 0.98, failures: failures(kind) }).toMatchObject({ share: true });
  });

  it('clean addresses: valid in every country', () => {
    expect(share('clean')).toBe(1);
  });

  // Issue 34: a valid answer is a whole postal address, its town and postcode written in its lines.
  it('valid answers carry a town and a postcode in address.lines in every country', () => {
    const counts = countCompleteness(outcomes.filter((o) => o.verdict === 'valid').map((o) => ({ country: o.case.country, lines: o.lines })));
    const short = [...counts].filter(([, c]) => c.both < c.n).map(([country]) => country);
    expect(counts.get('*')?.n ?? 0).toBeGreaterThan(0);
    expect(short).toEqual([]);
  });
});
