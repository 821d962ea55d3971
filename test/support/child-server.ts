import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { LogLine } from './log-capture.js';

/**
 * `src/main.ts` in a child process (what `npm start` runs, under tsx), its JSON log lines parsed;
 * for start-up failures too (exit code, stderr), where no `listening` line ever comes.
 */
export interface ChildService {
  child: ChildProcessByStdio<null, Readable, Readable>;
  lines: LogLine[];
  stderr(): string;
  /** Resolves with the first log line `match` accepts (already logged or still to come). */
  line(match: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  /** The port from the `listening` line. */
  port(): Promise<number>;
  exited: Promise<number | null>;
  /** SIGKILL if still running (teardown). */
  kill(): void;
}

/**
 * `compiled`: run the built server (what `npm start` runs after `npm run build`: `dist/main.js`, or
 * `main.js` of the build directory given) instead of the sources under tsx.
 */
export function startChildService(env: Record<string, string>, options: { compiled?: boolean | string } = {}): ChildService {
  const compiled = options.compiled === true ? 'dist' : options.compiled;
  const child = spawn(process.execPath, compiled ? [path.join(compiled, 'main.js')] : ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const complete = stdout.split('\n');
    stdout = complete.pop() ?? '';
    for (const text of complete) if (text.trim()) lines.push(JSON.parse(text) as LogLine);
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': every byte of stdout and stderr has arrived by then.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  void exited.then(() => {
    for (const wake of waiters) wake();
  });

  const line = (match: (line: LogLine) => boolean, what: string) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (child.exitCode !== null) {
          waiters.delete(check);
          reject(new Error(`exited with ${child.exitCode} before logging ${what}; stderr: ${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });

  return {
    child,
    lines,
    stderr: () => stderr,
    line,
    port: async () => (await line((l) => l.msg.startsWith('listening'), 'listening')).port as number,
    exited,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** A started server a test can kill -9: resolves once it listens. */
export interface ChildServer {
  url: string;
  child: ChildService['child'];
  /** Every JSON log line so far. */
  logs: LogLine[];
  /** Sends the signal and waits for the process to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const service = startChildService({ LOG_LEVEL: 'info', ...env });
  const port = await service.port();
  return {
    url: `http://127.0.0.1:${port}`,
    child: service.child,
    logs: service.lines,
    async kill(signal) {
      if (service.child.exitCode !== null || service.child.signalCode !== null) return;
      service.child.kill(signal);
      await service.exited;
    },
  };
}
