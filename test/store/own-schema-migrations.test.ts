import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { createSandbox, type Sandbox } from '../support/backends.js';

const open = (sandbox: Sandbox): Promise<Database> =>
  openDatabase({ dataDir: sandbox.dataDir, databaseUrl: sandbox.databaseUrl!, schema: sandbox.schema! });

/**
 * Test files (and deployments sharing a database) each live in a schema of one PostgreSQL database.
 * Kysely's migration introspection read EVERY schema, so another file dropping its schema mid-read
 * failed ours now and then (`relation "t_….usage_daily" does not exist`, invalid_schema_name).
 * Introspection now reads only our own schema: what others do cannot reach it.
 */
describe('migrations on a shared PostgreSQL database', () => {
  let ours: Sandbox;
  let theirs: Sandbox;
  let database: Database;
  beforeAll(async () => {
    [ours, theirs] = await Promise.all([createSandbox('postgres'), createSandbox('postgres')]);
    const other = await open(theirs);
    await other.close();
    database = await open(ours);
  });
  afterAll(async () => {
    await database.close();
    await Promise.all([ours.cleanup(), theirs.cleanup()]);
  });

  it("introspects only its own schema, never another deployment's tables", async () => {
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours.schema]));
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['accounts', 'usage_daily', 'kysely_migration']));
    const usage = tables.find((t) => t.name === 'usage_events');
    expect(usage?.columns.find((c) => c.name === 'id')).toMatchObject({ isAutoIncrementing: true, isNullable: false });
  });

  it('migrates while other schemas are created, migrated and dropped around it', async () => {
    const churn = async () => {
      for (let i = 0; i < 6; i++) {
        const other = await createSandbox('postgres');
        const db = await open(other);
        await db.close();
        await other.cleanup();
      }
    };
    const migrateOurs = async () => {
      for (let i = 0; i < 12; i++) await (await open(ours)).close();
    };
    await expect(Promise.all([churn(), churn(), migrateOurs()])).resolves.toBeDefined();
  });
});
