import type { OsmStateStore } from './osm-state.js';
import { openPgOsmState } from './pg-osm-state.js';
import { openSqliteOsmState } from './sqlite-osm-state.js';

/** The OSM update state beside the index: PostgreSQL (the primary) when `databaseUrl` is set, else the SQLite index file. */
export async function openOsmState(opts: { dataDir: string; databaseUrl?: string | undefined; schema?: string | undefined }): Promise<OsmStateStore> {
  return opts.databaseUrl ? openPgOsmState(opts.databaseUrl, opts.schema) : openSqliteOsmState(opts.dataDir);
}
