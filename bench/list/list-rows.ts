import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { type BenchAddress, rng, towns } from '../local-generate.js';

/** How a list's rows are made, per 100 rows (the rest are clean). */
export const LIST_MIX = { typo: 8, wrongPostcode: 6, fake: 4, repeat: 12, noCity: 5, upperCase: 5 } as const;

/**
 * Writes a customer list of `rows` rows (`id,address,country`) drawn from `sample` (addresses of
 * the index): clean lines as people type them, and per LIST_MIX two letters of the street swapped,
 * a postcode of another stretch, an address that does not exist (a street no town has), an
 * earlier row again (households, re-imports), no city, upper case. Returns the count per kind.
 */
export async function writeList(path: string, sample: readonly BenchAddress[], rows: number, seed = 11): Promise<Record<string, number>> {
  const rand = rng(seed);
  const cities = towns();
  const kinds: Record<string, number> = { clean: 0, typo: 0, wrongPostcode: 0, fake: 0, repeat: 0, noCity: 0, upperCase: 0 };
  const out = createWriteStream(path);
  out.write('id,address,country\n');
  const written: string[] = [];
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const a = sample[i % sample.length]!;
    const r = rand() * 100;
    let kind = 'clean';
    let line: string;
    let street = a.street;
    let postcode = a.postcode;
    let city = a.city;
    const number = `${a.number}${a.unit ? `-${a.unit}` : ''}`;
    let edge = 0;
    if (r < (edge += LIST_MIX.repeat) && written.length > 0) {
      kind = 'repeat';
      line = written[Math.floor(rand() * Math.min(written.length, 5000)) + Math.max(0, written.length - 5000)]!;
    } else {
      if (r < (edge += LIST_MIX.typo) && street.length > 4) {
        kind = 'typo';
        const at = 1 + Math.floor(rand() * (street.length - 3));
        street = street.slice(0, at) + street[at + 1] + street[at] + street.slice(at + 2);
      } else if (r < (edge += LIST_MIX.wrongPostcode)) {
        kind = 'wrongPostcode';
        postcode = `${1000 + Math.floor(rand() * 9000)} ${'ABCDEFGH'[Math.floor(rand() * 8)]}${'KLMNPRST'[Math.floor(rand() * 8)]}`;
      } else if (r < (edge += LIST_MIX.fake)) {
        kind = 'fake';
        street = `Nergens${['laan', 'straat', 'hof'][Math.floor(rand() * 3)]}`;
        city = cities[Math.floor(rand() * cities.length)]!;
      } else if (r < (edge += LIST_MIX.noCity)) {
        kind = 'noCity';
        city = '';
      } else if (r < (edge += LIST_MIX.upperCase)) {
        kind = 'upperCase';
        street = street.toUpperCase();
        city = city.toUpperCase();
      }
      line = `"${street} ${number}, ${postcode}${city ? ` ${city}` : ''}",NL`;
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    written.push(line);
    if (written.length > 10_000) written.splice(0, 5000);
    chunk += `${i + 1},${line}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return kinds;
}
