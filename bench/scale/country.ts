import { rng } from '../local-generate.js';

/**
 * A synthetic country shaped like a real one where it matters to the index: municipalities in
 * the thousands laid out on a grid (each one a cell, so its boundary is known), town sizes
 * skewed (a few cities, many villages), several postcodes per town, and street names drawn
 * from a Zipf distribution: the first names (`Hauptstraße`, `Bahnhofstraße`) are in most
 * towns, the long tail in one or two, as in Germany (Hauptstraße in ~6,000 municipalities)
 * or the US (Main Street). Synthetic for the reasons in ../local-generate.ts.
 */

export interface Town {
  index: number;
  name: string;
  /** The cell's south-west corner and size (degrees); addresses fall in its inner part. */
  south: number;
  west: number;
  height: number;
  width: number;
  addresses: number;
  /** 5-digit postcodes, each covering a run of the town's streets. */
  postcodes: string[];
}

export interface Street {
  name: string;
  /** Rank in the Zipf list: 0 is the most common name. */
  rank: number;
  postcode: string;
  numbers: number;
}

export interface CountryShape {
  towns: Town[];
  /** Grid columns and rows (towns[i] is at column i % cols, row ⌊i / cols⌋). */
  cols: number;
  rows: number;
  south: number;
  west: number;
  cell: { height: number; width: number };
}

const SYLLABLES = ['ba', 'ber', 'bur', 'dorf', 'el', 'feld', 'gen', 'hau', 'heim', 'hof', 'kir', 'lin', 'mar', 'nau', 'ost', 'rath', 'ried', 'ro', 'sen', 'stein', 'tal', 'wal', 'wei', 'zell'];
const PREFIXES = ['Alt', 'Bad', 'Neu', 'Ober', 'Unter', 'Groß', 'Klein', 'Sankt'];
const STEMS = [
  'Haupt', 'Bahnhof', 'Schul', 'Garten', 'Dorf', 'Kirch', 'Berg', 'Wald', 'Linden', 'Birken', 'Mühlen', 'Wiesen', 'Ring', 'Feld', 'Sonnen',
  'Rosen', 'Eichen', 'Buchen', 'Ahorn', 'Tannen', 'Mozart', 'Goethe', 'Schiller', 'Beethoven', 'Kant', 'Heine', 'Lessing', 'Uhland',
  'Friedhof', 'Markt', 'Burg', 'Schloss', 'Brunnen', 'Kapellen', 'Tal', 'Bach', 'Weiher', 'See', 'Hafen', 'Brücken', 'Post', 'Rathaus',
  'Industrie', 'Gewerbe', 'Jahn', 'Turner', 'Sport', 'Park', 'Anger', 'Hohl', 'Stein', 'Sand', 'Kies', 'Lehm', 'Acker', 'Hecken',
  'Amsel', 'Drossel', 'Finken', 'Lerchen', 'Meisen', 'Falken', 'Adler', 'Storchen', 'Hirsch', 'Fuchs', 'Dachs', 'Hasen', 'Wolfs',
];
const DISTRICTS = ['Nord', 'Süd', 'Ost', 'West', 'Mitte'];
const TYPES = ['straße', 'weg', 'gasse', 'platz', 'allee', 'ring', 'steig', 'pfad', 'damm', 'graben'];

/** Unique, pronounceable town names: syllable pairs, then prefixed, then numbered. */
function townNames(count: number, rand: () => number): string[] {
  const names = new Set<string>();
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  for (let i = 0; names.size < count; i++) {
    const a = SYLLABLES[Math.floor(rand() * SYLLABLES.length)]!;
    const b = SYLLABLES[Math.floor(rand() * SYLLABLES.length)]!;
    const c = i > 2000 ? SYLLABLES[Math.floor(rand() * SYLLABLES.length)]! : '';
    let name = cap(a + b + c);
    if (i > 4000 && rand() < 0.3) name = `${PREFIXES[Math.floor(rand() * PREFIXES.length)]!} ${name}`;
    if (i > 40_000) name = `${name} ${i}`;
    names.add(name);
  }
  return [...names];
}

/**
 * Street names in Zipf order: every stem with every type (`Hauptstraße`, `Hauptweg`, …), then
 * two-stem compounds (`Rosenbergweg`), shuffled so common names are not all of one type, but
 * with `Haupt`, `Bahnhof`, `Schul` … + `straße` first, as in reality.
 */
