import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rng } from '../local-generate.js';
import { ClassSampler, frequencyOf, shapeCountry, streetNames, townStreets, Zipf, type CountryShape, type Frequency, type Town } from './country.js';

/** One generated address, as the query workload types it. */
export interface ScaleAddress {
  street: string;
  number: string;
  postcode: string;
  city: string;
  /** Whether the source file named the town (`addr:city`); in OSM most addresses do not. */
  tagged: boolean;
  lat: number;
  lng: number;
}

export interface Generated {
  addresses: number;
  towns: number;
  /** Per frequency class: sampled addresses, and the fewest / most towns sharing one of its street names. */
  samples: Record<Frequency, ScaleAddress[]>;
  townsPerName: Record<Frequency, { min: number; max: number }>;
}

export interface GenerateOptions {
  count: number;
  towns: number;
  sample: number;
  seed?: number;
}

/** Buffered writes with back-pressure. */
class Out {
  private buffer = '';
  constructor(readonly stream: Writable) {}
  async write(s: string): Promise<void> {
    this.buffer += s;
    if (this.buffer.length > 1 << 16) await this.flush();
  }
  /** Appends without waiting (the many small OPL lines); `drain` flushes once enough has built up. */
  add(s: string): void {
    this.buffer += s;
  }
  async drain(): Promise<void> {
    if (this.buffer.length > 1 << 16) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.buffer && !this.stream.write(this.buffer)) await once(this.stream, 'drain');
    this.buffer = '';
  }
  async end(): Promise<void> {
    await this.flush();
    this.stream.end();
    if (!(this.stream as WriteStream).writableFinished) await once(this.stream, 'finish');
  }
}

interface Visit {
  town: Town;
  street: string;
  rank: number;
  number: string;
  postcode: string;
  lat: number;
  lng: number;
  /** Random number in [0, 1) for per-address choices (node or way, tags). */
  u: number;
}

/** Walks every address of the country in a fixed order (town by town, street by street). */
async function walk(shape: CountryShape, opts: GenerateOptions, visit: (v: Visit) => Promise<void>, streetDone?: (town: Town, name: string, points: [number, number][]) => Promise<void>) {
  const seed = opts.seed ?? 22;
  const rand = rng(seed + 1);
  const names = streetNames(rng(seed + 2));
  const zipf = new Zipf(names.length);
  let left = opts.count;
  for (const town of shape.towns) {
    if (left <= 0) break;
    for (const s of townStreets(town, names, zipf, seed)) {
      const points: [number, number][] = [];
      // A street runs across the inner part of its town's cell (the edges stay clear of the jagged boundary).
      const lat0 = town.south + town.height * (0.2 + 0.6 * rand());
      const lng0 = town.west + town.width * (0.2 + 0.3 * rand());
      const step = (town.width * 0.3) / Math.max(1, s.numbers);
      for (let n = 1; n <= s.numbers && left > 0; n++, left--) {
        const u = rand();
        const number = u < 0.06 ? `${n}${'abc'[Math.floor(u * 50) % 3]}` : String(n);
        const lat = lat0 + (n % 2 === 0 ? 1 : -1) * town.height * 0.002;
        const lng = lng0 + n * step;
        points.push([lat, lng]);
        await visit({ town, street: s.name, rank: s.rank, number, postcode: s.postcode, lat, lng, u: rand() });
      }
      if (streetDone && points.length > 0) await streetDone(town, s.name, points);
    }
  }
}

function summarize(sampler: ClassSampler<ScaleAddress>, towns: Map<number, number>, count: number, townCount: number): Generated {
  const townsPerName = {} as Generated['townsPerName'];
  for (const [rank, n] of towns) {
    const f = frequencyOf(rank);
    const r = (townsPerName[f] ??= { min: n, max: n });
    r.min = Math.min(r.min, n);
    r.max = Math.max(r.max, n);
  }
  return { addresses: count, towns: townCount, samples: Object.fromEntries(sampler.samples) as Generated['samples'], townsPerName };
}

/** OpenAddresses CSV (country DE), every address naming its town and postcode. */
export async function generateCsv(path: string, opts: GenerateOptions): Promise<Generated> {
  const shape = shapeCountry(opts.count, opts.towns, opts.seed);
  const out = new Out(createWriteStream(path));
  await out.write('LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH\n');
  const sampler = new ClassSampler<ScaleAddress>(opts.sample, rng((opts.seed ?? 22) + 3));
  const towns = new Map<number, number>();
  let lastStreet = '';
  await walk(shape, opts, async (v) => {
    const key = `${v.town.index}|${v.rank}`;
    if (key !== lastStreet) towns.set(v.rank, (towns.get(v.rank) ?? 0) + 1);
    lastStreet = key;
    sampler.offer(frequencyOf(v.rank), () => ({ street: v.street, number: v.number, postcode: v.postcode, city: v.town.name, tagged: true, lat: v.lat, lng: v.lng }));
    await out.write(`${v.lng.toFixed(7)},${v.lat.toFixed(7)},${v.number},${v.street},,${v.town.name},,,${v.postcode},,\n`);
  });
  await out.end();
  return summarize(sampler, towns, opts.count, opts.towns);
}

