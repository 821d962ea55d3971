import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/** `npm start` (src/main.ts under tsx) as a real child process a test can kill -9. */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: { msg: string; [field: string]: unknown }[];
  /** Sends the signal and waits for the process to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: ChildServer['logs'] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const parsed = JSON.parse(line) as ChildServer['logs'][number];
        logs.push(parsed);
        if (parsed.msg.startsWith('listening')) resolve(parsed.port as number);
      }
    });
    child.on('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before listening: ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    logs,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
