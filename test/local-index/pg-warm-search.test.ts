import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WARM_SEARCH } from '../../src/local-index/store/pg-store.js';
import { openIndexSandbox, type IndexSandbox } from './support/local-sandbox.js';

/**
 * The PostgreSQL store compiles its search function on each kept connection when it opens (the
 * first searches a user makes would otherwise wait ~25 ms for it); a failure there is swallowed,
 * so the warm-up itself is checked here against the function as installed.
 */
describe('PostgreSQL search warm-up', () => {
  let box: IndexSandbox;
  beforeEach(async () => {
    box = await openIndexSandbox('postgres');
  });
  afterEach(async () => {
    await box.close();
  });

  it('calls the installed search function with its current arguments and finds nothing', async () => {
    const client = new pg.Client({ connectionString: box.sandbox.databaseUrl });
    await client.connect();
    try {
      await client.query(`SET search_path = ${box.sandbox.schema}`);
      expect((await client.query(WARM_SEARCH)).rows).toEqual([{ count: '0' }]);
    } finally {
      await client.end();
    }
  });
});
