import { assembleRings, makeArea } from '../import/osm-areas.js';
import { isInterpolation } from '../import/osm-interpolation.js';
import { addressAreaWays, NodeFilter } from '../import/osm-pbf.js';
import { isBareEntrance } from '../import/osm-entrances.js';
import { addrTags } from '../import/osm-rows.js';
import { boundaryOf, type Boundary } from '../import/osm-places.js';
import { checkPbfHeader, pbfBlocks, PbfDecoder } from '../import/pbf-blocks.js';
import { holdsOnlyNodes, readDenseBlock } from '../import/pbf-dense.js';
import type { OsmItem } from 'osm-pbf-parser';
import { areaWay, entranceWay, entranceWayId, withEnds } from './osm-derived-ways.js';
import { stateTags, tracked, type OsmStateStore, type StoredArea, type Tags } from './osm-state.js';

const BATCH = 5000;

/** The elements of a file's way and relation blocks; node blocks are skipped without being decoded. */
async function* waysAndRelations(path: string): AsyncGenerator<OsmItem[]> {
  const decoder = new PbfDecoder();
  for await (const block of pbfBlocks(path)) {
    if (block.type === 'OSMData' && holdsOnlyNodes(block.data)) continue;
    yield decoder.decode(block);
  }
}

/**
 * Calls `visit` for every node (dense node blocks read without an object per node), then
 * `afterBlock` once per block; stops at the ways. `visit` is synchronous: a country has tens of
 * millions of nodes, and an awaited call (or an array) per node cost more than reading them.
 */
async function eachNode(path: string, visit: (id: number, lat: number, lon: number, tags: Tags | undefined) => void, afterBlock: () => Promise<void>): Promise<void> {
  const decoder = new PbfDecoder();
  for await (const block of pbfBlocks(path)) {
    if (!(block.type === 'OSMData' && readDenseBlock(block.data, visit))) {
      const items = decoder.decode(block);
      if (items.length > 0 && items[0]!.type !== 'node') break;
      for (const item of items) if (item.type === 'node') visit(item.id, item.lat, item.lon, item.tags);
    }
    await afterBlock();
  }
}

/**
 * Records what later updates of this extract need (osm-state.ts), read from the PBF file
 * the index was just built from, in the import's own passes: every element (address and
 * building ways, boundary relations), then ways (the boundaries' member ways), then nodes (the
 * coordinates of both). Node ids are screened by a bitset, then kept only where an address
 * way uses them, so memory stays bounded on a country. One transaction: an interrupted
 * recording leaves the previous state.
 */
export async function recordOsmState(state: OsmStateStore, path: string, at: string): Promise<{ ways: number; areas: number }> {
  await checkPbfHeader(path);
  const recorder = await state.beginRecord();
  try {
    const filter = new NodeFilter();
    const boundaries: { id: number; boundary: Boundary; ways: number[] }[] = [];
    const memberWays = new Set<number>();
    // Address multipolygons (recorded as ways `-id` once their outer ways are read) and
    // interpolation ways (recorded again with their numbered nodes' tags once the nodes are read).
    const addressAreas: { id: number; tags: Tags; ways: number[] }[] = [];
    const interpolations: { id: number; tags: Tags; refs: number[] }[] = [];
    let ways: { id: number; tags: Record<string, string>; refs: number[] }[] = [];
    let wayCount = 0;
    for await (const items of waysAndRelations(path)) {
      for (const item of items) {
        if (item.type === 'relation') {
          const area = addressAreaWays(item);
          if (area) {
            addressAreas.push({ id: item.id, tags: item.tags, ways: area });
            for (const id of area) memberWays.add(id);
          }
          const boundary = boundaryOf(item.tags);
          const members = item.members.filter((m) => m.type === 'way' && m.role !== 'subarea').map((m) => m.id);
          if (!boundary || members.length === 0) continue;
          boundaries.push({ id: item.id, boundary, ways: members });
          for (const id of members) memberWays.add(id);
        } else if (item.type === 'way' && tracked(item.tags)) {
          ways.push({ id: item.id, tags: stateTags(item.tags), refs: item.refs });
          if (isInterpolation(item.tags)) interpolations.push(ways.at(-1)!);
          for (const ref of item.refs) filter.add(ref);
          wayCount++;
          if (ways.length >= BATCH) {
            await recorder.ways(ways);
            ways = [];
          }
        }
      }
    }
    await recorder.ways(ways);

    const memberRefs = new Map<number, number[]>();
    const boundaryNodes = new Set<number>();
    if (memberWays.size > 0) {
      for await (const items of waysAndRelations(path)) {
        if (items.length > 0 && items[0]!.type === 'relation') break;
        for (const item of items) {
          if (item.type !== 'way' || !memberWays.has(item.id)) continue;
          memberRefs.set(item.id, item.refs);
          for (const ref of item.refs) boundaryNodes.add(ref);
        }
      }
    }
    const areaWays = addressAreas.map((a) => ({ id: -a.id, ...areaWay(a.tags, a.ways, (w) => memberRefs.get(w)) }));
    for (const a of areaWays) for (const ref of a.refs) filter.add(ref);
    await recorder.ways(areaWays);
    wayCount += areaWays.length;
    const ends = new Map<number, Tags>();
    // Entrances without a number on a recorded way (the bitset lets a few others through: they find no building).
    const entrances: { id: number; tags: Tags; refs: number[] }[] = [];
    const endNodes = new Set(interpolations.flatMap((w) => w.refs));
    const coords = new Map<number, [number, number]>();
    if (wayCount > 0 || boundaries.length > 0) {
      let nodes: [number, number, number][] = [];
      await eachNode(
        path,
        (id, lat, lon, tags) => {
          if (boundaryNodes.has(id)) coords.set(id, [lat, lon]);
          if (tags?.['addr:housenumber'] && endNodes.has(id)) ends.set(id, addrTags(tags));
          if (tags && filter.has(id) && isBareEntrance(tags)) entrances.push({ id: entranceWayId(id), ...entranceWay(id, addrTags(tags)) });
          // As the import keeps a way's nodes (osm-node-locations.ts): a moved way is placed to the bit.
          if (filter.has(id)) nodes.push([id, Math.round(lat * 1e7) / 1e7, Math.round(lon * 1e7) / 1e7]);
        },
        async () => {
          if (nodes.length < BATCH) return;
          await recorder.nodes(nodes);
          nodes = [];
        },
      );
      await recorder.nodes(nodes);
    }
    await recorder.ways(interpolations.map((w) => ({ id: w.id, ...withEnds(w, (ref) => ends.get(ref)) })));
    // Their nodes are kept: the building ways they are on use them.
    await recorder.ways(entrances);
    wayCount += entrances.length;

    // The areas as the import builds them (osm-boundary-areas.ts): joined rings, a cut-off boundary dropped.
    const areas: StoredArea[] = [];
    for (const b of boundaries) {
      const refs = b.ways.flatMap((id) => {
        const r = memberRefs.get(id);
        return r ? [r] : [];
      });
      const rings = assembleRings(refs).map((ring) => ring.flatMap((id): [number, number][] => {
        const c = coords.get(id);
        return c ? [c] : [];
      }));
      if (makeArea(b.boundary, rings)) areas.push({ id: b.id, value: b.boundary, rings });
    }
    await recorder.areas(areas);
    await recorder.commit({ file: path, at });
    return { ways: wayCount, areas: areas.length };
  } catch (err) {
    await recorder.abort();
    throw err;
  }
}
