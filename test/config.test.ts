import { describe, expect, it } from 'vitest';
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
    });
    expect(config.PROVIDERS).toEqual(['pdok', 'local']);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.PROVIDER_TIMEOUT_MS).toBe(1500);
  });

  it('fails fast listing every bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', MASTER_KEY: 'short' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'MASTER_KEY']) expect(problems).toContain(name);
    }
  });
});
