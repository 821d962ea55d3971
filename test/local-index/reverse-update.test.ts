import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQLITE_INDEX_FILE } from '../../src/local-index/store/sqlite-store.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { addressRows } from './support/index-rows.js';
import { writeChangeFixture } from './support/osm-change-fixture.js';
import { changeFiles, updateSandboxes } from './support/update-sandboxes.js';

const fixture = changeFiles(writeChangeFixture);

/** Issue 35: the spatial index follows an OpenStreetMap change file (added, moved and deleted addresses). */
describe.each(STORAGE_BACKENDS)('reverse look-up after import --update (%s)', (backend) => {
  const s = updateSandboxes(backend);

  it('finds every address where the change file left it, and none it deleted', async () => {
    await s.box.index.importFile(fixture.files.before, { format: 'osm', recordOsmState: true });
    const before = await addressRows(s.box.sandbox);
    await s.box.index.applyOsmChange(fixture.files.change, {});
    const after = await addressRows(s.box.sandbox);
    const key = (r: { street: string; hn: string; lat: number; lng: number }) => `${r.street} ${r.hn} @${r.lat.toFixed(6)},${r.lng.toFixed(6)}`;
    // The fixture's change moves, adds and removes addresses: the test would prove nothing otherwise.
    expect(after.map(key).sort()).not.toEqual(before.map(key).sort());
    for (const row of after) {
      const found = await s.box.index.reverse({ lat: row.lat, lng: row.lng, radiusMeters: 1, limit: 10 });
      expect(found.map((h) => `${h.components.street} ${h.components.houseNumber}`), key(row)).toContain(`${row.street} ${row.hn}`);
    }
    const gone = before.filter((b) => !after.some((a) => key(a) === key(b)));
    expect(gone.length).toBeGreaterThan(0);
    for (const row of gone) {
      const found = await s.box.index.reverse({ lat: row.lat, lng: row.lng, radiusMeters: 0.5, limit: 10 });
      expect(found.filter((h) => h.distanceMeters === 0 && `${h.components.street} ${h.components.houseNumber}` === `${row.street} ${row.hn}`), key(row)).toEqual([]);
    }
    if (backend === 'sqlite') {
      // The spatial index (cells of the addresses' own columns) holds exactly the addresses as they now are.
      const db = new Database(join(s.box.sandbox.dataDir, SQLITE_INDEX_FILE), { readonly: true });
      const check = db.pragma('integrity_check', { simple: true });
      db.close();
      expect(check).toBe('ok');
    }
  });
});
