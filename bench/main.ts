/**
 * `npm run bench -- NAME [args]`: one entry per benchmark; add yours to BENCHES.
 * Benchmarks measure speed; tests never assert on it.
 */
const BENCHES: Record<string, (args: string[]) => Promise<void>> = {
  http: async () => (await import('./http.js')).benchHttp(),
  local: async (args) => (await import('./local.js')).benchLocal(args),
  hang: async () => (await import('./hang.js')).benchHang(),
};

// Without a name: the HTTP paths (a minute); `local` imports a million addresses, so it is asked for by name.
const [name = 'http', ...args] = process.argv.slice(2);
const bench = name ? BENCHES[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(BENCHES).join('|')}> [args]`);
  process.exitCode = 2;
} else {
  await bench(args);
}
