import { SortedIds } from './sorted-ids.js';

/**
 * Coordinates of just the nodes the importer needs (address ways' and boundary ways' members),
 * off the V8 heap: their ids in a SortedIds, coordinates in two Int32Arrays of 1e-7 degrees
 * (OSM's own precision). 16 bytes a node, no object, no hash table, nothing for the garbage
 * collector to walk. Ids are collected while reading ways, then sorted once; the node pass
 * fills coordinates by walking the sorted ids alongside the file's ascending node ids (binary
 * search when a file is not sorted); look-ups go by `indexOf`.
 */
export class NodeLocations {
  private readonly ids = new SortedIds();
  private lats = new Int32Array(0);
  private lons = new Int32Array(0);
  private sealed = false;
  private static readonly MISSING = -0x80000000;

  need(id: number): void {
    if (this.sealed) throw new Error('NodeLocations: need() after seal()');
    this.ids.add(id);
  }

  /** Sorts and de-duplicates the needed ids; coordinates can be set from now on. */
  seal(): void {
    if (this.sealed) return;
    this.ids.seal();
    this.lats = new Int32Array(this.ids.size).fill(NodeLocations.MISSING);
    this.lons = new Int32Array(this.ids.size);
    this.sealed = true;
  }

  get size(): number {
    return this.ids.size;
  }

  /** Records a node's coordinates when it is needed. */
  set(id: number, lat: number, lon: number): void {
    const i = this.ids.seek(id);
    if (i >= 0) {
      this.lats[i] = Math.round(lat * 1e7);
      this.lons[i] = Math.round(lon * 1e7);
    }
  }

  /** [lat, lon] of a needed node found in the file, else undefined. */
  get(id: number): [number, number] | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : [this.lats[i]! / 1e7, this.lons[i]! / 1e7];
  }

  /** Where a needed node found in the file is kept (for latAt / lonAt), else -1. */
  indexOf(id: number): number {
    const i = this.ids.find(id);
    return i < 0 || this.lats[i] === NodeLocations.MISSING ? -1 : i;
  }

  latAt(i: number): number {
    return this.lats[i]! / 1e7;
  }

  lonAt(i: number): number {
    return this.lons[i]! / 1e7;
  }

  /** As kept: integer 1e-7 degrees (what the update state stores, update/way-coords.ts). */
  latE7At(i: number): number {
    return this.lats[i]!;
  }

  lonE7At(i: number): number {
    return this.lons[i]!;
  }
}