export function streetNames(rand: () => number): string[] {
  const simple = STEMS.flatMap((s) => TYPES.map((t) => s + t));
  const compound = STEMS.flatMap((a) => STEMS.filter((b) => b !== a).flatMap((b) => TYPES.map((t) => a + b.toLowerCase() + t)));
  const shuffle = (xs: string[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const leaders = STEMS.slice(0, 20).map((s) => `${s}straße`);
  const rest = shuffle(simple.filter((n) => !leaders.includes(n)));
  return [...leaders, ...rest, ...shuffle(compound)];
}

/** Draws ranks from a Zipf(s = 1) distribution over n names, by inverse CDF on a precomputed table. */
export class Zipf {
  private readonly cdf: Float64Array;
  constructor(n: number, s = 1) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) this.cdf[r] = sum += 1 / (r + 1) ** s;
    for (let r = 0; r < n; r++) this.cdf[r]! /= sum;
  }
  draw(u: number): number {
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Municipalities for `count` addresses at the density of issue #30's country-shaped extract
 * (2M addresses, 1,200 municipality boundaries), between 50 and 12,000 (Germany: ~11,000).
 */
export function countryTowns(count: number): number {
  return Math.max(50, Math.min(12_000, Math.round((count * 1200) / 2_000_000)));
}

/**
 * Lays out `townCount` towns sharing `count` addresses (sizes ∝ 1/rank^0.9 shuffled over the
 * grid, at least 20 each) on a country-sized grid around 47-55° N, 6-15° E.
 */
export function shapeCountry(count: number, townCount: number, seed = 22): CountryShape {
  const rand = rng(seed);
  const cols = Math.ceil(Math.sqrt(townCount * 1.2));
  const rows = Math.ceil(townCount / cols);
  const south = 47;
  const west = 6;
  const cell = { height: 8 / rows, width: 9 / cols };
  const weights = Array.from({ length: townCount }, (_, r) => 1 / (r + 1) ** 0.9);
  const total = weights.reduce((a, b) => a + b, 0);
  const names = townNames(townCount, rand);
  const order = Array.from({ length: townCount }, (_, i) => i).sort(() => rand() - 0.5);
  let pc = 1000;
  const towns = names.map((name, i) => {
    const addresses = Math.max(20, Math.round((count * weights[order[i]!]!) / total));
    const postcodes = Array.from({ length: Math.max(1, Math.round(addresses / 3000)) }, () => String((pc = pc >= 99_999 ? 1000 : pc + 1 + Math.floor(rand() * 3))).padStart(5, '0'));
    return { index: i, name, south: south + Math.floor(i / cols) * cell.height, west: west + (i % cols) * cell.width, height: cell.height, width: cell.width, addresses, postcodes };
  });
  return { towns, cols, rows, south, west, cell };
}

/**
 * The streets of one town: names drawn from the Zipf list without repeats in the town, 5-80
 * numbers each, each street in one of the town's postcodes. Deterministic per town.
 */
export function townStreets(town: Town, names: string[], zipf: Zipf, seed: number): Street[] {
  const rand = rng(seed * 100_003 + town.index);
  const used = new Set<number>();
  const streets: Street[] = [];
  let left = town.addresses;
  // A city with more streets than there are names (the largest at 30M addresses: ~57,000 streets,
  // 49,000 names) names its districts' streets apart, as cities do (`Hauptstraße Nord`).
  let district = 0;
  while (left > 0) {
    if (used.size === names.length) {
      used.clear();
      district++;
    }
    let rank = zipf.draw(rand());
    for (let tries = 0; used.has(rank) && tries < 50; tries++) rank = zipf.draw(rand());
    while (used.has(rank)) rank = (rank + 1) % names.length;
    used.add(rank);
    const numbers = Math.min(left, 5 + Math.floor(rand() * rand() * 120));
    const name = district === 0 ? names[rank]! : `${names[rank]!} ${DISTRICTS[(district - 1) % DISTRICTS.length]!}${district > DISTRICTS.length ? ` ${Math.ceil(district / DISTRICTS.length)}` : ''}`;
    streets.push({ name, rank, postcode: town.postcodes[Math.floor(rand() * town.postcodes.length)]!, numbers });
    left -= numbers;
  }
  return streets;
}

/** How common a street name is: the classes `bench:scale` reports latencies by. */
export type Frequency = 'rare' | 'common' | 'most common';
export const FREQUENCIES: Frequency[] = ['rare', 'common', 'most common'];

export function frequencyOf(rank: number): Frequency {
  return rank < 10 ? 'most common' : rank < 500 ? 'common' : 'rare';
}

/** Reservoir samples per frequency class, so the rare and the most common are measured alike. */
export class ClassSampler<T> {
  private readonly seen = new Map<Frequency, number>();
  readonly samples = new Map<Frequency, T[]>(FREQUENCIES.map((f) => [f, []]));
  constructor(
    private readonly size: number,
    private readonly rand: () => number,
  ) {}
  offer(frequency: Frequency, item: () => T): void {
    const n = (this.seen.get(frequency) ?? 0) + 1;
    this.seen.set(frequency, n);
    const list = this.samples.get(frequency)!;
    if (list.length < this.size) list.push(item());
    else {
      const j = Math.floor(this.rand() * n);
      if (j < this.size) list[j] = item();
    }
  }
}
