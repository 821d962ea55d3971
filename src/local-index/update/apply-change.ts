import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AddressKeyer, type KeyedAddress } from '../import/address-keys.js';
import { makeArea } from '../import/osm-areas.js';
import { FORM_SUFFIXES, hasAddress } from '../import/osm-address-forms.js';
import { entranceTags, isBareEntrance } from '../import/osm-entrances.js';
import { interpolate, isInterpolation } from '../import/osm-interpolation.js';
import { addressAreaWays } from '../import/osm-pbf.js';
import { PlaceLocator } from '../import/osm-places.js';
import { addrTags, interpolationRows, LISTED_SUFFIXES, osmRows } from '../import/osm-rows.js';
import { readOsmChange, type OsmChange } from '../import/osc-parse.js';
import { SummaryBuilder } from '../import/summary.js';
import type { IndexStore } from '../store/store.js';
import { ImportFormatError, type ImportSummary, type RowItem } from '../types.js';
import { deriveFromIndex } from './derive-from-index.js';
import { areaMembers, areaWay, entranceNode, entranceWay, entranceWayId, storedEnds, withEnds } from './osm-derived-ways.js';
import { stateTags, tracked, type ImportFailure, type OsmStateStore, type StateChange, type StoredWay, type Tags } from './osm-state.js';

export interface UpdateSummary extends ImportSummary {
  /** Relations the change touched other than address multipolygons (boundaries): not applied (a re-import of the extract applies them). */
  relationsIgnored: number;
}

const BATCH = 10_000;

