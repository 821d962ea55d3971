import { checkPbfHeader } from '../import/pbf-blocks.js';
import { nodePass } from '../import/pbf-dense.js';
import { wayPass, WaysStart, type WayLike } from '../import/pbf-ways.js';
import type { StateBatch } from './osm-state.js';
import { StateCollector, type StateReadOptions } from './state-collector.js';

export type { StateReadOptions } from './state-collector.js';

/**
 * What later updates of this extract need (osm-state.ts), read from the PBF file the index is
 * built from on its own: every element (address and building ways, boundary relations), then
 * ways (the boundaries' member ways), then nodes (the coordinates of both). It yields batches for
 * a StateRecorder and writes nothing itself. An import records the state from its own reading of
 * the file (osm-pbf.ts feeds the same StateCollector); this reader serves `recordOsmState` after
 * an import. Each way is yielded once.
 */
export async function* readOsmState(path: string, opts: StateReadOptions = {}): AsyncGenerator<StateBatch> {
  await checkPbfHeader(path);
  const state = new StateCollector(opts);
  const way = (w: WayLike) => {
    if (w.tagged) state.way(w.id, w.tags(), () => w.refs());
  };
  // The first pass notes where the node blocks end; the second skips them unread.
  const start = new WaysStart();
  for await (const _ of wayPass(path, way, { relation: (r) => state.relation(r), from: start })) yield* state.take();
  if (state.needsMemberWays) {
    for await (const _ of wayPass(path, (w) => {
      if (state.wantsMemberWay(w.id)) state.memberWay(w.id, w.refs());
    }, { from: start }));
  }
  state.endWays();
  yield* state.take();
  if (state.needsNodes) for await (const _ of nodePass(path, (id, lat, lon, tags) => state.node(id, lat, lon, tags))) yield* state.take();
  state.end();
  yield* state.take();
}
