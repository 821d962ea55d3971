import type { StateBatch, StoredArea } from '../update/osm-state.js';
import { MISSING, toE7 } from '../update/way-coords.js';
import { WayRowsBuilder } from '../update/way-rows.js';
import type { NodeLocations } from './osm-node-locations.js';

/** Ways a batch: a batch is one COPY on PostgreSQL, some 200 statements on SQLite. */
const BATCH = 5000;

/**
 * The `--update` state (update/osm-state.ts) as the import's reader gathers it (osm-pbf.ts): each
 * way it keeps with its nodes' coordinates, taken from the node locations the reader fills for
 * the way's own centre, so the state costs no reading of the file and no node set of its own.
 * Batches come out as they fill, the areas last with the count of ways.
 */
export class StateRows {
  private readonly rows = new WayRowsBuilder();
  private ways = 0;

  /** A way whose nodes `at` has located (those the file lacks are MISSING); a batch when one is full. */
  way(id: number, tags: string, refs: ArrayLike<number>, at: NodeLocations): StateBatch | undefined {
    this.rows.push(id, tags, refs, (i, out, k) => {
      const n = at.indexOf(refs[i]!);
      out[k] = n < 0 ? MISSING : at.latE7At(n);
      out[k + 1] = n < 0 ? MISSING : at.lonE7At(n);
    });
    return this.full();
  }

  /** A way of one node at a point of its own (an entrance, osm-derived-ways.ts). */
  point(id: number, tags: string, node: number, lat: number, lng: number): StateBatch | undefined {
    this.rows.push(id, tags, [node], (_, out, k) => {
      out[k] = toE7(lat);
      out[k + 1] = toE7(lng);
    });
    return this.full();
  }

  /** The ways gathered and not yet handed out. */
  flush(): StateBatch | undefined {
    if (this.rows.length === 0) return undefined;
    this.ways += this.rows.length;
    return { kind: 'ways', rows: this.rows.take() };
  }

  /** The last batches: the ways left, then the areas with how many ways the recording holds. */
  end(areas: StoredArea[]): StateBatch[] {
    const rest = this.flush();
    return [...(rest ? [rest] : []), { kind: 'areas', rows: areas, ways: this.ways }];
  }

  private full(): StateBatch | undefined {
    return this.rows.length >= BATCH ? this.flush() : undefined;
  }
}
