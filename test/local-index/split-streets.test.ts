import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AddressKeyer } from '../../src/local-index/import/address-keys.js';
import { openLocalIndex, type LocalIndex } from '../../src/local-index/index.js';
import { openPgStore } from '../../src/local-index/store/pg-store.js';
import { openSqliteStore } from '../../src/local-index/store/sqlite-store.js';
import type { RawAddress } from '../../src/local-index/types.js';
import { createSandbox, type Sandbox, STORAGE_BACKENDS } from '../support/backends.js';

/**
 * Issue 34: a street whose houses are split between a piece with its town and a piece without
 * one (an index built before towns were derived, where a boundary was half assembled) does not
 * hold the street whole, so a number absent from the piece with the town is not known to be
 * absent: `Bergstrasse 86, Triesenberg` must never be rejected as a number that does not exist.
 * The rows are written straight into the store, as such an index holds them.
 */
const rows: RawAddress[] = [
  { street: 'Bergstrasse', houseNumber: '1', city: 'Triesenberg', country: 'LI', lat: 47.12, lng: 9.55 },
  { street: 'Bergstrasse', houseNumber: '3', city: 'Triesenberg', country: 'LI', lat: 47.1201, lng: 9.5502 },
  { street: 'Bergstrasse', houseNumber: '86', country: 'LI', lat: 47.125, lng: 9.555 },
  { street: 'Äulestrasse', houseNumber: '1', city: 'Vaduz', country: 'LI', lat: 47.14, lng: 9.52 },
  { street: 'Äulestrasse', houseNumber: '3', city: 'Vaduz', country: 'LI', lat: 47.1401, lng: 9.5202 },
];

describe.each(STORAGE_BACKENDS)('a number on a street the index holds in pieces (%s)', (backend) => {
  let sandbox: Sandbox;
  let index: LocalIndex;
  beforeEach(async () => {
    sandbox = await createSandbox(backend);
    const store = sandbox.databaseUrl ? await openPgStore(sandbox.databaseUrl, { schema: sandbox.schema }) : openSqliteStore(sandbox.dataDir);
    try {
      const keyer = new AddressKeyer();
      const session = await store.beginImport();
      await session.write(rows.map((r) => keyer.key(r, 'LI')).filter((k) => typeof k !== 'string'));
      await session.finish(['LI'], false);
    } finally {
      await store.close();
    }
    index = await openLocalIndex({ dataDir: sandbox.dataDir, ...(sandbox.databaseUrl ? { databaseUrl: sandbox.databaseUrl, schema: sandbox.schema } : {}) });
  });
  afterEach(async () => {
    await index.close();
    await sandbox.cleanup();
  });

  it('is not known to be absent where a piece of the street without a town lies beside it', async () => {
    const [split] = await index.geocode({ query: 'Bergstrasse 90, Triesenberg', country: 'LI' });
    expect(split).toMatchObject({ precision: 'street', components: { street: 'Bergstrasse', city: 'Triesenberg' } });
    expect(split?.houseNumbersKnown).toBeUndefined();
  });

  it('is known to be absent from a street held whole', async () => {
    const [whole] = await index.geocode({ query: 'Äulestrasse 30, Vaduz', country: 'LI' });
    expect(whole).toMatchObject({ precision: 'street', components: { street: 'Äulestrasse' }, houseNumbersKnown: true });
  });
});
