import { KIND_GROUPS, type Kind } from './kinds.js';
import type { Outcome } from './judge.js';

export interface Cell {
  n: number;
  ok: number;
  /** How many came back `valid` (for the kinds that must never be). */
  valid: number;
  /** How many came back `valid` but not as expected (another house, or the unit lost). */
  falseValid: number;
}

export interface Tally {
  countries: string[];
  cells: Map<string, Cell>;
}

const key = (kind: Kind | '*', country: string) => `${kind}|${country}`;

export function tally(outcomes: readonly Outcome[]): Tally {
  const cells = new Map<string, Cell>();
  const countries = [...new Set(outcomes.map((o) => o.case.country))].sort();
  for (const o of outcomes) {
    for (const k of [key(o.case.kind, o.case.country), key(o.case.kind, '*'), key('*', o.case.country), key('*', '*')]) {
      const cell = cells.get(k) ?? { n: 0, ok: 0, valid: 0, falseValid: 0 };
      cell.n++;
      if (o.ok) cell.ok++;
      if (o.verdict === 'valid') cell.valid++;
      if (o.verdict === 'valid' && !o.ok) cell.falseValid++;
      cells.set(k, cell);
    }
  }
  return { countries, cells };
}

/** `kind` '*' is every kind together (a country's share of all its cases). */
export function cell(t: Tally, kind: Kind | '*', country = '*'): Cell | undefined {
  return t.cells.get(key(kind, country));
}

const pct = (c: Cell | undefined) => (c ? `${((100 * c.ok) / c.n).toFixed(c.ok === c.n ? 0 : 1)}` : '');

const EXPECTED: Record<keyof typeof KIND_GROUPS, string> = {
  formatting: 'valid',
  'does not exist': 'invalid',
  corrections: 'correctable, fixed',
  'kept as they were': 'correctable',
  'units and recipients': 'valid, unit read',
};

/** Markdown table: one row per kind, % of cases answered as expected per country, then the total (n, and `valid` answers where none may be); last, every kind together per country. */
export function formatTable(t: Tally): string {
  const head = ['kind', 'expected', ...t.countries, 'all', 'n', 'valid'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const [group, kinds] of Object.entries(KIND_GROUPS) as [keyof typeof KIND_GROUPS, readonly Kind[]][]) {
    for (const kind of kinds) {
      const all = cell(t, kind);
      // Where none may be `valid`, how many were; for units and recipients, how many were `valid` but wrong.
      const valid = group === 'does not exist' ? String(all?.valid ?? 0) : group === 'units and recipients' ? `${all?.falseValid ?? 0} false` : '';
      lines.push(`| ${kind} | ${EXPECTED[group]} | ${t.countries.map((c) => pct(cell(t, kind, c))).join(' | ')} | ${pct(all)} | ${all?.n ?? 0} | ${valid} |`);
    }
  }
  const every = cell(t, '*');
  lines.push(`| **every kind** | | ${t.countries.map((c) => pct(cell(t, '*', c))).join(' | ')} | ${pct(every)} | ${every?.n ?? 0} | |`);
  return lines.join('\n');
}
