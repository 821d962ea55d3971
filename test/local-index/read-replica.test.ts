import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openLocalIndex } from '../../src/local-index/index.js';
import { createServices, type Services } from '../../src/services.js';
import { createSandbox, type Sandbox } from '../support/backends.js';
import { fixture } from './support/local-sandbox.js';

describe('LOCAL_INDEX_READ_URL', () => {
  const base = { DATA_DIR: '/tmp/x', HOST: '127.0.0.1' };
  it('defaults to DATABASE_URL, takes a PostgreSQL URL, and needs DATABASE_URL', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://db/addr' }).LOCAL_INDEX_READ_URL).toBe('postgres://db/addr');
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://db/addr', LOCAL_INDEX_READ_URL: 'postgresql://replica/addr' }).LOCAL_INDEX_READ_URL).toBe('postgresql://replica/addr');
    expect(loadConfig(base).LOCAL_INDEX_READ_URL).toBeUndefined();
    expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://db/addr', LOCAL_INDEX_READ_URL: 'mysql://replica' })).toThrow(/LOCAL_INDEX_READ_URL: must be a postgres/);
    expect(() => loadConfig({ ...base, LOCAL_INDEX_READ_URL: 'postgres://replica/addr' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, LOCAL_INDEX_READ_URL: 'postgres://replica/addr' })).toThrow(/LOCAL_INDEX_READ_URL: needs DATABASE_URL/);
  });
});

/**
 * Issue 22 item 5: the service's local index reads from a replica while imports write to the
 * primary. A second schema stands in for the replica: it holds what "replication" brought
 * (Amsterdam), the primary what was imported since (Berlin).
 */
describe('local index on a read replica (postgres)', () => {
  let primary: Sandbox;
  let replica: Sandbox;
  let services: Services;
  beforeEach(async () => {
    [primary, replica] = await Promise.all([createSandbox('postgres'), createSandbox('postgres')]);
    const seeded = await openLocalIndex({ dataDir: replica.dataDir, databaseUrl: replica.databaseUrl! });
    await seeded.importFile(fixture('amsterdam.oa.csv'), { format: 'openaddresses', country: 'NL' });
    await seeded.close();
    const config = loadConfig({ ...primary.env, HOST: '127.0.0.1', PROVIDERS: 'local', LOCAL_INDEX_READ_URL: replica.databaseUrl! });
    services = await createServices(config);
  });
  afterEach(async () => {
    await services.close();
    await Promise.all([primary.cleanup(), replica.cleanup()]);
  });

  it('answers from the replica, and imports into the primary', async () => {
    const local = services.localIndex!;
    expect(await local.countries()).toEqual(['NL']);
    expect((await local.geocode({ query: 'Damrak 1, Amsterdam', country: 'NL' }))[0]?.components).toMatchObject({ street: 'Damrak', houseNumber: '1' });

    const res = await runCli(['import', fixture('berlin.csv'), '--json'], { stdout: () => undefined, stderr: () => undefined, env: { ...primary.env, LOCAL_INDEX_READ_URL: replica.databaseUrl! } });
    expect(res).toBe(0);
    // The primary holds Berlin, not Amsterdam; the service, reading the replica, still sees only Amsterdam.
    const onPrimary = await openLocalIndex({ dataDir: primary.dataDir, databaseUrl: primary.databaseUrl! });
    try {
      expect(await onPrimary.countries()).toEqual(['DE']);
    } finally {
      await onPrimary.close();
    }
    expect(await local.countries()).toEqual(['NL']);
    expect(await local.count()).toBe(26);
  });
});
