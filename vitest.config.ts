import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only thrash; each file gets its own SQLite file and PG schema.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
