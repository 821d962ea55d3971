import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/store/db/database.js';
import { type CheckpointResult, FALLBACK_PAGES, WalCheckpointer } from '../../src/store/db/wal-checkpointer.js';

/**
 * The SQLite main store's checkpoints run on their own thread: the serving connection's commits
 * never copy the log into the database file (and never wait for its fsyncs), however many pages
 * they write; the thread does, on its own or when asked; a thread gone leaves the serving
 * connection's fallback checkpoint in charge.
 */
const dirs: string[] = [];
const open: Database[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openStore(checkpointIntervalMs: number, extra: { onCheckpoint?: (r: CheckpointResult) => void } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-wal-'));
  dirs.push(dataDir);
  const database = await openDatabase({ dataDir, checkpointIntervalMs, ...extra });
  open.push(database);
  await sql`create table filler (id integer primary key, body text not null)`.execute(database.db);
  return { database, file: path.join(dataDir, 'addressd.sqlite') };
}

/** `commits` commits of about 2 pages each (a 6 KB row), the way usage rows arrive: one at a time. */
async function write(database: Database, commits: number): Promise<void> {
  const body = 'x'.repeat(6000);
  for (let i = 0; i < commits; i += 1) await sql`insert into filler (body) values (${body})`.execute(database.db);
}

const walPages = (file: string) => Math.round((statSync(`${file}-wal`).size - 32) / (4096 + 24));

describe('SQLite checkpoints off the serving thread', () => {
  it('leaves every page of its commits to the checkpoint thread, which copies them when asked', async () => {
    const { database } = await openStore(0);
    // Past SQLite's own automatic checkpoint (1,000 pages), which would have run inside a commit.
    await write(database, 1500);
    const first = await database.checkpoint!();
    expect(first.log).toBeGreaterThan(2000);
    expect(first.checkpointed).toBe(first.log);
    // The log starts over at the next commit: what was copied is never copied again.
    await write(database, 1);
    const again = await database.checkpoint!();
    expect(again.log).toBeLessThan(10);
  });

  it('checkpoints on its own, every interval', async () => {
    let previous: CheckpointResult | undefined;
    let caughtUp: (r: CheckpointResult) => void = () => undefined;
    const done = new Promise<CheckpointResult>((resolve) => (caughtUp = resolve));
    const { database } = await openStore(20, {
      // Two runs in a row that find the same log, all of it copied: no commit came between them,
      // so the second started after the last one (the runs' messages may arrive late, in a batch).
      onCheckpoint: (r) => {
        if (r.log > 0 && r.checkpointed === r.log && previous?.log === r.log) caughtUp(r);
        previous = r;
      },
    });
    await write(database, 1500);
    // Nobody asked: the thread's own runs copied the log (1,500 commits of 2 pages or more)…
    expect((await done).log).toBeGreaterThan(3000);
    // …so it restarts at the next commit.
    await write(database, 1);
    expect((await database.checkpoint!()).log).toBeLessThan(10);
  });

  it('keeps what was written across a close and a reopen', async () => {
    const { database, file } = await openStore(0);
    await write(database, 300);
    await database.close();
    open.splice(open.indexOf(database), 1);
    const reader = new SQLite(file, { readonly: true });
    try {
      expect(reader.prepare('select count(*) as n from filler').get()).toEqual({ n: 300 });
    } finally {
      reader.close();
    }
  });

  it('bounds the log from the serving connection when the thread does not keep up', async () => {
    // The thread never runs on its own here: SQLite's own checkpoint at FALLBACK_PAGES takes over.
    const { database, file } = await openStore(0);
    await write(database, Math.ceil(FALLBACK_PAGES / 2) + 1000);
    expect(walPages(file)).toBeLessThanOrEqual(FALLBACK_PAGES + 10);
    expect((await database.checkpoint!()).log).toBeLessThan(FALLBACK_PAGES);
  });

  it('lets a script that closes it last exit normally (the CLI does)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'addressd-wal-'));
    dirs.push(dataDir);
    const script = path.join(dataDir, 'open-close.mts');
    writeFileSync(
      script,
      [
        `import { openDatabase } from ${JSON.stringify(path.resolve('src/store/db/database.ts'))};`,
        `const database = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });`,
        'await database.close();',
        "process.stdout.write('closed');",
      ].join('\n'),
    );
    // Exit code 13 would be an await left unsettled: the process ended under it.
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect([run.status, run.stdout]).toEqual([0, 'closed']);
  });

  it('says a thread that cannot run to the operator', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'addressd-wal-'));
    dirs.push(dir);
    const failed = new Promise<Error>((resolve) => {
      const checkpointer = WalCheckpointer.start(path.join(dir, 'gone.sqlite'), { onError: resolve });
      void checkpointer.now().catch(() => undefined);
    });
    expect((await failed).message).toMatch(/checkpoint thread stopped/);
  });
});
