import type { OsmRelation } from 'osm-pbf-parser';

type Tags = Record<string, string>;

/**
 * What the import's PBF reader (osm-pbf.ts) hands the update state's gathering
 * (update/state-collector.ts) as it reads the file, so that `--update`'s state costs no reading
 * of its own: pass 1's tagged ways and relations, pass 2's member ways, the first node pass's
 * nodes. A type only, so the reader needs nothing of update/.
 */
export interface OsmStateTap {
  way(id: number, tags: Tags, refs: () => number[]): void;
  relation(item: OsmRelation): void;
  readonly needsMemberWays: boolean;
  wantsMemberWay(id: number): boolean;
  memberWay(id: number, refs: number[]): void;
  endWays(): void;
  readonly needsNodes: boolean;
  node(id: number, lat: number, lon: number, tags: Tags | undefined): void;
  end(): void;
}
