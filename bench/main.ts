/**
 * `tsx bench/main.ts NAME [args]` (`npm run bench:local`, `bench:scale`, `bench:hang`, `bench:crash`,
 * `bench:validate`, `bench:list`, `bench:reimport`, `bench:osm-update`, `bench:soak`, `bench:start`, `bench:keystrokes`): the named benchmarks beside
 * the side-by-side HTTP comparison, which is
 * `npm run bench` (bench/compare/). Add yours to BENCHES. Benchmarks measure speed; tests never
 * assert on it.
 */
const BENCHES: Record<string, (args: string[]) => Promise<void>> = {
  local: async (args) => (await import('./local.js')).benchLocal(args),
  scale: async (args) => (await import('./scale/main.js')).benchScale(args),
  hang: async () => (await import('./hang.js')).benchHang(),
  crash: async () => (await import('./crash.js')).benchCrash(),
  validate: async (args) => (await import('./cli-validate.js')).benchCliValidate(args),
  list: async (args) => (await import('./list/main.js')).benchList(args),
  reimport: async (args) => (await import('./reimport.js')).benchReimport(args),
  'osm-update': async (args) => (await import('./osm-update.js')).benchOsmUpdate(args),
  soak: async (args) => (await import('./soak/main.js')).benchSoak(args),
  start: async (args) => (await import('./soak/start-time.js')).benchStart(args),
  keystrokes: async (args) => (await import('./keystrokes/main.js')).benchKeystrokes(args),
};

const [name = 'local', ...args] = process.argv.slice(2);
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  console.error(`usage: tsx bench/main.ts <${Object.keys(BENCHES).join('|')}> [args]`);
  process.exitCode = 2;
} else {
  await bench(args);
}