/** Names a change file in the pending mark: its content, whatever it is called. */
export async function changeDigest(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/** A coordinate as the import keeps a way's nodes (osm-node-locations.ts): integer 1e-7 degrees. */
const e7 = (v: number) => Math.round(v * 1e7) / 1e7;

/** A way's position as the import computes it (osm-pbf.ts): the mean of its distinct nodes that have coordinates, in the same order. */
function centre(refs: number[], at: (id: number) => [number, number] | undefined): [number, number] | undefined {
  let lat = 0;
  let lng = 0;
  let n = 0;
  for (const id of new Set(refs)) {
    const c = at(id);
    if (!c) continue;
    lat += c[0];
    lng += c[1];
    n++;
  }
  return n > 0 ? [lat / n, lng / n] : undefined;
}

/** The places of the recorded boundaries, built as the import builds them. */
async function placesOf(state: OsmStateStore): Promise<PlaceLocator | undefined> {
  const locator = new PlaceLocator();
  for (const { value, rings } of await state.areas()) {
    if (value.kind === 'place') {
      const at = rings[0]?.[0];
      if (at) locator.addPlaceNode(at[0], at[1], { name: value.name, place: value.place });
      continue;
    }
    const area = makeArea(value, rings);
    if (area) locator.add(area);
  }
  return locator.areas > 0 || locator.placeNodes > 0 ? locator : undefined;
}

/** Why `--update` cannot run: the failed import by name when there was one. */
function updatesOffMessage(failed: ImportFailure | null): string {
  if (!failed) return 'No OpenStreetMap extract is recorded for updates: import the extract this change file follows first (addressd import extract.osm.pbf)';
  return `Updates are off since the import of ${failed.file} at ${failed.at} withdrew the update state and did not record it again (${failed.error}): they resume once a full import of that extract completes (addressd import ${failed.file})`;
}

/**
 * Applies an OsmChange file to an index built from the extract it follows: created and
 * modified address nodes and ways are written as a fresh import of the new extract would
 * write them (same fields, same boundaries, a way at the centre of its nodes), deleted ones
 * and ones that lost their address are removed, and every recorded address way that uses a
 * moved node is placed again. The state is updated first and marked pending with the file's
 * digest; the index changes in one transaction; then the mark is cleared. A run interrupted
 * in between is completed by applying the same file again, and no other file is accepted
 * until then.
 */
export async function applyOsmChange(store: IndexStore, state: OsmStateStore, path: string, opts: { country?: string; at?: Date }): Promise<UpdateSummary> {
  if (opts.country && !/^[A-Za-z]{2}$/.test(opts.country)) throw new ImportFormatError(`--country must be an ISO 3166-1 alpha-2 code, not "${opts.country}"`);
  const country = opts.country?.toUpperCase();
  const summary = new SummaryBuilder(path, 'osm');
  const change = await readOsmChange(path);
  const digest = await changeDigest(path);
  const status = await state.updateStatus();
  if (!status.extract) throw new ImportFormatError(updatesOffMessage(status.failed));
  const pending = status.pending;
  if (pending !== null && pending !== digest) {
    throw new ImportFormatError('An earlier update did not complete: apply that change file again (the same file) before any later one');
  }

  const { ways, stored, coords, buildingOf } = await resolveWays(state, change);
  const places = await placesOf(state);
  const items: RowItem[] = [];
  const removals: string[] = [];
  /** Writes an object's rows, and removes its forms (and interpolated numbers) it no longer has. */
  const place = (row: string, rows: RowItem[], old?: StoredWay) => {
    items.push(...rows);
    const written = new Set(rows.map((r) => String(r.row)));
    for (const suffix of ['', ...FORM_SUFFIXES, ...LISTED_SUFFIXES]) if (!written.has(`${row}${suffix}`)) removals.push(`osm:${row}${suffix}`);
    for (let k = 0, n = old ? interpolatedCount(old) : 0; k < n; k++) if (!written.has(`${row}#${k}`)) removals.push(`osm:${row}#${k}`);
  };
  for (const [id, node] of change.nodes) {
    // An entrance without a number is placed with its building (below).
    if (!node.deleted && isBareEntrance(node.tags)) continue;
    place(`n${id}`, node.deleted || !hasAddress(node.tags) ? [] : osmRows(`n${id}`, addrTags(node.tags), node.lat, node.lon, places, country));
  }
  const stateChange: StateChange = { ways: new Map(), droppedWays: [], nodes: new Map() };
  for (const [id, way] of ways) {
    const entrance = entranceNode(id);
    const row = entrance !== undefined ? `n${entrance}` : id < 0 ? `r${-id}` : `w${id}`;
    const old = stored.get(id);
    // An entrance that now has a number of its own: the node loop placed it.
    const node = entrance === undefined ? undefined : change.nodes.get(entrance);
    const put = node && !node.deleted && hasAddress(node.tags) ? () => undefined : place;
    if (way === undefined || !tracked(way.tags)) {
      put(row, [], old);
      if (old) stateChange.droppedWays.push(id);
      continue;
    }
    if (!old || JSON.stringify(old) !== JSON.stringify(way)) stateChange.ways.set(id, way);
    for (const ref of way.refs) {
      const n = change.nodes.get(ref);
      if (n && !n.deleted) stateChange.nodes.set(ref, [e7(n.lat), e7(n.lon)]);
    }
    const at = (ref: number) => coords.get(ref);
    if (entrance !== undefined) {
      const building = buildingOf(entrance);
      const c = at(entrance);
      put(row, building && c ? osmRows(row, entranceTags(building.tags, way.tags), c[0], c[1], places, country) : []);
      continue;
    }
    if (isInterpolation(way.tags)) {
      const ends = storedEnds(way);
      place(row, interpolationRows(row, way.tags, way.refs, at, (ref) => ends[ref], places, country), old);
      continue;
    }
    const c = hasAddress(way.tags) ? centre(way.refs, at) : undefined;
    place(
      row,
      !hasAddress(way.tags) ? [] : c ? osmRows(row, way.tags, c[0], c[1], places, country) : [{ kind: 'bad', row, reason: 'unresolved_way', detail: 'none of its nodes has known coordinates' }],
      old,
    );
  }
  // Relations that are no address multipolygon, now or before (resolveWays left them out).
  const relationsIgnored = [...change.relations.keys()].filter((id) => !ways.has(-id)).length;

  const keyed = keyAll(await deriveFromIndex(store, items), summary, removals);
  await state.apply(stateChange, digest);
  const session = await store.beginImport();
  try {
    const gone = await session.remove(removals);
    const countries = new Set([...gone.countries, ...keyed.map((a) => a.street.country)]);
    for (const c of countries) summary.country(c);
    for (let i = 0; i < keyed.length; i += BATCH) {
      const outcome = await session.write(keyed.slice(i, i + BATCH));
      summary.imported += outcome.imported;
      summary.updated += outcome.updated;
      summary.unchanged += outcome.unchanged;
    }
    await session.finish([...countries].sort(), false, { kind: 'change', file: path, at: (opts.at ?? new Date()).toISOString() });
    await state.complete(digest);
    return { ...summary.build(gone.removed), relationsIgnored };
  } catch (err) {
    await session.abort();
    throw err;
  }
}

/** How many numbers a stored interpolation way stood for (their rows `w7#0` … are removed when it has fewer now). */
function interpolatedCount(way: StoredWay): number {
  if (!isInterpolation(way.tags)) return 0;
  const ends = storedEnds(way);
  return interpolate(way.tags, way.refs, () => [0, 0], (ref) => ends[ref]).length;
}

/**
 * The ways to place again, as they now are (undefined: deleted), with the stored state of
 * each and the coordinates of their nodes: every way of the change, every recorded address
 * way that uses a node of the change, and the address multipolygons (as ways `-id`, see
 * osm-derived-ways.ts) the change names or whose outer ways or nodes it changes. A node's
 * coordinates come from the change when it is there, else from the state; so do the numbers
 * of an interpolation way's numbered nodes.
 */
async function resolveWays(state: OsmStateStore, change: OsmChange) {
  // An outer way of an address multipolygon (untagged, or a building outline; never a road)
  // that changed shares nodes with the relation's recorded node list.
  const changedWayNodes = [...change.ways.values()].flatMap((w) => (w.deleted || w.tags.highway ? [] : w.refs));
  const areas = (await state.waysUsingNodes(changedWayNodes)).filter((id) => id < 0);
  const entrances = [...change.nodes].flatMap(([id, n]) => (!n.deleted && isBareEntrance(n.tags) ? [entranceWayId(id)] : []));
  const ids = new Set([
    ...change.ways.keys(),
    ...(await state.waysUsingNodes([...change.nodes.keys()])),
    ...areas,
    ...[...change.relations.keys()].map((id) => -id),
    ...entrances,
  ]);
  const stored = await state.ways([...ids]);
  const numbered = (ref: number, ends: Record<string, Tags>): Tags | undefined => {
    const n = change.nodes.get(ref);
    if (n === undefined) return ends[ref];
    return n.deleted || !n.tags['addr:housenumber'] ? undefined : addrTags(n.tags);
  };
  const ways = new Map<number, StoredWay | undefined>();
  for (const id of ids) {
    const old = stored.get(id);
    let way: StoredWay | undefined;
    const entrance = entranceNode(id);
    if (entrance !== undefined) {
      const n = change.nodes.get(entrance);
      way = n === undefined ? old : n.deleted || !isBareEntrance(n.tags) ? undefined : entranceWay(entrance, addrTags(n.tags));
    } else if (id < 0) {
      const r = change.relations.get(-id);
      const members = r === undefined ? (old ? [...areaMembers(old).keys()] : undefined) : r.deleted ? undefined : addressAreaWays(r);
      const before = old ? areaMembers(old) : new Map<number, number[]>();
      const refsOf = (w: number) => {
        const c = change.ways.get(w);
        return c === undefined ? before.get(w) : c.deleted ? undefined : c.refs;
      };
      if (members) way = areaWay(r && !r.deleted ? r.tags : old!.tags, members, refsOf);
      // Neither an address multipolygon now nor before (a boundary): not applied.
      else if (!old) continue;
    } else {
      const w = change.ways.get(id);
      way = w === undefined ? old : w.deleted ? undefined : { tags: stateTags(w.tags), refs: w.refs };
      if (way && isInterpolation(way.tags)) {
        const ends = old ? storedEnds(old) : {};
        way = withEnds(way, (ref) => numbered(ref, ends));
      }
    }
    ways.set(id, way);
  }
  const coords = new Map<number, [number, number]>();
  const missing = new Set<number>();
  for (const w of ways.values()) {
    if (!w || !(hasAddress(w.tags) || isInterpolation(w.tags) || w.tags['@entrance'])) continue;
    for (const ref of w.refs) {
      const n = change.nodes.get(ref);
      if (n === undefined) missing.add(ref);
      else if (!n.deleted) coords.set(ref, [e7(n.lat), e7(n.lon)]);
    }
  }
  for (const [id, c] of await state.nodes([...missing])) coords.set(id, c);

  // The building of each entrance, as the import finds it: the address way of lowest id holding it, as it now is.
  const entranceNodes = [...ways].flatMap(([id, w]) => (w && entranceNode(id) !== undefined ? [entranceNode(id)!] : []));
  const holders = entranceNodes.length > 0 ? await state.ways((await state.waysUsingNodes(entranceNodes)).filter((id) => id > 0 && !ways.has(id))) : new Map<number, StoredWay>();
  const wanted = new Set(entranceNodes);
  const buildings = new Map<number, StoredWay>();
  if (wanted.size > 0) {
    const addressWays = [...holders, ...[...ways].filter((e): e is [number, StoredWay] => e[0] > 0 && e[1] !== undefined)]
      .filter(([, w]) => hasAddress(w.tags))
      .sort((a, b) => a[0] - b[0]);
    for (const [, w] of addressWays) for (const ref of w.refs) if (wanted.has(ref) && !buildings.has(ref)) buildings.set(ref, w);
  }
  return { ways, stored, coords, buildingOf: (node: number) => buildings.get(node) };
}

/** Keys the rows as an import does; a row that is no longer usable is counted and leaves the index. */
function keyAll(items: RowItem[], summary: SummaryBuilder, removals: string[]): KeyedAddress[] {
  const keyer = new AddressKeyer();
  const out: KeyedAddress[] = [];
  const sourceOf = (row: number | string) => `osm:${String(row)}`;
  for (const item of items) {
    summary.rows++;
    if (item.kind === 'bad') {
      summary.skip(item.row, item.reason, item.detail);
      removals.push(sourceOf(item.row));
      continue;
    }
    const inferred = item.address.inferred;
    if (inferred?.includes('city')) summary.derived.city++;
    if (inferred?.includes('postcode')) summary.derived.postcode++;
    const code = item.address.country?.toUpperCase();
    const problem = !code ? 'missing_country' : !/^[A-Z]{2}$/.test(code) ? 'invalid_country' : undefined;
    const a = problem ? problem : keyer.key(item.address, code!);
    if (typeof a === 'string') {
      summary.skip(item.row, a);
      removals.push(sourceOf(item.row));
    } else out.push(a);
  }
  return out;
}
