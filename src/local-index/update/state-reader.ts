import { readOsmPbf, NODE_PASS_BUDGET } from '../import/osm-pbf.js';
import type { StateBatch } from './osm-state.js';

export interface StateReadOptions {
  /** Node references located per node pass (osm-pbf.ts): a smaller budget reads the nodes in more passes. */
  nodeBudget?: number;
}

/**
 * What later updates of this extract need (osm-state.ts), read from the PBF file the index is
 * built from by the import's own reader (osm-pbf.ts), for a recording without an import
 * (record-state.ts): its batches, no rows made.
 */
export async function* readOsmState(path: string, opts: StateReadOptions = {}): AsyncGenerator<StateBatch> {
  for await (const items of readOsmPbf(path, undefined, undefined, { nodeBudget: opts.nodeBudget ?? NODE_PASS_BUDGET, recordState: true, rows: false })) {
    for (const item of items) {
      if (item.kind !== 'state') continue;
      yield item.batch;
      if (item.batch.kind === 'areas') return;
    }
  }
}
