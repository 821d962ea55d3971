import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Synthetic Dutch-style addresses in OpenAddresses CSV layout, for the `local` benchmark.
 * Synthetic because no open data set of a million addresses can be fetched here (no network
 * but the package registries) and real samples must not enter the project; the generator
 * mimics the shape that matters for the index: compound street names shared across towns,
 * 4-digit + 2-letter postcodes per stretch of street, house letters and additions.
 */

export interface BenchAddress {
  street: string;
  number: string;
  unit: string;
  postcode: string;
  city: string;
}

/** Deterministic PRNG (mulberry32), so every run benchmarks the same data and queries. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STEMS = [
  'Keizers', 'Prinsen', 'Heren', 'Kerk', 'Molen', 'Berken', 'Eiken', 'Linden', 'Beuken', 'Wilgen', 'Populieren', 'Kastanje',
  'Rozen', 'Tulpen', 'Lelie', 'Narcissen', 'Dahlia', 'Seringen', 'Vlier', 'Hazel', 'Meidoorn', 'Esdoorn', 'Kanaal', 'Haven',
  'Dijk', 'Polder', 'Sluis', 'Brug', 'Toren', 'Markt', 'School', 'Stations', 'Zuider', 'Noorder', 'Ooster', 'Wester',
  'Nieuwe', 'Oude', 'Lange', 'Korte', 'Hoge', 'Lage', 'Smids', 'Bakkers', 'Vissers', 'Brouwers', 'Kuipers', 'Wevers',
  'Rembrandt', 'Vermeer', 'Spinoza', 'Erasmus', 'Vondel', 'Huygens', 'Leeuwenhoek', 'Oranje', 'Nassau', 'Willems',
  'Juliana', 'Beatrix', 'Wilhelmina', 'Emma', 'Sophia', 'Hendrik', 'Frederik', 'Maurits', 'Johan', 'Pieter', 'Jacob',
  'Zeeman', 'Merel', 'Lijster', 'Koolmees', 'Specht', 'Reiger', 'Zwaluw', 'Kievit', 'Fazant', 'Valk', 'Havik', 'Uilen',
];
const TYPES = ['straat', 'gracht', 'weg', 'laan', 'plein', 'kade', 'dijk', 'singel', 'steeg', 'pad', 'hof', 'dreef'];
const TOWN_A = ['Amster', 'Rotter', 'Zaan', 'Leeu', 'Gronin', 'Haar', 'Eind', 'Til', 'Breda', 'Nijme', 'Arn', 'Zwol', 'Delf', 'Gou', 'Alk', 'Hoorn', 'Edam', 'Vlaar', 'Mep', 'Ass'];
const TOWN_B = ['dam', 'dijk', 'wijk', 'hoven', 'burg', 'veen', 'horst', 'berg', 'stad', 'loo', 'meer', 'recht', 'zand', 'sum', 'broek'];
const LETTERS = 'ABCDEFGHJKLMNPRSTVWXZ';

export function towns(): string[] {
  return TOWN_A.flatMap((a) => TOWN_B.map((b) => a + b));
}

/**
 * Writes `count` addresses to `path`; returns a uniform random sample of them (reservoir
 * sampling) for the query workload. About 40 numbers per street, 4 000 streets per town name pool.
 */
export async function generateAddresses(path: string, count: number, sampleSize: number, seed = 42): Promise<BenchAddress[]> {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out = createWriteStream(path);
  out.write('LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH\n');
  const sample: BenchAddress[] = [];
  const cities = towns();
  const usedStreets = new Set<string>();
  let written = 0;
  let pc = 1000;
  while (written < count) {
    const city = pick(cities);
    let street = '';
    for (let tries = 0; tries < 20 && (street === '' || usedStreets.has(`${street}|${city}`)); tries++) {
      street = rand() < 0.15 ? `${pick(STEMS)} ${pick(STEMS)}${pick(TYPES)}` : `${pick(STEMS)}${pick(TYPES)}`;
    }
    usedStreets.add(`${street}|${city}`);
    const baseLat = 51 + (cities.indexOf(city) % 20) * 0.1;
    const baseLng = 4 + Math.floor(cities.indexOf(city) / 20) * 0.15;
    const numbers = 5 + Math.floor(rand() * 70);
    let postcode = '';
    let chunk = '';
    for (let n = 1; n <= numbers && written < count; n++) {
      if ((n - 1) % 20 === 0) {
        pc = pc >= 9999 ? 1000 : pc + 1;
        postcode = `${pc} ${pick([...LETTERS])}${pick([...LETTERS])}`;
      }
      const r = rand();
      const number = r < 0.05 ? `${n}${pick(['A', 'B', 'C'])}` : String(n);
      const unit = r > 0.95 ? String(1 + Math.floor(rand() * 3)) : '';
      const lat = (baseLat + rand() * 0.05).toFixed(6);
      const lng = (baseLng + rand() * 0.08).toFixed(6);
      const a: BenchAddress = { street, number, unit, postcode, city };
      chunk += `${lng},${lat},${number},${street},${unit},${city},,Noord-Holland,${postcode},,\n`;
      written++;
      if (sample.length < sampleSize) sample.push(a);
      else {
        const j = Math.floor(rand() * written);
        if (j < sampleSize) sample[j] = a;
      }
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return sample;
}
