import type { Config } from '../config.js';
import type { LocalIndexOptions } from './index.js';

/**
 * The index as the configuration places it. `serving`: a process that answers lookups (the API, a
 * list run) reads where searches read (LOCAL_INDEX_READ_URL) and follows other processes' imports
 * at once (LISTEN); an operator command opens the primary and needs neither.
 */
export function localIndexOptions(config: Config, serving: boolean): LocalIndexOptions {
  return {
    dataDir: config.DATA_DIR,
    ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    ...(serving && config.LOCAL_INDEX_READ_URL ? { readUrl: config.LOCAL_INDEX_READ_URL } : {}),
    ...(config.LOCAL_COUNTRIES === '*' ? {} : { coveredCountries: config.LOCAL_COUNTRIES }),
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    follow: serving,
  };
}
