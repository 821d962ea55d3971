import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';

// Issue 36: the docs write the CLI one way, `addressd …`; the README names the checkout form once.
const root = fileURLToPath(new URL('../../', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.') || e.name === 'dist') return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? markdownFiles(path) : e.name.endsWith('.md') ? [path] : [];
  });
}

const DOCS = [join(root, 'README.md'), ...['docs', 'src', 'clients', 'bench'].flatMap((d) => markdownFiles(join(root, d)))];

/** The code of a Markdown file: fenced blocks and inline spans, where commands are written. */
function codeOf(text: string): string[] {
  const parts = text.split(/^```.*$/m);
  return parts.flatMap((part, i) => (i % 2 ? [part] : [...part.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '')));
}

async function topCommands(): Promise<string[]> {
  let out = '';
  await runCli(['--help'], { stdout: (t) => void (out += t), stderr: () => undefined, env: {} });
  return [...(out.split('Commands:\n')[1] ?? '').matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] ?? '');
}

describe('the CLI as the docs write it', () => {
  it('is `addressd …` throughout; `npm run --silent cli -- …` is named once, where the README introduces the CLI', () => {
    const npmForm = DOCS.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/npm run (--silent |-s )?cli\b/.test(line) ? [`${relative(root, file)}:${i + 1}`] : [])),
    );
    expect(npmForm).toHaveLength(1);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const firstSteps = readme.slice(readme.indexOf('## First steps'), readme.indexOf('\n## ', readme.indexOf('## First steps') + 1));
    expect(firstSteps).toContain('npm run --silent cli -- …');
  });

  it('names only commands the CLI has', async () => {
    const known = new Set(await topCommands());
    expect(known.size).toBeGreaterThan(5);
    const unknown = DOCS.flatMap((file) =>
      codeOf(readFileSync(file, 'utf8')).flatMap((code) =>
        [...code.matchAll(/(?:^|[\s(])addressd ([a-z][\w-]*)/gm)].map((m) => m[1] ?? '').filter((c) => !known.has(c)).map((c) => `${relative(root, file)}: addressd ${c}`),
      ),
    );
    expect(unknown).toEqual([]);
  });
});
