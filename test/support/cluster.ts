import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

/** `node src/main.ts` with WORKERS=2 on a free port; resolves once the primary says every worker listens. */
export async function startCluster(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, ...env, WORKERS: '2', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let port = 0;
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { msg?: string; port?: number };
    // Each worker reports its port (with PORT=0 the cluster shares the one the first one got).
    if (entry.port && entry.msg?.startsWith('listening')) port = entry.port;
    if (entry.msg === '2 workers listening') break;
  }
  child.stdout!.resume();
  return { url: `http://127.0.0.1:${port}`, child };
}

export async function stopCluster(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

