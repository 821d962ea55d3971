import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { streetNames, townStreets, Zipf } from '../../bench/scale/country.js';
import { generateCsv, generateOsm, oplEscape } from '../../bench/scale/generate.js';
import { rng } from '../../bench/local-generate.js';

/**
 * The synthetic country of `npm run bench:scale`: its figures are only worth something if the
 * files look like the real ones (street names shared by many towns, addresses on building ways,
 * boundaries as relations) and if a real OSM reader accepts the PBF. osmium-tool reads it back.
 */
const work = mkdtempSync(join(tmpdir(), 'scale-generate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Element {
  type: 'n' | 'w' | 'r';
  id: number;
  tags: Record<string, string>;
  refs: string[];
}

const unescape = (s: string) => s.replace(/%([0-9a-f]+)%/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));

/** `osmium cat -f opl`: the file as osmium reads it. */
function readBack(pbf: string): Element[] {
  const opl = execFileSync('osmium', ['cat', '--no-progress', pbf, '-f', 'opl'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return opl
    .trim()
    .split('\n')
    .map((line) => {
      const fields = line.split(' ');
      const field = (c: string) => fields.find((f) => f.startsWith(c))?.slice(1) ?? '';
      const tags = Object.fromEntries(field('T').split(',').filter(Boolean).map((kv) => kv.split('=').map(unescape) as [string, string]));
      const refs = (field(fields[0]![0] === 'w' ? 'N' : 'M') || '').split(',').filter(Boolean);
      return { type: fields[0]![0] as Element['type'], id: Number(fields[0]!.slice(1)), tags, refs };
    });
}

describe('bench:scale country generator', () => {
  it('writes an OSM PBF that osmium reads back in OSM order, shaped like a country extract', async () => {
    const pbf = join(work, 'country.osm.pbf');
    const generated = await generateOsm(pbf, { count: 4000, towns: 40, sample: 50 });
    const info = JSON.parse(execFileSync('osmium', ['fileinfo', '-e', '-j', pbf], { encoding: 'utf8' })) as {
      data: { count: { nodes: number; ways: number; relations: number }; objects_ordered: boolean };
    };
    expect(info.data.objects_ordered).toBe(true);
    const elements = readBack(pbf);
    const addresses = elements.filter((e) => e.tags['addr:housenumber']);
    expect(addresses).toHaveLength(4000);
    const onWays = addresses.filter((e) => e.type === 'w' && e.tags.building === 'yes').length / addresses.length;
    expect(onWays).toBeGreaterThan(0.78);
    expect(onWays).toBeLessThan(0.92);
    const withCity = addresses.filter((e) => e.tags['addr:city']).length / addresses.length;
    expect(withCity).toBeGreaterThan(0.3);
    expect(withCity).toBeLessThan(0.5);
    // A real extract's ratio of objects: ~13 nodes per address, mostly untagged way members.
    expect(info.data.count.nodes / 4000).toBeGreaterThan(10);
    expect(elements.filter((e) => e.type === 'n' && Object.keys(e.tags).length === 0).length).toBeGreaterThan(0.9 * info.data.count.nodes);

    // Boundaries: one admin_level 8 relation per municipality, named, closed from member ways; the country as level 2.
    const relations = elements.filter((e) => e.type === 'r');
    const municipalities = relations.filter((r) => r.tags.admin_level === '8');
    expect(new Set(municipalities.map((r) => r.tags.name)).size).toBe(40);
    expect(relations.filter((r) => r.tags.admin_level === '2' && r.tags['ISO3166-1'] === 'DE')).toHaveLength(1);
    const ways = new Map(elements.filter((e) => e.type === 'w').map((w) => [w.id, w.refs]));
    for (const r of municipalities) {
      const ends = new Map<string, number>();
      for (const m of r.refs) {
        const refs = ways.get(Number(m.slice(1, m.indexOf('@'))))!;
        for (const end of [refs[0]!, refs.at(-1)!]) ends.set(end, (ends.get(end) ?? 0) + 1);
      }
      // Every end of a member way meets another: the ring closes.
      expect([...ends.values()].every((n) => n % 2 === 0)).toBe(true);
    }
    // The samples are addresses of the file, and the untagged ones the municipality check needs exist.
    const written = new Set(addresses.map((e) => `${e.tags['addr:street']}|${e.tags['addr:housenumber']}`));
    const sampled = Object.values(generated.samples).flat();
    expect(sampled.every((a) => written.has(`${a.street}|${a.number}`))).toBe(true);
    expect(sampled.some((a) => !a.tagged)).toBe(true);
  });

  it('shares the most common street names across most towns and the long tail across few (Zipf)', async () => {
    const csv = join(work, 'country.csv');
    const generated = await generateCsv(csv, { count: 60_000, towns: 60, sample: 20 });
    const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(60_000);
    const townsOf = new Map<string, Set<string>>();
    for (const r of rows) {
      expect(r[8]).toMatch(/^\d{5}$/);
      townsOf.set(r[3]!, (townsOf.get(r[3]!) ?? new Set()).add(r[5]!));
    }
    const spread = [...townsOf.values()].map((s) => s.size).sort((a, b) => b - a);
    expect(spread[0]).toBeGreaterThanOrEqual(45); // three towns in four (the smallest have a handful of streets)
    expect(spread.filter((n) => n <= 2).length).toBeGreaterThan(spread.length / 2);
    expect(generated.townsPerName['most common'].min).toBeGreaterThan(generated.townsPerName.rare.max);
    expect(Object.values(generated.samples).every((s) => s.length === 20)).toBe(true);
  });

  it('gives a city with more streets than there are names its districts’ streets (30M addresses: the largest city has ~57,000)', () => {
    const names = streetNames(rng(24));
    const city = { index: 0, name: 'Großstadt', south: 50, west: 8, height: 0.1, width: 0.1, addresses: 2_000_000, postcodes: ['10115', '10117'] };
    const streets = townStreets(city, names, new Zipf(names.length), 22);
    expect(streets.length).toBeGreaterThan(names.length);
    expect(new Set(streets.map((s) => s.name)).size).toBe(streets.length);
    expect(streets.reduce((sum, s) => sum + s.numbers, 0)).toBe(city.addresses);
    expect(streets.filter((s) => / Nord$/.test(s.name)).length).toBe(streets.length - names.length);
    // A town with fewer streets than names keeps the plain names.
    const town = townStreets({ ...city, index: 1, addresses: 20_000 }, names, new Zipf(names.length), 22);
    expect(town.every((s) => names.includes(s.name))).toBe(true);
  });

  it('escapes what OPL reserves in tag values', () => {
    expect(oplEscape('Bad Neuhof, a=b@c%')).toBe('Bad%20%Neuhof%2c%%20%a%3d%b%40%c%25%');
    expect(oplEscape('Hauptstraße')).toBe('Hauptstraße');
  });
});