export interface OsmOptions extends GenerateOptions {
  /** Share of addresses on building ways (the rest are address nodes). Real extracts: 0.8-0.9. */
  onWays?: number;
  /** Share of addresses tagged `addr:city`. Germany: about 0.4. */
  withCity?: number;
  /** Share tagged `addr:postcode` (the rest take their street's). */
  withPostcode?: number;
  /** All nodes in the file per address (a real country extract: ~13). */
  nodesPerAddress?: number;
}

/** OPL escapes space, comma, equals sign, `@` and `%` (and anything non-printing) as `%hex%`. */
export function oplEscape(s: string): string {
  return s.replace(/[\s,=@%\p{C}]/gu, (c) => `%${c.codePointAt(0)!.toString(16)}%`);
}
const tags = (t: Record<string, string>) => Object.entries(t).map(([k, v]) => `${oplEscape(k)}=${oplEscape(v)}`).join(',');
const coord = (x: number) => x.toFixed(7);

/**
 * A country-shaped OpenStreetMap file: municipalities as boundary relations (admin_level 8,
 * jagged edges shared by neighbours, as real boundaries are), the country as admin_level 2,
 * addresses mostly on building ways, streets as highway ways, untagged filler ways and nodes up
 * to a real extract's node count, `addr:city` on a minority. Written as OPL and converted to PBF
 * by osmium-tool (`osmium cat`), a real writer: nodes go to osmium's stdin as they are made,
 * ways and relations through temporary files, so the file keeps OSM's order (nodes, ways,
 * relations, ids ascending).
 */
