import { appendFileSync } from 'node:fs';
import type { LogLine } from '../../test/support/log-capture.js';
import { type ChildService, startChildService } from '../../test/support/child-server.js';
import { freePort } from '../compare/processes.js';
import type { Target } from './traffic.js';

/** pino's level numbers: what the soak keeps of an instance's log. */
const WARN = 40;
const ERROR = 50;

/**
 * One addressd server process (`dist/main.js`, as `npm start` runs it) on a fixed port, so the
 * traffic's URL stays valid across `kill -9` and restart (same INSTANCE_ID: the restart releases
 * what the killed process held). Its warn and error lines go to `logFile`; info lines (one per
 * request) are dropped as they come, so ten minutes of traffic never pile up in memory.
 */
export interface Instance extends Target {
  start(): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Error-level lines logged so far (unhandled errors: what a 500 was). */
  errors: LogLine[];
  /** How long the last start took from the spawn to `listening`. */
  startMs(): number;
}

export async function createInstance(name: string, store: Target['store'], env: Record<string, string>, logFile: string): Promise<Instance> {
  const port = await freePort();
  let service: ChildService | undefined;
  const errors: LogLine[] = [];
  let startMs = 0;
  const keep = (line: LogLine) => {
    appendFileSync(logFile, `${JSON.stringify({ instance: name, ...line })}\n`);
    if (line.level >= ERROR) errors.push(line);
  };
  return {
    name,
    store,
    url: `http://127.0.0.1:${port}`,
    errors,
    startMs: () => startMs,
    async start() {
      const spawned = performance.now();
      // The compiled service (`npm start`), as production restarts it; the soak builds it first.
      const started = startChildService({ LOG_LEVEL: 'info', ...env, PORT: String(port), INSTANCE_ID: `soak-${name}` }, { compiled: true });
      service = started;
      // Info lines are read only to see `listening`; after that only warnings and errors are kept.
      await started.port();
      startMs = performance.now() - spawned;
      const sift = () => {
        const lines = started.lines.splice(0);
        for (const line of lines) if (line.level >= WARN) keep(line);
      };
      sift();
      started.child.stdout.on('data', sift);
      void started.exited.then(() => {
        sift();
        if (started.stderr()) appendFileSync(logFile, `${name} stderr: ${started.stderr()}\n`);
      });
    },
    async kill(signal) {
      const running = service;
      if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
      running.child.kill(signal);
      await running.exited;
    },
  };
}
