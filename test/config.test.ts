import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('works with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PROVIDERS: ['pdok', 'photon', 'nominatim', 'local'],
      PROVIDER_TIMEOUT_MS: 3000,
      TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      BREAKER_FAILURES: 5,
      BREAKER_HALF_OPEN_MS: 30_000,
      VALIDATE_CACHE_TTL_MS: 30 * 86_400_000,
      AUTOCOMPLETE_CACHE_TTL_MS: 86_400_000,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
  });

  it('reads every public variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/addressd',
      DATABASE_URL: 'postgres://u@db:5432/addr',
      REDIS_URL: 'redis://cache:6379',
      PROVIDERS: 'pdok, local',
      PDOK_URL: 'http://pdok.internal/v3_1',
      PHOTON_URL: 'http://photon.internal',
      NOMINATIM_URL: 'http://nominatim.internal',
      PROVIDER_TIMEOUT_MS: '1500',
      MASTER_KEY: 'a'.repeat(64),
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      BREAKER_FAILURES: '3',
      BREAKER_HALF_OPEN_MS: '5000',
      VALIDATE_CACHE_TTL_MS: '3600000',
      AUTOCOMPLETE_CACHE_TTL_MS: '60000',
    });
    expect(config.PROVIDERS).toEqual(['pdok', 'local']);
    expect(config).toMatchObject({
      BREAKER_FAILURES: 3,
      BREAKER_HALF_OPEN_MS: 5000,
      VALIDATE_CACHE_TTL_MS: 3_600_000,
      AUTOCOMPLETE_CACHE_TTL_MS: 60_000,
    });
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.PROVIDER_TIMEOUT_MS).toBe(1500);
  });

  it('fails fast listing every bad variable, one problem each', () => {
    const bad = {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      REDIS_URL: 'memcached://x',
      PDOK_URL: 'not a url',
      PHOTON_URL: 'photon',
      NOMINATIM_URL: '//nominatim',
      PROVIDER_TIMEOUT_MS: '-1',
      MASTER_KEY: 'short',
      TRUST_PROXY: 'maybe',
      LOG_LEVEL: 'loud',
      PHOTON_COUNTRIES: 'Europe',
      BREAKER_FAILURES: '0',
      VALIDATE_CACHE_TTL_MS: 'forever',
    };
    let problems: string[] = [];
    try {
      loadConfig({ ...bad, HOST: '127.0.0.1', PROVIDERS: 'pdok' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(Object.keys(bad).sort());
  });

  it('derives a stable instance id per host, port and data directory, unless INSTANCE_ID says otherwise', () => {
    const id = loadConfig({}).INSTANCE_ID;
    expect(id).toMatch(new RegExp(`^${hostname().replace(/[.]/g, '\\.')}:3000:[0-9a-f]{8}$`));
    // A restart finds its predecessor's reservations under the same id ...
    expect(loadConfig({}).INSTANCE_ID).toBe(id);
    expect(loadConfig({ DATA_DIR: 'data/' }).INSTANCE_ID).toBe(id);
    // ... and a second instance on the same machine gets its own.
    expect(loadConfig({ PORT: '3001' }).INSTANCE_ID).not.toBe(id);
    expect(loadConfig({ DATA_DIR: '/srv/other' }).INSTANCE_ID).not.toBe(id);
    expect(loadConfig({ INSTANCE_ID: 'addressd-0' }).INSTANCE_ID).toBe('addressd-0');
    expect(() => loadConfig({ INSTANCE_ID: 'has space' })).toThrow(/INSTANCE_ID/);
  });

  it('releases stale reservations after the longest request plus a margin, checked every 30 s', () => {
    expect(loadConfig({})).toMatchObject({
      DATABASE_CONNECT_TIMEOUT_MS: 5000,
      RESERVATION_SWEEP_MS: 30_000,
      // 3 s of providers + 2 × 5 s of waiting for a connection + 5 s of margin.
      RESERVATION_MAX_AGE_MS: 18_000,
    });
    expect(loadConfig({ PROVIDER_TIMEOUT_MS: '10000', DATABASE_CONNECT_TIMEOUT_MS: '2000' }).RESERVATION_MAX_AGE_MS).toBe(19_000);
    expect(loadConfig({ RESERVATION_MAX_AGE_MS: '45000', RESERVATION_SWEEP_MS: '10000' })).toMatchObject({
      RESERVATION_MAX_AGE_MS: 45_000,
      RESERVATION_SWEEP_MS: 10_000,
    });
  });

  it('lets settles linger 20 ms for company on PostgreSQL, none on SQLite, unless told', () => {
    expect(loadConfig({}).USAGE_WRITE_LINGER_MS).toBe(0);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/addressd' }).USAGE_WRITE_LINGER_MS).toBe(20);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.internal/addressd', USAGE_WRITE_LINGER_MS: '0' }).USAGE_WRITE_LINGER_MS).toBe(0);
    expect(loadConfig({ USAGE_WRITE_LINGER_MS: '5' }).USAGE_WRITE_LINGER_MS).toBe(5);
    expect(() => loadConfig({ USAGE_WRITE_LINGER_MS: '5000' })).toThrow(/USAGE_WRITE_LINGER_MS/);
  });

  it('refuses a reservation age a running request could outlive', () => {
    let problems: string[] = [];
    try {
      loadConfig({ RESERVATION_MAX_AGE_MS: '13000' });
      expect.unreachable();
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^RESERVATION_MAX_AGE_MS: must be longer than the longest request, 13000 ms/)]);
  });

  it('refuses an unknown provider id, and header timeouts not above the keep-alive timeout', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ PROVIDERS: 'pdok,Photon,here' })).toEqual(['PROVIDERS: unknown provider "Photon", "here" (known: pdok, photon, nominatim, local)']);
    expect(problems({ KEEP_ALIVE_TIMEOUT_MS: '70000' })).toEqual(['HEADERS_TIMEOUT_MS: must be greater than KEEP_ALIVE_TIMEOUT_MS']);
    expect(problems({ KEEP_ALIVE_TIMEOUT_MS: '120000', HEADERS_TIMEOUT_MS: '121000', METRICS_TOKEN: 'long-enough-token-123' })).toEqual([]);
    expect(problems({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
  });

  it('stops `npm start` with exit code 2 and every problem in one line on stderr', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts'],
        { env: { PATH: process.env.PATH ?? '', PORT: '99999', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' } },
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^addressd: Invalid configuration: [^\n]+\n$/);
    for (const name of ['PORT', 'LOG_LEVEL', 'DATABASE_URL']) expect(result.stderr).toMatch(new RegExp(`[:;] ${name}: `));
  }, 60_000);
});
