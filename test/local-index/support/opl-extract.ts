import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tagText, type Tags } from './osm-change-fixture.js';

/**
 * Extracts written as OPL and converted to PBF by osmium (a real writer), and osmium's own
 * reading of their areas (`osmium export`), for checking ours against it.
 */
export interface OplNode {
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}
export interface OplWay {
  id: number;
  refs: number[];
  tags?: Tags;
}
export interface OplRelation {
  id: number;
  tags: Tags;
  members: { type: 'n' | 'w' | 'r'; id: number; role: string }[];
}

export function oplText(nodes: OplNode[], ways: OplWay[], relations: OplRelation[]): string {
  const lines = [
    ...[...nodes].sort((a, b) => a.id - b.id).map((n) => `n${n.id} v1 x${n.lon} y${n.lat} T${tagText(n.tags)}`),
    ...[...ways].sort((a, b) => a.id - b.id).map((w) => `w${w.id} v1 T${tagText(w.tags)} N${w.refs.map((r) => `n${r}`).join(',')}`),
    ...[...relations].sort((a, b) => a.id - b.id).map((r) => `r${r.id} v1 T${tagText(r.tags)} M${r.members.map((m) => `${m.type}${m.id}@${m.role}`).join(',')}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Writes `name.opl` and `name.osm.pbf` (by `osmium cat`) into `dir`; returns the PBF's path. */
export function writeOplExtract(dir: string, name: string, nodes: OplNode[], ways: OplWay[], relations: OplRelation[]): string {
  const opl = join(dir, `${name}.opl`);
  const pbf = join(dir, `${name}.osm.pbf`);
  writeFileSync(opl, oplText(nodes, ways, relations));
  execFileSync('osmium', ['cat', opl, '-o', pbf, '--overwrite', '--no-progress'], { stdio: 'pipe' });
  return pbf;
}

/** osmium's polygons of a file's relations, by relation id: each as rings of [lng, lat] (GeoJSON order). */
export function osmiumAreas(pbf: string): Map<number, [number, number][][]> {
  const out = execFileSync('osmium', ['export', pbf, '-f', 'geojsonseq', '--geometry-types=polygon', '-a', 'type,id', '--no-progress', '-o', '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const areas = new Map<number, [number, number][][]>();
  for (const line of out.split('\n')) {
    const text = line.replace(/^\x1e/, '').trim();
    if (!text) continue;
    const f = JSON.parse(text) as { properties: Record<string, unknown>; geometry: { type: string; coordinates: [number, number][][][] } };
    if (f.properties['@type'] !== 'relation') continue;
    areas.set(Number(f.properties['@id']), f.geometry.coordinates.flat());
  }
  return areas;
}

/** Even-odd over every ring, as for any valid (multi)polygon. */
export function insideRings(rings: [number, number][][], lat: number, lng: number): boolean {
  let inside = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i]!;
      const [xj, yj] = r[j]!;
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}
