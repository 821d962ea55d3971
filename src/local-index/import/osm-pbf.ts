import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReaderItem } from '../types.js';
import { BoundaryCollector } from './osm-boundary-areas.js';
import type { PlaceLocator } from './osm-places.js';
import { checkPbfHeader, pbfBlocks, PbfDecoder, type PbfBlock } from './pbf-blocks.js';
import { holdsOnlyNodes, readDenseBlock, type DenseVisitor } from './pbf-dense.js';
import { NodeLocations } from './osm-node-locations.js';
import { ImportFormatError } from '../types.js';
import { buildAddress } from './record.js';
import { osmUnits } from './osm-units.js';

type Tags = Record<string, string>;

/** The mean of a way's distinct nodes found in the file (a closed way lists its first node twice). */
function centre(refs: number[], locations: NodeLocations): [number, number] | undefined {
  let lat = 0;
  let lng = 0;
  let n = 0;
  for (const ref of new Set(refs)) {
    const c = locations.get(ref);
    if (!c) continue;
    lat += c[0];
    lng += c[1];
    n++;
  }
  return n > 0 ? [lat / n, lng / n] : undefined;
}

/** Only the tags the importer reads are staged. */
export const addrTags = (tags: Tags): Tags => Object.fromEntries(Object.entries(tags).filter(([k]) => k.startsWith('addr:') || k.startsWith('is_in')));

/** Tags naming places an address lies in besides its town: the levels a resident may write instead. */
const PLACE_TAGS = ['addr:hamlet', 'addr:suburb', 'addr:quarter', 'addr:neighbourhood', 'addr:district', 'addr:municipality', 'is_in:city', 'is_in:municipality', 'is_in:town', 'is_in:village'];

/** The places the tags name (`is_in` may list several, comma- or semicolon-separated), then those the boundaries give. */
function placesOf(tags: Tags, located: string[] | undefined): string[] | undefined {
  const tagged = [...PLACE_TAGS.map((k) => tags[k]), ...(tags.is_in ?? '').split(/[;,]/)].map((v) => v?.trim()).filter((v): v is string => Boolean(v));
  const all = [...new Set([...tagged, ...(located ?? [])])];
  return all.length > 0 ? all : undefined;
}

/**
 * One address's fields. The tags win; where `addr:city`, `addr:postcode` or `addr:country`
 * is missing (most OSM addresses), the boundaries around the point give the municipality,
 * the postal-code area and the country, as Nominatim, Photon and Pelias do; the import's
 * `--country` is the last fallback. The other places it lies in (parish, quarter, `addr:suburb`,
 * `is_in`) are kept as alternative places: a resident may write any of them as the town.
 */
export function fields(tags: Tags, lat: number | undefined, lng: number | undefined, sourceId: string, places: PlaceLocator | undefined, country?: string) {
  const tagged = tags['addr:country'];
  const at = places && lat !== undefined && lng !== undefined ? places.locate(lat, lng, tagged?.toUpperCase()) : {};
  return {
    lat,
    lng,
    houseNumber: tags['addr:housenumber'],
    street: tags['addr:street'] || tags['addr:place'],
    postcode: tags['addr:postcode'] || at.postcode,
    city: tags['addr:city'] || at.municipality,
    municipality: at.municipality,
    places: placesOf(tags, at.places),
    state: tags['addr:state'],
    country: tagged || at.country || country,
    sourceId,
    units: osmUnits(tags),
  };
}

/** Bitset over node ids (hashed): a cheap "maybe needed" test in front of the staging table. */
export class NodeFilter {
  private readonly bits = new Uint8Array(1 << 24);
  add(id: number): void {
    const h = id % (1 << 27);
    this.bits[h >> 3]! |= 1 << (h & 7);
  }
  has(id: number): boolean {
    const h = id % (1 << 27);
    return (this.bits[h >> 3]! & (1 << (h & 7))) !== 0;
  }
}

