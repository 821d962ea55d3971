import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaContains } from '../../src/local-index/import/osm-areas.js';
import { readBoundaryAreas } from '../../src/local-index/import/osm-boundary-areas.js';
import { insideRings, type OplNode, type OplRelation, type OplWay, osmiumAreas, writeOplExtract } from './support/opl-extract.js';

/**
 * Issue 34 item 1: boundary relations are assembled as osmium assembles them. Generated
 * extracts (OPL → PBF by osmium) hold the shapes real boundaries take; for each, the area we
 * build and the polygon `osmium export` builds must contain the same points, and a relation
 * osmium cannot build must be reported by id.
 */
const nodes: OplNode[] = [];
const ways: OplWay[] = [];
const relations: OplRelation[] = [];
let nextNode = 1;
let nextWay = 1000;

/** A ring of `n` nodes round a centre (radius varying, so it is not convex), as node ids; closed. */
function ring(lat: number, lng: number, radius: number, n: number): number[] {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = radius * (i % 3 === 0 ? 0.6 : 1);
    nodes.push({ id: nextNode, lat: +(lat + r * Math.sin(a)).toFixed(7), lon: +(lng + r * Math.cos(a)).toFixed(7) });
    ids.push(nextNode++);
  }
  return [...ids, ids[0]!];
}

/** A closed list of node ids cut into `parts` ways; `reverse` lists which ones are drawn the other way round. */
function cut(ids: number[], parts: number, reverse: number[] = []): number[] {
  const out: number[] = [];
  const size = Math.ceil((ids.length - 1) / parts);
  for (let p = 0; p < parts; p++) {
    const refs = ids.slice(p * size, Math.min(ids.length, (p + 1) * size + 1));
    ways.push({ id: nextWay, refs: reverse.includes(p) ? [...refs].reverse() : refs });
    out.push(nextWay++);
  }
  return out;
}

const boundary = (id: number, name: string, members: [number, string][], tags: Record<string, string> = { boundary: 'administrative', admin_level: '8' }) =>
  relations.push({ id, tags: { type: 'boundary', name, ...tags }, members: members.map(([w, role]) => ({ type: 'w', id: w, role })) });

// Many ways in shuffled order, some reversed.
const many = cut(ring(47.1, 9.5, 0.02, 40), 7, [1, 4, 5]);
boundary(101, 'Manyways', [many[3]!, many[0]!, many[6]!, many[2]!, many[5]!, many[1]!, many[4]!].map((w) => [w, 'outer']));
// An inner ring (two ways, one reversed) inside an outer of three.
const outer = cut(ring(47.2, 9.5, 0.03, 30), 3);
const inner = cut(ring(47.2, 9.5, 0.01, 12), 2, [1]);
boundary(102, 'Holed', [...outer.map((w): [number, string] => [w, 'outer']), ...inner.map((w): [number, string] => [w, 'inner'])]);
// Two outers: a closed way and a ring of two ways.
const island = cut(ring(47.3, 9.45, 0.01, 10), 1);
const main = cut(ring(47.3, 9.55, 0.02, 16), 2, [0]);
boundary(103, 'Twins', [...island, ...main].map((w) => [w, 'outer']));
// Two rings touching at one node, drawn as two ways that each pass through it.
const [t, a1, a2, b1, b2] = [nextNode, nextNode + 1, nextNode + 2, nextNode + 3, nextNode + 4];
nodes.push(
  { id: t, lat: 47.4, lon: 9.5 },
  { id: a1, lat: 47.38, lon: 9.48 },
  { id: a2, lat: 47.38, lon: 9.52 },
  { id: b1, lat: 47.42, lon: 9.52 },
  { id: b2, lat: 47.42, lon: 9.48 },
);
nextNode += 5;
ways.push({ id: nextWay, refs: [a2, t, b1, b2] }, { id: nextWay + 1, refs: [b2, t, a1, a2] });
boundary(104, 'Touching', [[nextWay, 'outer'], [nextWay + 1, 'outer']]);
nextWay += 2;
// A postal-code area made of many ways.
boundary(105, '9497', cut(ring(47.5, 9.5, 0.02, 24), 5, [2]).map((w) => [w, 'outer']), { boundary: 'postal_code', postal_code: '9497' });
// Cut by the extract's edge: a member way the file does not hold.
const cutOff = cut(ring(47.6, 9.5, 0.02, 20), 4);
boundary(106, 'Cutoff', [...cutOff.slice(1), 999_999].map((w) => [w, 'outer']));
// A gap: every member is there, the ring does not close.
const gap = cut(ring(47.7, 9.5, 0.02, 20), 4);
ways.find((w) => w.id === gap[2])!.refs.pop();
boundary(107, 'Gap', gap.map((w) => [w, 'outer']));

describe('boundary relations assembled as osmium assembles them', () => {
  let dir: string;
  let osmium: Map<number, [number, number][][]>;
  let ours: Awaited<ReturnType<typeof readBoundaryAreas>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'osm-areas-'));
    const pbf = writeOplExtract(dir, 'areas', nodes, ways, relations);
    osmium = osmiumAreas(pbf);
    const stage = new Database(join(dir, 'stage.sqlite'));
    try {
      ours = await readBoundaryAreas(pbf, stage);
    } finally {
      stage.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds every area osmium builds, with the same extent', () => {
    expect([...osmium.keys()].sort()).toEqual([101, 102, 103, 104, 105]);
    expect(ours.built.map((b) => b.relation).sort()).toEqual([...osmium.keys()].sort());
    for (const { relation, area } of ours.built) {
      const rings = osmium.get(relation)!;
      const lats = rings.flat().map(([, lat]) => lat);
      const lngs = rings.flat().map(([lng]) => lng);
      const [s, n, w, e] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
      let inside = 0;
      // A 41 × 41 grid over the area's box and a margin round it.
      for (let i = 0; i <= 40; i++) {
        for (let j = 0; j <= 40; j++) {
          const lat = s - 0.005 + ((n - s + 0.01) * i) / 40 + 1e-6;
          const lng = w - 0.005 + ((e - w + 0.01) * j) / 40 + 3.7e-6; // off the diagonals the shapes are drawn with
          const theirs = insideRings(rings, lat, lng);
          expect(areaContains(area, lat, lng), `r${relation} at ${lat}, ${lng}`).toBe(theirs);
          if (theirs) inside++;
        }
      }
      expect(inside, `r${relation}`).toBeGreaterThan(100);
    }
  });

  it('reports by id, with the reason, each relation osmium cannot build either', () => {
    expect(ours.unclosed).toEqual([
      { relation: 106, name: 'Cutoff', reason: 'member way w999999 not in the file' },
      { relation: 107, name: 'Gap', reason: expect.stringMatching(/^ring not closed at nodes n\d+, n\d+$/) },
    ]);
  });
});
