import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droppedMeanwhile } from '../../src/store/db/migrations.js';
import { POSTGRES_URL } from '../support/backends.js';

/**
 * Kysely's migrator introspects every schema of the database; another deployment (or test run)
 * dropping its schema at that moment makes PostgreSQL fail the read with invalid_schema_name.
 * Those errors are retried; a missing schema of our own, or any other error, is not.
 */
describe('migrations on a shared PostgreSQL database', () => {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  let gone: unknown;
  let syntax: unknown;
  beforeAll(async () => {
    await client.connect();
    // The very call Kysely's introspection makes, for a schema that no longer exists.
    gone = await client.query(`SELECT has_schema_privilege('t_dropped_meanwhile', 'USAGE')`).catch((e: unknown) => e);
    syntax = await client.query('SELEC 1').catch((e: unknown) => e);
  });
  afterAll(() => client.end());

  it('retries when a schema other than ours vanished during introspection', () => {
    expect(gone).toMatchObject({ code: '3F000' });
    expect(droppedMeanwhile(gone, 't_ours')).toBe(true);
    expect(droppedMeanwhile(gone, undefined)).toBe(true);
  });

  it('does not retry when our own schema is missing, or on any other error', () => {
    expect(droppedMeanwhile(gone, 't_dropped_meanwhile')).toBe(false);
    expect(droppedMeanwhile(syntax, 't_ours')).toBe(false);
    expect(droppedMeanwhile(new Error('schema "x" does not exist'), 't_ours')).toBe(false);
    expect(droppedMeanwhile(undefined, 't_ours')).toBe(false);
  });
});
