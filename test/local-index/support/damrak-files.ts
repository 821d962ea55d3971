import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** OpenAddresses rows of Damrak, Amsterdam, for these house numbers. */
function damrak(numbers: number[]): string {
  const rows = numbers.map((n, i) => `h${n},${(4.8942 + i * 0.0001).toFixed(5)},${(52.3749 + i * 0.0001).toFixed(5)},${n},Damrak,,Amsterdam,,Noord-Holland,1012LG,`);
  return ['hash,lon,lat,number,street,unit,city,district,region,postcode,id', ...rows].join('\n');
}

/**
 * A month of one street in `dir`: `before` holds Damrak 1-5; in `after`, Damrak 1 is gone and
 * Damrak 120 is new (issue 28's removed and added address).
 */
export function writeDamrakMonth(dir: string): { before: string; after: string } {
  const out = { before: join(dir, 'before.oa.csv'), after: join(dir, 'after.oa.csv') };
  writeFileSync(out.before, damrak([1, 2, 3, 4, 5]));
  writeFileSync(out.after, damrak([2, 3, 4, 5, 120]));
  return out;
}

/** `addressd import FILE --format openaddresses --country NL --replace` arguments, as the operator runs it. */
export const importArgs = (file: string): string[] => ['import', file, '--format', 'openaddresses', '--country', 'NL', '--replace', '--json'];
