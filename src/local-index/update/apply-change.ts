import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AddressKeyer, type KeyedAddress } from '../import/address-keys.js';
import { makeArea } from '../import/osm-areas.js';
import { addrTags, fields } from '../import/osm-pbf.js';
import { PlaceLocator } from '../import/osm-places.js';
import { readOsmChange, type OsmChange } from '../import/osc-parse.js';
import { buildAddress } from '../import/record.js';
import { SummaryBuilder } from '../import/summary.js';
import type { IndexStore } from '../store/store.js';
import { ImportFormatError, type ImportSummary, type ReaderItem } from '../types.js';
import { stateTags, tracked, type ImportFailure, type OsmStateStore, type StateChange, type StoredWay } from './osm-state.js';

export interface UpdateSummary extends ImportSummary {
  /** Boundary relations the change touched: not applied (a re-import of the extract applies them). */
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
  for (const a of await state.areas()) {
    const area = makeArea(a.value, a.rings);
    if (area) locator.add(area);
  }
  return locator.areas > 0 ? locator : undefined;
}

/** Why `--update` cannot run: the failed import by name when there was one. */
export function updatesOffMessage(failed: ImportFailure | null): string {
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

  const { ways, stored, coords } = await resolveWays(state, change);
  const places = await placesOf(state);
  const items: ReaderItem[] = [];
  const removals: string[] = [];
  for (const [id, node] of change.nodes) {
    if (node.deleted || !node.tags['addr:housenumber']) removals.push(`osm:n${id}`);
    else items.push(buildAddress(`n${id}`, fields(addrTags(node.tags), node.lat, node.lon, `osm:n${id}`, places, country)));
  }
  const stateChange: StateChange = { ways: new Map(), droppedWays: [], nodes: new Map(), maybeUnused: [] };
  for (const [id, way] of ways) {
    const old = stored.get(id);
    if (way === undefined || !tracked(way.tags)) {
      removals.push(`osm:w${id}`);
      if (old) {
        stateChange.droppedWays.push(id);
        stateChange.maybeUnused.push(...old.refs);
      }
      continue;
    }
    if (change.ways.has(id)) {
      stateChange.ways.set(id, way);
      if (old) stateChange.maybeUnused.push(...old.refs.filter((r) => !way.refs.includes(r)));
    }
    for (const ref of way.refs) {
      const n = change.nodes.get(ref);
      if (n && !n.deleted) stateChange.nodes.set(ref, [e7(n.lat), e7(n.lon)]);
    }
    if (!way.tags['addr:housenumber']) {
      removals.push(`osm:w${id}`);
      continue;
    }
    const at = centre(way.refs, (ref) => coords.get(ref));
    items.push(
      at
        ? buildAddress(`w${id}`, fields(way.tags, at[0], at[1], `osm:w${id}`, places, country))
        : { kind: 'bad', row: `w${id}`, reason: 'unresolved_way', detail: 'none of its nodes has known coordinates' },
    );
  }
  for (const [id, node] of change.nodes) if (node.deleted) stateChange.maybeUnused.push(id);

  const keyed = keyAll(items, summary, removals);
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
    return { ...summary.build(gone.removed), relationsIgnored: change.relations };
  } catch (err) {
    await session.abort();
    throw err;
  }
}

/**
 * The ways to place again, as they now are (undefined: deleted), with the stored state of
 * each and the coordinates of their nodes: every way of the change, and every recorded
 * address way that uses a node of the change. A node's coordinates come from the change
 * when it is there, else from the state.
 */
async function resolveWays(state: OsmStateStore, change: OsmChange) {
  const ids = new Set([...change.ways.keys(), ...(await state.waysUsingNodes([...change.nodes.keys()]))]);
  const stored = await state.ways([...ids]);
  const ways = new Map<number, StoredWay | undefined>();
  for (const id of ids) {
    const w = change.ways.get(id);
    ways.set(id, w === undefined ? stored.get(id) : w.deleted ? undefined : { tags: stateTags(w.tags), refs: w.refs });
  }
  const coords = new Map<number, [number, number]>();
  const missing = new Set<number>();
  for (const w of ways.values()) {
    if (!w?.tags['addr:housenumber']) continue;
    for (const ref of w.refs) {
      const n = change.nodes.get(ref);
      if (n === undefined) missing.add(ref);
      else if (!n.deleted) coords.set(ref, [e7(n.lat), e7(n.lon)]);
    }
  }
  for (const [id, c] of await state.nodes([...missing])) coords.set(id, c);
  return { ways, stored, coords };
}

/** Keys the rows as an import does; a row that is no longer usable is counted and leaves the index. */
function keyAll(items: ReaderItem[], summary: SummaryBuilder, removals: string[]): KeyedAddress[] {
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
