import { normalizeHouseNumber, normalizeStreet } from '../../src/address/normalize.js';
import type { ValidateResponse } from '../../src/contract/validate.js';
import type { CorpusAddress } from './corpus.js';
import { type LinesCarry, linesCarry } from './judge.js';
import { streetPart } from './kinds.js';

/**
 * Issue 34 item 9: is a valid answer a whole postal address? Per country, the share of `valid`
 * answers whose `address.lines` write a town, a postcode, and both. A shop ships to the lines:
 * a valid answer without its town or postcode is not an address anyone can ship to.
 */
export interface Completeness {
  /** Answers counted (valid ones, or every answer of a street-number run). */
  n: number;
  town: number;
  postcode: number;
  both: number;
}

export function countCompleteness(rows: readonly { country: string; lines: LinesCarry }[]): Map<string, Completeness> {
  const out = new Map<string, Completeness>();
  for (const { country, lines } of rows) {
    for (const key of [country, '*']) {
      const c = out.get(key) ?? { n: 0, town: 0, postcode: 0, both: 0 };
      c.n++;
      if (lines.town) c.town++;
      if (lines.postcode) c.postcode++;
      if (lines.town && lines.postcode) c.both++;
      out.set(key, c);
    }
  }
  return out;
}

const pct = (part: number, n: number) => (n === 0 ? '' : (100 * part / n).toFixed(part === n ? 0 : 1));

/** Markdown table: one row per country (and `all`), n and the three shares. */
export function formatCompleteness(counts: Map<string, Completeness>, what: string): string {
  const countries = [...counts.keys()].filter((k) => k !== '*').sort();
  const head = ['country', what, 'town %', 'postcode %', 'both %'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const key of [...countries, '*']) {
    const c = counts.get(key);
    if (!c) continue;
    lines.push(`| ${key === '*' ? '**all**' : key} | ${c.n} | ${pct(c.town, c.n)} | ${pct(c.postcode, c.n)} | ${pct(c.both, c.n)} |`);
  }
  return lines.join('\n');
}

/** One answer of a street-number run. */
export interface StreetNumberOutcome {
  address: CorpusAddress;
  query: string;
  /** The address itself (street and number, formatting aside), `valid` or `correctable` (completed: `missing` town or postcode). */
  found: boolean;
  verdict: ValidateResponse['verdict'];
  lines: LinesCarry;
  got: string;
}

/**
 * An extract's addresses typed as a shop's customer types them and lets the service complete the
 * rest: `street number` (or `number street`), the request's country alone. Every answer counts,
 * valid or not: the figure is how many come back a whole postal address.
 */
export async function streetNumberRun(
  addresses: readonly CorpusAddress[],
  validate: (query: string, country: string) => Promise<ValidateResponse>,
): Promise<StreetNumberOutcome[]> {
  const out: StreetNumberOutcome[] = [];
  for (const a of addresses) {
    const query = streetPart(a);
    const r = await validate(query, a.country);
    const got = r.address;
    const found =
      r.verdict !== 'invalid' &&
      Boolean(got?.street && got.houseNumber) &&
      normalizeStreet(got!.street!, a.country) === normalizeStreet(a.street, a.country) &&
      normalizeHouseNumber(got!.houseNumber!) === normalizeHouseNumber(a.houseNumber);
    out.push({ address: a, query, found, verdict: r.verdict, lines: linesCarry(r), got: `${r.verdict} ${r.confidence} → ${got ? got.lines.join(' / ') : '-'}` });
  }
  return out;
}

/** Markdown table of a street-number run: per country, n, found (valid or completed), and the lines' town, postcode and both over every answer. */
export function formatStreetNumberRun(outcomes: readonly StreetNumberOutcome[]): string {
  const counts = countCompleteness(outcomes.map((o) => ({ country: o.address.country, lines: o.lines })));
  const found = new Map<string, number>();
  for (const o of outcomes) for (const k of [o.address.country, '*']) found.set(k, (found.get(k) ?? 0) + (o.found ? 1 : 0));
  const head = ['country', 'answers', 'found %', 'town %', 'postcode %', 'both %'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const key of [...[...counts.keys()].filter((k) => k !== '*').sort(), '*']) {
    const c = counts.get(key)!;
    lines.push(`| ${key === '*' ? '**all**' : key} | ${c.n} | ${pct(found.get(key) ?? 0, c.n)} | ${pct(c.town, c.n)} | ${pct(c.postcode, c.n)} | ${pct(c.both, c.n)} |`);
  }
  return lines.join('\n');
}