export async function generateOsm(pbf: string, opts: OsmOptions): Promise<Generated> {
  const onWays = opts.onWays ?? 0.85;
  const withCity = opts.withCity ?? 0.4;
  const withPostcode = opts.withPostcode ?? 0.7;
  const nodesPerAddress = opts.nodesPerAddress ?? 13;
  const shape = shapeCountry(opts.count, opts.towns, opts.seed);
  const rand = rng((opts.seed ?? 22) + 4);
  const work = mkdtempSync(join(tmpdir(), 'scale-osm-'));
  const osmium = spawn('osmium', ['cat', '--no-progress', '-F', 'opl', '-', '-f', 'pbf', '-o', pbf, '--overwrite'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  osmium.stderr.on('data', (c) => (stderr += String(c)));
  const exited = once(osmium, 'close');
  try {
    const nodes = new Out(osmium.stdin);
    const ways = new Out(createWriteStream(join(work, 'ways.opl')));
    const relations = new Out(createWriteStream(join(work, 'relations.opl')));
    let nodeId = 0;
    let wayId = 0;
    const node = (lat: number, lng: number, t?: Record<string, string>) => {
      nodes.add(`n${++nodeId} v1 T${t ? tags(t) : ''} x${coord(lng)} y${coord(lat)}\n`);
      return nodeId;
    };
    const way = (refs: number[], t: Record<string, string>) => {
      ways.add(`w${++wayId} v1 T${tags(t)} N${refs.map((r) => `n${r}`).join(',')}\n`);
      return wayId;
    };
    const drain = async () => {
      await nodes.drain();
      await ways.drain();
    };

    // Boundaries: grid corners, then edges with jagged intermediate points (a tenth of a cell at most).
    const { cols, rows, south, west, cell } = shape;
    const corner = new Map<string, number>();
    for (let r = 0; r <= rows; r++) for (let c = 0; c <= cols; c++) corner.set(`${r},${c}`, node(south + r * cell.height, west + c * cell.width));
    const edge = new Map<string, number>();
    const jag = async (from: [number, number], to: [number, number], across: 'lat' | 'lng') => {
      const refs = [];
      for (let k = 1; k < 6; k++) {
        const f = k / 6;
        const lat = from[0] + (to[0] - from[0]) * f + (across === 'lat' ? (rand() - 0.5) * 0.15 * cell.height : 0);
        const lng = from[1] + (to[1] - from[1]) * f + (across === 'lng' ? (rand() - 0.5) * 0.15 * cell.width : 0);
        refs.push(node(lat, lng));
      }
      return refs;
    };
    const at = (r: number, c: number): [number, number] => [south + r * cell.height, west + c * cell.width];
    const edgeRefs: [string, number[]][] = [];
    for (let r = 0; r <= rows; r++) for (let c = 0; c < cols; c++) edgeRefs.push([`h${r},${c}`, [corner.get(`${r},${c}`)!, ...(await jag(at(r, c), at(r, c + 1), 'lat')), corner.get(`${r},${c + 1}`)!]]);
    for (let r = 0; r < rows; r++) for (let c = 0; c <= cols; c++) edgeRefs.push([`v${r},${c}`, [corner.get(`${r},${c}`)!, ...(await jag(at(r, c), at(r + 1, c), 'lng')), corner.get(`${r + 1},${c}`)!]]);
    for (const [key, refs] of edgeRefs) edge.set(key, way(refs, {}));

    // Addresses, street ways and filler, town by town.
    const sampler = new ClassSampler<ScaleAddress>(opts.sample, rng((opts.seed ?? 22) + 3));
    const towns = new Map<number, number>();
    let lastStreet = '';
    let perAddress = 0;
    await walk(
      shape,
      opts,
      async (v) => {
        const key = `${v.town.index}|${v.rank}`;
        if (key !== lastStreet) towns.set(v.rank, (towns.get(v.rank) ?? 0) + 1);
        lastStreet = key;
        const tagged = v.u < withCity;
        const t: Record<string, string> = { 'addr:housenumber': v.number, 'addr:street': v.street };
        if (tagged) t['addr:city'] = v.town.name;
        if (rand() < withPostcode) t['addr:postcode'] = v.postcode;
        let made = 0;
        if (rand() < onWays) {
          const d = v.town.height * 0.0005;
          const refs = [node(v.lat - d, v.lng - d), node(v.lat - d, v.lng + d), node(v.lat + d, v.lng + d), node(v.lat + d, v.lng - d)];
          way([...refs, refs[0]!], { building: 'yes', ...t });
          made = 4;
        } else {
          node(v.lat, v.lng, t);
          made = 1;
        }
        // Filler: untagged way members (tracks, land use) until the file has its share of nodes.
        perAddress += nodesPerAddress - made;
        while (perAddress >= 40) {
          const refs = [];
          for (let k = 0; k < 40; k++) refs.push(node(v.town.south + v.town.height * rand(), v.town.west + v.town.width * rand()));
          way(refs, { highway: 'track' });
          perAddress -= 40;
        }
        sampler.offer(frequencyOf(v.rank), () => ({ street: v.street, number: v.number, postcode: v.postcode, city: v.town.name, tagged, lat: v.lat, lng: v.lng }));
        await drain();
      },
      async (_town, name, points) => {
        const refs = [];
        for (const [lat, lng] of points.filter((_, i) => i % 8 === 0 || i === points.length - 1)) refs.push(node(lat + 0.00005, lng));
        if (refs.length >= 2) way(refs, { highway: 'residential', name });
      },
    );

    let relId = 0;
    for (const town of shape.towns) {
      const r = Math.floor(town.index / cols);
      const c = town.index % cols;
      const members = [`h${r},${c}`, `v${r},${c + 1}`, `h${r + 1},${c}`, `v${r},${c}`].map((k) => `w${edge.get(k)!}@outer`);
      await relations.write(`r${++relId} v1 T${tags({ type: 'boundary', boundary: 'administrative', admin_level: '8', name: town.name })} M${members.join(',')}\n`);
    }
    const outline = [
      ...Array.from({ length: cols }, (_, c) => `h0,${c}`),
      ...Array.from({ length: cols }, (_, c) => `h${rows},${c}`),
      ...Array.from({ length: rows }, (_, r) => `v${r},0`),
      ...Array.from({ length: rows }, (_, r) => `v${r},${cols}`),
    ];
    await relations.write(`r${++relId} v1 T${tags({ type: 'boundary', boundary: 'administrative', admin_level: '2', name: 'Deutschland', 'ISO3166-1': 'DE' })} M${outline.map((k) => `w${edge.get(k)!}@outer`).join(',')}\n`);

    await ways.end();
    await relations.end();
    await nodes.flush();
    for (const file of ['ways.opl', 'relations.opl']) await pipeline(createReadStream(join(work, file)), osmium.stdin, { end: false });
    osmium.stdin.end();
    const [code] = (await exited) as [number | null];
    if (code !== 0) throw new Error(`osmium cat failed (${code}): ${stderr.trim()}`);
    return summarize(sampler, towns, opts.count, Math.min(opts.towns, shape.towns.length));
  } catch (err) {
    osmium.kill();
    throw err;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
