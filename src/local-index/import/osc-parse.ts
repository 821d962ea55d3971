import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ImportFormatError } from '../types.js';

type Tags = Record<string, string>;

/** An element's state after a change file: gone, or as it now is. */
export type OscNode = { deleted: true } | { deleted: false; lat: number; lon: number; tags: Tags };
export type OscWay = { deleted: true } | { deleted: false; refs: number[]; tags: Tags };
export type OscRelation = { deleted: true } | { deleted: false; tags: Tags; members: { type: string; id: number; role: string }[] };

/** The net effect of one OsmChange file: each element's last state (an element may change several times in one diff). */
export interface OsmChange {
  nodes: Map<number, OscNode>;
  ways: Map<number, OscWay>;
  /** Relations changed: address multipolygons are applied, others (boundaries) counted, not applied (see docs/keeping-current.md). */
  relations: Map<number, OscRelation>;
}

const ACTIONS = new Set(['create', 'modify', 'delete']);

function integer(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n)) throw new ImportFormatError(`Not an OsmChange file: ${what} "${value ?? ''}"`);
  return n;
}

function coordinate(value: string | undefined, max: number, what: string): number {
  const n = Number(value);
  if (value === undefined || value === '' || !Number.isFinite(n) || Math.abs(n) > max) throw new ImportFormatError(`Not an OsmChange file: ${what} "${value ?? ''}"`);
  return n;
}

/** Whether the file is gzip (magic bytes), whatever its name says. */
async function isGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await file.close();
  }
}

/**
 * Reads an OsmChange file (`.osc`, or gzip-compressed `.osc.gz` as replication publishes
 * them) into the last state of every node and way it touches. Streamed through saxes, so the
 * XML is never held whole; the result is the size of the change, which for a daily diff of a
 * country is some hundred thousand elements. Within one file the highest version of an
 * element wins (replication diffs list an element once per version; order breaks ties).
 */
export async function readOsmChange(path: string): Promise<OsmChange> {
  const out: OsmChange = { nodes: new Map(), ways: new Map(), relations: new Map() };
  const versions = new Map<string, number>();
  const parser = new SaxesParser();
  let action: string | undefined;
  let root = false;
  let current:
    | { type: 'node' | 'way' | 'relation'; id: number; version: number; attrs: Tags; tags: Tags; refs: number[]; members: { type: string; id: number; role: string }[] }
    | undefined;

  parser.on('opentag', (tag: SaxesTagPlain) => {
    const a = tag.attributes as Tags;
    if (!root) {
      if (tag.name !== 'osmChange') throw new ImportFormatError(`Not an OsmChange file: the root element is <${tag.name}>, not <osmChange>`);
      root = true;
    } else if (ACTIONS.has(tag.name)) action = tag.name;
    else if ((tag.name === 'node' || tag.name === 'way' || tag.name === 'relation') && action) {
      current = { type: tag.name, id: integer(a.id, `${tag.name} id`), version: Number(a.version ?? 0), attrs: a, tags: {}, refs: [], members: [] };
    } else if (current && tag.name === 'tag' && a.k !== undefined) current.tags[a.k] = a.v ?? '';
    else if (current && tag.name === 'nd') current.refs.push(integer(a.ref, 'nd ref'));
    else if (current && tag.name === 'member') current.members.push({ type: a.type ?? '', id: integer(a.ref, 'member ref'), role: a.role ?? '' });
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (ACTIONS.has(tag.name)) action = undefined;
    if (!current || tag.name !== current.type) return;
    const c = current;
    current = undefined;
    const key = `${c.type}${c.id}`;
    if ((versions.get(key) ?? -1) > c.version) return;
    versions.set(key, c.version);
    const deleted = action === 'delete';
    if (c.type === 'node') {
      out.nodes.set(c.id, deleted ? { deleted } : { deleted, lat: coordinate(c.attrs.lat, 90, 'lat'), lon: coordinate(c.attrs.lon, 180, 'lon'), tags: c.tags });
    } else if (c.type === 'way') out.ways.set(c.id, deleted ? { deleted } : { deleted, refs: c.refs, tags: c.tags });
    else out.relations.set(c.id, deleted ? { deleted } : { deleted, tags: c.tags, members: c.members });
  });

  const input = createReadStream(path);
  const text = (await isGzip(path)) ? input.pipe(createGunzip()) : input;
  input.on('error', (err) => text.destroy(err));
  text.setEncoding('utf8');
  try {
    for await (const chunk of text as AsyncIterable<string>) parser.write(chunk);
    parser.close();
  } catch (err) {
    if (err instanceof ImportFormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ImportFormatError(`Cannot read ${path}: no such file`);
    throw new ImportFormatError(`Not an OsmChange file (${path}): ${(err as Error).message}`);
  } finally {
    input.destroy();
  }
  if (!root) throw new ImportFormatError(`Not an OsmChange file (${path}): it is empty`);
  return out;
}
