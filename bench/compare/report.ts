import type { ImportFigures } from './deployment.js';
import type { LoadResult } from './load-spec.js';

export interface PathFigures extends LoadResult {
  name: string;
  connections: number;
  /** req/s over the bare framework's (same worker count, same run). */
  ratio: number;
  /** Latency minus the providers' fixed delay, for paths that wait on emulated providers. */
  overheadP50?: number;
  overheadP99?: number;
  rssMiB: number;
  /** The server's CPU time per request (all its processes), in µs. */
  cpuUsPerRequest: number;
  /** 1-minute load average when the path finished: the machine is shared. */
  loadAverage: number;
  /** Items per request (a batch). */
  itemsPerRequest?: number;
}

export interface ConfigFigures {
  name: string;
  storage: string;
  workers: number;
  /** Processes the service ran as (a cluster primary plus its workers). */
  processes: number;
  import?: ImportFigures;
  paths: PathFigures[];
}

export interface BareFigures extends LoadResult {
  when: 'first' | 'last';
  workers: number;
  rssMiB: number;
  cpuUsPerRequest: number;
  loadAverage: number;
}

export interface BenchReport {
  startedAt: string;
  node: string;
  cpus: number;
  runtime: string;
  /** The checkout measured. */
  root: string;
  warmupSeconds: number;
  durationSeconds: number;
  providerDelayMs: number;
  localAddresses: number;
  bare: BareFigures[];
  configs: ConfigFigures[];
}

const ms = (v: number | undefined) => (v === undefined ? '' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

/** The bare framework's req/s for a worker count: the mean of its first and last run. */
export function bareRps(report: Pick<BenchReport, 'bare'>, workers: number): number {
  const runs = report.bare.filter((b) => b.workers === workers);
  return runs.length ? runs.reduce((sum, b) => sum + b.rps, 0) / runs.length : Number.NaN;
}

export function formatBare(b: BareFigures): string {
  return `bare hono + @hono/node-server, POST JSON echo, ${b.workers} process${b.workers > 1 ? 'es' : ''} (${b.when}): ${Math.round(b.rps)} req/s, p50 ${ms(b.p50)} ms, p99 ${ms(b.p99)} ms, CPU ${Math.round(b.cpuUsPerRequest)} µs/req, RSS ${b.rssMiB.toFixed(0)} MiB, load ${b.loadAverage.toFixed(2)}`;
}

export function formatConfig(c: ConfigFigures): string[] {
  const lines = [`\n${c.name}: ${c.storage}, WORKERS=${c.workers} (${c.processes} process${c.processes > 1 ? 'es' : ''})${c.import ? `; local import ${c.import.rows.toLocaleString('en')} addresses in ${c.import.seconds.toFixed(1)} s = ${Math.round(c.import.rate).toLocaleString('en')}/s` : ''}`];
  lines.push(`  ${pad('path', 34)} ${lpad('conns', 5)} ${lpad('req/s', 7)} ${lpad('p50 ms', 7)} ${lpad('p99 ms', 7)} ${lpad('× bare', 7)} ${lpad('CPU µs', 7)} ${lpad('RSS MiB', 7)} ${lpad('load', 5)}  notes`);
  for (const p of c.paths) {
    const notes = [
      p.overheadP50 !== undefined ? `overhead p50 ${ms(p.overheadP50)} / p99 ${ms(p.overheadP99)} ms` : '',
      p.cachedShare > 0 ? `${(p.cachedShare * 100).toFixed(0)}% cached` : '',
      p.itemsPerRequest ? `${Math.round(p.rps * p.itemsPerRequest)} items/s, CPU ${Math.round(p.cpuUsPerRequest / p.itemsPerRequest)} µs/item` : '',
      p.failed > 0 ? `${p.failed} failed ${JSON.stringify(p.statusCodes)}` : '',
    ].filter(Boolean);
    lines.push(
      `  ${pad(p.name, 34)} ${lpad(String(p.connections), 5)} ${lpad(String(Math.round(p.rps)), 7)} ${lpad(ms(p.p50), 7)} ${lpad(ms(p.p99), 7)} ${lpad(`${p.ratio.toFixed(2)}×`, 7)} ${lpad(String(Math.round(p.cpuUsPerRequest)), 7)} ${lpad(p.rssMiB.toFixed(0), 7)} ${lpad(p.loadAverage.toFixed(1), 5)}  ${notes.join('; ')}`,
    );
  }
  return lines;
}
