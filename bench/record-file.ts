import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The saved records of `bench:scale` and `bench:list` (`--save FILE`, read back by `--compare
 * FILE`): JSON, one per run, stamped with the commit measured.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

export function headCommit(): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
}

export function readRecord<T>(path: string | undefined): T | undefined {
  return path ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

export function saveRecord(path: string | undefined, record: unknown): void {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(record, null, 1)}\n`);
}
