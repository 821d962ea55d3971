import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { SQLITE_INDEX_FILE } from '../src/local-index/store/sqlite-store.js';

/**
 * `addressd import …` in a child process (the CLI under tsx, as an operator runs it) beside a
 * process that serves the index, and a probe that tells whether it holds its transaction:
 * for bench:reimport and the re-import tests (test/local-index/reimport-serving.test.ts).
 */
export interface ImportChild {
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
}

export function startImportChild(env: Record<string, string>, args: string[]): ImportChild {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close', not 'exit': every byte of output has arrived by then.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Whether an import holds the index's write transaction right now. SQLite: the file's write
 * lock (BEGIN IMMEDIATE fails at once); PostgreSQL: the import counter's row, which an import
 * locks first and keeps until it commits.
 */
export interface ImportProbe {
  active(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openImportProbe(where: { dataDir: string; databaseUrl?: string | undefined }): Promise<ImportProbe> {
  if (!where.databaseUrl) {
    const db = new Database(join(where.dataDir, SQLITE_INDEX_FILE), { timeout: 0 });
    return {
      async active() {
        try {
          db.exec('BEGIN IMMEDIATE');
          db.exec('ROLLBACK');
          return false;
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
          throw err;
        }
      },
      async close() {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: where.databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  return {
    async active() {
      try {
        await client.query('BEGIN');
        await client.query("SELECT 1 FROM local_meta WHERE key = 'import_seq' FOR UPDATE NOWAIT");
        return false;
      } catch (err) {
        if ((err as { code?: string }).code === '55P03') return true;
        throw err;
      } finally {
        await client.query('ROLLBACK');
      }
    },
    close: () => client.end(),
  };
}
