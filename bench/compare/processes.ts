import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts a node process; its stderr goes to ours (a crash must be seen), stdout is piped. */
export function startNode(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** The first stdout line of a child (its readiness or result line). */
export async function firstLine(child: ChildProcess): Promise<string> {
  let buffer = '';
  for await (const chunk of child.stdout!) {
    buffer += String(chunk);
    const end = buffer.indexOf('\n');
    if (end >= 0) return buffer.slice(0, end);
  }
  throw new Error(`process ${child.pid} ended before printing a line`);
}

/** Runs a node process to its end and returns its last stdout line. */
export async function runNode(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = startNode(args, env);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += String(chunk)));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return out.trim().split('\n').at(-1) ?? '';
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** One HTTP request on a connection of its own, so cluster workers take turns receiving them. */
export function fresh(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls until `GET path` answers 200 (start-up includes migrations and, for `local`, opening the index). */
export async function waitReady(url: string, path = '/healthz', timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fresh(url, 'GET', path)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url}${path} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The process and all its descendants (cluster workers), from /proc. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  for (let i = 0; i < pids.length; i += 1) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8').trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** Resident memory of a process tree in MiB (Linux /proc; 0 elsewhere). */
export function treeRssMiB(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      kb += Number(match?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

/** The 1-minute load average: how busy the machine was while a figure was taken. */
export function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) a process tree has used so far (Linux /proc; clock ticks of 10 ms). */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100;
}
