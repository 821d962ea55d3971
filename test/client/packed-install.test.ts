import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

// Issue 36: @addressd/client as another project gets it: packed (prepack builds it), installed from the
// tarball with no registry, compiled by tsc, and the README's checkout example run against a real service.
const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const packageDir = join(repo, 'clients', 'typescript');
const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');

/** npm without the variables of an enclosing `npm test` (workspace, prefix), and with no registry to reach. */
function npm(args: string[], cwd: string, cache: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return run('npm', [...args, '--offline', '--registry=http://127.0.0.1:9/', `--cache=${cache}`, '--no-audit', '--no-fund'], { cwd, env });
}

/** The client's runtime dependencies, transitively, as the repository's node_modules hold them. */
async function runtimeDependencies(dir: string, seen = new Map<string, string>()): Promise<Map<string, string>> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (seen.has(name)) continue;
    const found = [join(dir, 'node_modules', name), join(packageDir, 'node_modules', name), join(repo, 'node_modules', name)].find(existsSync);
    if (!found) throw new Error(`${name} (a dependency of ${dir}) is not installed`);
    seen.set(name, found);
    await runtimeDependencies(found, seen);
  }
  return seen;
}

/** The README's checkout example, as an integrator copies it. */
async function readmeCheckout(): Promise<string> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## A checkout')))?.[1];
  if (!code) throw new Error('clients/typescript/README.md has no checkout example');
  return code;
}

/** The shop's own code around the example: each typed address through checkAddress, then feedback for the first. */
const MAIN = `import { checkAddress, orderPlaced, type Typed } from './checkout.js';
const cases = JSON.parse(process.argv[2] ?? '[]') as Typed[];
const steps = [];
for (const typed of cases) steps.push(await checkAddress(typed));
const first = steps[0];
if (first && 'responseId' in first) await orderPlaced(first.responseId, 'ours');
console.log(JSON.stringify(steps));
`;

/** A port nothing listens on: the service "cannot be reached". */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('@addressd/client installed into another project from its packed tarball', () => {
  let server: TestServer;
  let key: string;
  let work: string;
  let shop: string;
  let packed: string[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'addressd-client-pack-'));
    const cache = join(work, 'npm-cache');
    const tarballs = join(work, 'tarballs');
    await mkdir(tarballs);
    // prepack builds dist/ first, whatever state the checkout is in.
    const { stdout } = await npm(['pack', '--json', `--pack-destination=${tarballs}`], packageDir, cache);
    const [client] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    packed = client?.files.map((f) => f.path) ?? [];
    const files = [join(tarballs, client?.filename ?? '')];
    for (const dir of (await runtimeDependencies(packageDir)).values()) {
      const dep = await npm(['pack', '--json', '--ignore-scripts', `--pack-destination=${tarballs}`], dir, cache);
      files.push(join(tarballs, (JSON.parse(dep.stdout) as { filename: string }[])[0]?.filename ?? ''));
    }
    shop = join(work, 'shop');
    await mkdir(shop);
    await writeFile(join(shop, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }));
    await npm(['install', '--ignore-scripts', ...files], shop, cache);
    await writeFile(join(shop, 'checkout.ts'), await readmeCheckout());
    await writeFile(join(shop, 'main.ts'), MAIN);
    const compilerOptions = {
      strict: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', outDir: 'dist', skipLibCheck: true,
      typeRoots: [join(repo, 'node_modules', '@types')], types: ['node'],
    };
    await writeFile(join(shop, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['checkout.ts', 'main.ts'] }));

    server = await startTestServer({ providers: 'local' });
    const csv = join(work, 'de.oa.csv');
    await writeFile(csv, [
      'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH',
      '11.5755,48.1374,8,Marienplatz,,München,,,80331,,',
      '11.5812,48.1322,22,Baaderstraße,Whg. 1,München,,,80469,,',
      '11.5812,48.1322,22,Baaderstraße,Whg. 2,München,,,80469,,',
      '8.1375,49.3539,5,Hauptstraße,,Neustadt an der Weinstraße,,,67433,,',
      '10.9997,50.3296,5,Hauptstraße,,Neustadt bei Coburg,,,96465,,',
    ].join('\n'));
    await server.services.localIndex!.importFile(csv, { format: 'openaddresses', country: 'DE' });
    ({ key } = await server.createAccount({ plan: 'starter' }));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the built package: compiled JavaScript and its types, never an empty package', () => {
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/client.js']));
  });

  it("compiles with tsc and runs the README's checkout, following action, against a running service", async () => {
    const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: shop }).catch((e: { stdout: string }) => e);
    expect(compiled.stdout).toBe('');
    const cases = [
      { street: 'Marienplatz', houseNumber: '8', postcode: '80331', city: 'München', country: 'DE' },
      { street: 'Marienplaz', houseNumber: '8', postcode: '80331', city: 'München', country: 'DE' },
      { street: 'Baaderstraße', houseNumber: '22', postcode: '80469', city: 'München', country: 'DE' },
      { street: 'Hauptstraße', houseNumber: '5', country: 'DE' },
      { street: 'Marienplatz', houseNumber: '999', postcode: '80331', city: 'München', country: 'DE' },
    ];
    const env = { ...process.env, ADDRESSD_URL: server.url, ADDRESSD_KEY: key };
    const { stdout } = await run(process.execPath, ['dist/main.js', JSON.stringify(cases)], { cwd: shop, env });
    const [accept, confirm, addUnit, alternatives, fix] = JSON.parse(stdout) as Record<string, unknown>[];
    expect(accept).toMatchObject({ show: 'accept', responseId: expect.any(String), address: { street: 'Marienplatz', houseNumber: '8' } });
    expect(confirm).toMatchObject({ show: 'confirm', changed: ['street'], address: { street: 'Marienplatz' } });
    expect(addUnit).toMatchObject({ show: 'add_unit', address: { street: 'Baaderstraße', houseNumber: '22' } });
    const cities = [alternatives?.address, ...((alternatives?.alternatives ?? []) as unknown[])].map((a) => (a as { city: string }).city);
    expect(alternatives).toMatchObject({ show: 'confirm' });
    expect(cities.sort()).toEqual(['Neustadt an der Weinstraße', 'Neustadt bei Coburg']);
    expect(fix).toMatchObject({ show: 'fix', reasons: expect.arrayContaining(['no_house_number_match']) });
    // orderPlaced reached the service: the first answer's conclusion is counted.
    const usage = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await usage.json()) as { feedback: { validated_used: number } }).feedback).toMatchObject({ validated_used: 1 });
  });

  it('lets the order through, as typed, when the service cannot be reached', async () => {
    const env = { ...process.env, ADDRESSD_URL: `http://127.0.0.1:${await closedPort()}`, ADDRESSD_KEY: key };
    const typed = [{ street: 'Marienplatz', houseNumber: '8', postcode: '80331', city: 'München', country: 'DE' }];
    const { stdout, stderr } = await run(process.execPath, ['dist/main.js', JSON.stringify(typed)], { cwd: shop, env });
    expect(JSON.parse(stdout)).toEqual([{ show: 'as-typed' }]);
    expect(stderr).toContain('addressd could not check the address');
  });
});
