import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:profile -- DIR|FILE [--top N] [--last SECONDS]`: where the CPU went in
 * `node --cpu-prof` profiles (`npm run bench -- --profile DIR` writes one per server process).
 * Self time is summed per area (a package under node_modules, a folder of src/, node's own
 * internals, idle, GC) and per function. `--last S` keeps only the final S seconds of each
 * profile: with `--only PATH` that is the path under load, without the start-up before it.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function files(target: string): string[] {
  if (statSync(target).isFile()) return [target];
  return readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(target, f));
}

/** The area a frame belongs to: `pkg:hono`, `src/engine`, `node:internal`, `(idle)`, `(gc)`. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg:${pkg[1]}`;
  const own = /\/(src|dist)\/([^/]+)\//.exec(url);
  if (own) return `src/${own[2]}`;
  if (/\/(src|dist)\/[^/]+\.[jt]s$/.test(url)) return 'src/(root)';
  if (url.startsWith('node:')) return 'node:internal';
  return path.basename(url);
}

const { values: options, positionals: targets } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, last: { type: 'string' } },
});
const top = Number(options.top);
const lastUs = options.last === undefined ? Infinity : Number(options.last) * 1e6;
if (targets.length === 0) {
  console.error('usage: npm run bench:profile -- DIR|FILE [--top N] [--last SECONDS]');
  process.exit(2);
}

const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
/** Total (inclusive) time of our own functions: where a request's time goes, callees included. */
const ownInclusive = new Map<string, number>();
const frameName = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
let total = 0;
for (const file of targets.flatMap(files)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const node = nodes.get(id);
    if (!node || at < span - lastUs) return;
    const { functionName, url } = node.callFrame;
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const fn = frameName(node.callFrame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    if (area !== '(idle)') {
      const seen = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parents.get(id)) {
        const frame = nodes.get(id)!.callFrame;
        if (!/\/(src|dist)\//.test(frame.url) || /node_modules/.test(frame.url)) continue;
        const name = frameName(frame);
        if (seen.has(name)) continue;
        seen.add(name);
        ownInclusive.set(name, (ownInclusive.get(name) ?? 0) + us);
      }
    }
    total += us;
  });
}

const busy = total - (byArea.get('(idle)') ?? 0);
const table = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (share of busy time, ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s):`);
  for (const [name, us] of [...map].filter(([n]) => n !== '(idle)' && !n.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
};
table('self time by area', byArea);
table('self time by function', byFunction);
table('total time of our own functions (callees included)', ownInclusive);
