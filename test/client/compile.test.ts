import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../../clients/typescript/', import.meta.url));
/** The workspace's own TypeScript (5), the compiler an integrator's build most likely runs. */
const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');
const entry = join(packageDir, 'src', 'index.js');
const nodeTypes = fileURLToPath(new URL('../../node_modules/@types', import.meta.url));

/** The README's checkout example, as an integrator copies it (it imports '@addressd/client'). */
async function readmeCheckout(): Promise<string> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A checkout'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('clients/typescript/README.md has no checkout example');
  return code;
}

/** A checkout's use of the client; `fields` are swapped for misspelled ones to prove tsc refuses them. */
const program = (fields: { request: string; answer: string }) => `
import { AddressdError, createClient } from ${JSON.stringify(entry)};
const client = createClient({ baseUrl: 'https://addressd.example', apiKey: 'ak_live_x' });
export async function check(): Promise<string> {
  try {
    const answer = await client.validate({ ${fields.request}: 'Damrak 1, 1012 LG Amsterdam', country: 'NL' });
    return answer.${fields.answer} === 'correctable' ? (answer.address?.street ?? '') : answer.verdict;
  } catch (error) {
    if (error instanceof AddressdError) return \`\${error.status} \${error.issues.length} \${error.retryAfter ?? 0}\`;
    throw error;
  }
}
`;

/** Type-checks files with the strict options a TypeScript integrator uses, in one tsc run; its output. */
async function compile(dir: string, files: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  for (const [name, source] of Object.entries(files)) await writeFile(join(dir, name), source);
  const compilerOptions = {
    noEmit: true,
    strict: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: true,
    lib: ['es2022', 'dom'],
    typeRoots: [nodeTypes],
    types: ['node'],
    // What an installed package resolves to, without building dist/ first.
    paths: { '@addressd/client': [entry.replace(/\.js$/, '.ts')] },
  };
  const project = join(dir, 'tsconfig.json');
  await writeFile(project, JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  return run(process.execPath, [tsc, '-p', project, '--pretty', 'false'], { cwd: dir }).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
  );
}

/** Issue 29 item 5: a wrong field name is a compile error, not a runtime surprise. */
describe('@addressd/client types under tsc', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'addressd-client-compile-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('refuses a misspelled request field and a misspelled answer field, naming each, and accepts the correct use and the README’s example', async () => {
    const result = await compile(dir, {
      'correct.mts': program({ request: 'query', answer: 'verdict' }),
      'readme-checkout.mts': await readmeCheckout(),
      'misspelled.mts': program({ request: 'qurey', answer: 'verdcit' }),
    });
    const errors = result.output.split('\n').filter((line) => line.includes('error TS'));
    expect(result.ok).toBe(false);
    // Every error is in the misspelled file (so the others compile), one per wrong name.
    expect(errors).toEqual([
      expect.stringMatching(/^misspelled\.mts\(6,\d+\): error TS\d+: .*'qurey'/),
      expect.stringMatching(/^misspelled\.mts\(7,\d+\): error TS\d+: .*'verdcit'/),
    ]);
  });
});