/**
 * Node coordinates one node pass collects for address ways: 16 bytes each, so 32M nodes hold
 * 512 MiB. A file whose address ways need more (a large country: Germany's ~17M building
 * addresses need ~90M nodes) is read in more node passes, one per group of ways, so memory
 * stays bounded whatever the file's size.
 */
export const NODE_PASS_BUDGET = 32_000_000;

/**
 * OpenStreetMap PBF: nodes and ways with `addr:housenumber` and `addr:street` or `addr:place`.
 * The file stores nodes, then ways, then relations. Rather than hold it in memory, pass 1
 * stages the addresses (nodes with their coordinates, ways with their node ids) and the
 * boundary relations in a temporary SQLite file; pass 2 (ways only) stages the boundaries'
 * ways; node passes then pick up the coordinates of just the nodes those ways need
 * (NodeLocations, off the V8 heap), for the boundaries and for as many address ways as
 * `nodeBudget` allows at a time, and store each address way's centre. Node blocks are read by
 * pbf-dense.ts without making an object per node; the few other blocks by osm-pbf-parser.
 */
export async function* readOsmPbf(path: string, country: string | undefined, onBytes?: (n: number) => void, nodeBudget = NODE_PASS_BUDGET): AsyncGenerator<ReaderItem[]> {
  await checkPbfHeader(path);
  const dir = mkdtempSync(join(tmpdir(), 'local-index-osm-'));
  const stage = new Database(join(dir, 'ways.sqlite'));
  try {
    stage.pragma('journal_mode = OFF');
    stage.pragma('synchronous = OFF');
    stage.exec(`CREATE TABLE nodes (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, lat REAL, lng REAL);
                CREATE TABLE ways (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, refs TEXT NOT NULL, lat REAL, lng REAL);`);
    const addNode = stage.prepare('INSERT OR REPLACE INTO nodes (id, tags, lat, lng) VALUES (?, ?, ?, ?)');
    const addWay = stage.prepare('INSERT OR REPLACE INTO ways (id, tags, refs) VALUES (?, ?, ?)');
    const boundaries = new BoundaryCollector(stage);
    const boundaryNodes = new NodeLocations();
    // Pass 1 is half of the progress; pass 2 and the first node pass stop early (at the ways, at the relations) and share the rest.
    const size = statSync(path).size;
    const progress = (from: number, share: number) => (n: number) => onBytes?.(Math.round(size * from + n * share));
    const decoder = new PbfDecoder();
    const dense = (block: PbfBlock, visit: DenseVisitor): boolean => {
      if (block.type !== 'OSMData') return false;
      try {
        return readDenseBlock(block.data, visit);
      } catch (err) {
        throw new ImportFormatError(`Corrupt PBF block at byte ${block.offset}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    /** Reads the file's nodes (stopping where they end) into `visit`. */
    const nodePass = async (visit: (id: number, lat: number, lon: number) => void, onPassBytes?: (n: number) => void) => {
      const nodes = new PbfDecoder();
      for await (const block of pbfBlocks(path, onPassBytes)) {
        if (dense(block, visit)) continue;
        const items = nodes.decode(block);
        if (items.length > 0 && items[0]!.type !== 'node') break;
        for (const item of items) if (item.type === 'node') visit(item.id, item.lat, item.lon);
      }
    };

    stage.exec('BEGIN');
    for await (const block of pbfBlocks(path, progress(0, 0.5))) {
      const isNodes = dense(block, (id, lat, lon, tags) => {
        if (tags?.['addr:housenumber']) addNode.run(id, JSON.stringify(addrTags(tags)), lat, lon);
      });
      if (isNodes) continue;
      for (const item of decoder.decode(block)) {
        if (item.type === 'relation') boundaries.relation(item);
        else if (!item.tags['addr:housenumber']) continue;
        else if (item.type === 'node') addNode.run(item.id, JSON.stringify(addrTags(item.tags)), item.lat, item.lon);
        else addWay.run(item.id, JSON.stringify(addrTags(item.tags)), JSON.stringify(item.refs));
      }
    }
    if (boundaries.size > 0) {
      const ways = new PbfDecoder();
      for await (const block of pbfBlocks(path, progress(0.5, 0.25))) {
        if (block.type === 'OSMData' && holdsOnlyNodes(block.data)) continue;
        const items = ways.decode(block);
        if (items.length > 0 && items[0]!.type === 'relation') break;
        for (const item of items) if (item.type === 'way') for (const ref of boundaries.way(item.id, item.refs) ?? []) boundaryNodes.need(ref);
      }
    }
    boundaryNodes.seal();

    // Address ways in groups of at most `nodeBudget` node references, one node pass per group
    // (the first also fills the boundaries' nodes); each way's centre is stored with it.
    const page = stage.prepare('SELECT id, refs FROM ways WHERE id > ? ORDER BY id LIMIT 5000');
    const setCentre = stage.prepare('UPDATE ways SET lat = ?, lng = ? WHERE id = ?');
    let done = Number.MIN_SAFE_INTEGER;
    for (let pass = 0; ; pass++) {
      const group = new NodeLocations();
      let end = done;
      let refs = 0;
      let full = false;
      for (let rows = page.all(end) as { id: number; refs: string }[]; rows.length > 0 && !full; rows = page.all(end) as typeof rows) {
        for (const row of rows) {
          const ids = JSON.parse(row.refs) as number[];
          if (refs > 0 && refs + ids.length > nodeBudget) {
            full = true;
            break;
          }
          for (const ref of ids) group.need(ref);
          refs += ids.length;
          end = row.id;
        }
      }
      if (end === done && (pass > 0 || boundaryNodes.size === 0)) break;
      group.seal();
      const first = pass === 0;
      await nodePass(
        first && boundaryNodes.size > 0 ? (id, lat, lon) => (group.set(id, lat, lon), boundaryNodes.set(id, lat, lon)) : (id, lat, lon) => group.set(id, lat, lon),
        first ? progress(boundaries.size > 0 ? 0.75 : 0.5, boundaries.size > 0 ? 0.25 : 0.5) : undefined,
      );
      for (let at = done, rows = page.all(at) as { id: number; refs: string }[]; rows.length > 0 && at < end; rows = page.all(at) as typeof rows) {
        for (const row of rows) {
          if (row.id > end) break;
          const c = centre(JSON.parse(row.refs) as number[], group);
          if (c) setCentre.run(c[0], c[1], row.id);
          at = row.id;
        }
      }
      done = end;
    }
    stage.exec('COMMIT');
    onBytes?.(size);

    const places = boundaries.size > 0 ? boundaries.locator((id) => boundaryNodes.get(id)) : undefined;

    let batch: ReaderItem[] = [];
    const take = function* (item: ReaderItem) {
      batch.push(item);
      if (batch.length >= 2000) {
        yield batch;
        batch = [];
      }
    };
    for (const n of stage.prepare('SELECT id, tags, lat, lng FROM nodes ORDER BY id').iterate() as Iterable<{ id: number; tags: string; lat: number; lng: number }>) {
      yield* take(buildAddress(`n${n.id}`, fields(JSON.parse(n.tags) as Tags, n.lat, n.lng, `osm:n${n.id}`, places, country)));
    }
    for (const way of stage.prepare('SELECT id, tags, lat, lng FROM ways ORDER BY id').iterate() as Iterable<{ id: number; tags: string; lat: number | null; lng: number | null }>) {
      const row = `w${way.id}`;
      yield* take(
        way.lat === null || way.lng === null
          ? { kind: 'bad', row, reason: 'unresolved_way', detail: 'none of its nodes is in the file' }
          : buildAddress(row, fields(JSON.parse(way.tags) as Tags, way.lat, way.lng, `osm:w${way.id}`, places, country)),
      );
    }
    if (batch.length > 0) yield batch;
  } finally {
    stage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
