import type { StreetInput } from '../store/store.js';
import type { KeyedAddress } from './address-keys.js';
import type { KeyedChunk } from './keyed-chunks.js';
import { batchBuffers } from '../update/osm-state.js';

/**
 * A keyed chunk as the reader thread posts it: columns instead of one object per row.
 * Structured cloning writes every property name of every object and rebuilds each object on
 * the other side; a column is one array, numbers go as typed arrays, each street once per
 * chunk, and the row identity (derivable) not at all. About half the hand-off's CPU on
 * either thread, which is the reader's share an import waits for.
 */
export interface PackedChunk {
  rows: number;
  skips: KeyedChunk['skips'];
  countries: string[];
  bytesRead: number;
  derived: KeyedChunk['derived'];
  areasNotClosed: KeyedChunk['areasNotClosed'];
  /** As read: the ways' columns are typed arrays, handed over without a copy (`chunkTransfer`). */
  state: KeyedChunk['state'];
  streets: StreetInput[];
  line: (number | string)[];
  street: Uint32Array;
  sourceId: (string | null)[];
  hn: string[];
  hnKey: string[];
  /** NaN where the house number has no numeric base. */
  hnBase: Float64Array;
  postcode: (string | null)[];
  pcKey: (string | null)[];
  lat: Float64Array;
  lng: Float64Array;
  units: (string | null)[];
}

/** The buffers of a chunk that move to the other thread rather than being copied: the state's. */
export const chunkTransfer = (p: PackedChunk): ArrayBuffer[] => p.state.flatMap(batchBuffers);

export function packChunk(chunk: KeyedChunk): PackedChunk {
  const n = chunk.keyed.length;
  const streetIndex = new Map<StreetInput, number>();
  const p: PackedChunk = {
    rows: chunk.rows,
    skips: chunk.skips,
    countries: chunk.countries,
    bytesRead: chunk.bytesRead,
    derived: chunk.derived,
    areasNotClosed: chunk.areasNotClosed,
    state: chunk.state,
    streets: [],
    line: new Array<number | string>(n),
    street: new Uint32Array(n),
    sourceId: new Array<string | null>(n),
    hn: new Array<string>(n),
    hnKey: new Array<string>(n),
    hnBase: new Float64Array(n),
    postcode: new Array<string | null>(n),
    pcKey: new Array<string | null>(n),
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    units: new Array<string | null>(n),
  };
  for (let i = 0; i < n; i++) {
    const { row, a } = chunk.keyed[i]!;
    let s = streetIndex.get(a.street);
    if (s === undefined) {
      streetIndex.set(a.street, (s = p.streets.length));
      p.streets.push(a.street);
    }
    p.line[i] = row;
    p.street[i] = s;
    p.sourceId[i] = a.sourceId;
    p.hn[i] = a.hn;
    p.hnKey[i] = a.hnKey;
    p.hnBase[i] = a.hnBase ?? Number.NaN;
    p.postcode[i] = a.postcode;
    p.pcKey[i] = a.pcKey;
    p.lat[i] = a.lat;
    p.lng[i] = a.lng;
    p.units[i] = a.units ?? null;
  }
  return p;
}

/** The chunk packChunk packed; the rows of one street share one StreetInput again. */
export function unpackChunk(p: PackedChunk): KeyedChunk {
  const n = p.line.length;
  const keyed: KeyedChunk['keyed'] = new Array<KeyedChunk['keyed'][number]>(n);
  for (let i = 0; i < n; i++) {
    const street = p.streets[p.street[i]!]!;
    const sourceId = p.sourceId[i]!;
    const hnKey = p.hnKey[i]!;
    const hnBase = p.hnBase[i]!;
    const a: KeyedAddress = {
      identity: sourceId ?? `${street.key}|${hnKey}`,
      sourceId,
      street,
      hn: p.hn[i]!,
      hnKey,
      hnBase: Number.isNaN(hnBase) ? null : hnBase,
      postcode: p.postcode[i]!,
      pcKey: p.pcKey[i]!,
      lat: p.lat[i]!,
      lng: p.lng[i]!,
      units: p.units[i]!,
    };
    keyed[i] = { row: p.line[i]!, a };
  }
  return { rows: p.rows, keyed, skips: p.skips, countries: p.countries, bytesRead: p.bytesRead, derived: p.derived, areasNotClosed: p.areasNotClosed, state: p.state };
}
