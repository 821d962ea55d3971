import { existsSync } from 'node:fs';
import { type FileHandle, open, readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from './output.js';

/**
 * The journal of a bulk run, next to its output (`OUT.journal`, JSON Lines). It is what makes
 * `--resume` exact. Per chunk of rows:
 *   reserved  the chunk's credit reservation, right after it was taken (released on resume if
 *             the chunk never settled);
 *   chunk     every finished row's result, synced to disk BEFORE the chunk is settled;
 *   settled   after the settle transaction (which also wrote the chunk's receipt) committed.
 * A crash after the settle but before `settled` is written leaves a `chunk` line whose receipt is
 * in the database: its rows count as done and are not billed again. A `chunk` line without a
 * receipt was never paid: its rows run again.
 * A run that wrote every row but some unverified ends with `finished` (the journal stays for
 * `--retry-unverified`, and a fresh run may replace it); a retry appends `reopened` first.
 */
const Reservation = z.object({ id: z.string(), accountId: z.string(), month: z.string(), grant: z.number(), extra: z.number(), total: z.number() });

export const RunMeta = z.object({
  t: z.literal('run'),
  input: z.string(),
  bytes: z.number(),
  rows: z.number(),
  columns: z.array(z.string()),
  mapping: z.union([z.object({ query: z.string(), country: z.string().optional() }), z.object({ components: z.record(z.string(), z.string()) })]),
  country: z.string().nullable(),
  account: z.string(),
  source: z.string(),
});
export type RunMeta = z.infer<typeof RunMeta>;

/** One finished row: its index in the input and its result columns. */
export const JournalRow = z.tuple([z.number().int(), z.array(z.string())]);
export type JournalRow = z.infer<typeof JournalRow>;

const Line = z.discriminatedUnion('t', [
  RunMeta,
  z.object({ t: z.literal('reserved'), id: z.string(), reservation: Reservation }),
  z.object({ t: z.literal('chunk'), id: z.string(), credits: z.number(), rows: z.array(JournalRow) }),
  z.object({ t: z.literal('settled'), id: z.string() }),
  z.object({ t: z.literal('finished') }),
  z.object({ t: z.literal('reopened') }),
]);

export interface JournalState {
  meta: RunMeta;
  reservations: Map<string, z.infer<typeof Reservation>>;
  chunks: Map<string, { credits: number; rows: JournalRow[] }>;
  settled: Set<string>;
  /** Every row was written (some unverified): nothing to resume, only unverified rows to retry. */
  finished: boolean;
}

export const journalPath = (outPath: string) => `${outPath}.journal`;

/** The journal holds customers' results: readable by the service user only, also when it existed. */
async function openPrivate(path: string, flags: 'w' | 'a'): Promise<FileHandle> {
  const file = await open(path, flags, PRIVATE_FILE_MODE);
  await file.chmod(PRIVATE_FILE_MODE);
  return file;
}

export class Journal {
  private constructor(private readonly file: FileHandle) {}

  /** A new journal for a fresh run (replacing a finished one). */
  static async create(path: string, meta: RunMeta): Promise<Journal> {
    const journal = new Journal(await openPrivate(path, 'w'));
    await journal.append(meta, true);
    return journal;
  }

  static async reopen(path: string): Promise<Journal> {
    return new Journal(await openPrivate(path, 'a'));
  }

  /** Reads a journal; a last line cut short by a crash is ignored. */
  static async load(path: string): Promise<JournalState | undefined> {
    if (!existsSync(path)) return undefined;
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    const state: Partial<JournalState> & Omit<JournalState, 'meta'> = { reservations: new Map(), chunks: new Map(), settled: new Set(), finished: false };
    lines.forEach((text, i) => {
      let line: z.infer<typeof Line>;
      try {
        line = Line.parse(JSON.parse(text));
      } catch (error) {
        if (i === lines.length - 1) return;
        throw new Error(`${path} line ${i + 1} is damaged (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): delete it to start over`);
      }
      if (line.t === 'run') state.meta = line;
      else if (line.t === 'reserved') state.reservations.set(line.id, line.reservation);
      else if (line.t === 'chunk') state.chunks.set(line.id, { credits: line.credits, rows: line.rows });
      else if (line.t === 'settled') state.settled.add(line.id);
      else state.finished = line.t === 'finished';
    });
    if (!state.meta) throw new Error(`${path} does not start like a journal of addressd validate: delete it to start over`);
    return state as JournalState;
  }

  static async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  async reserved(id: string, reservation: z.infer<typeof Reservation>): Promise<void> {
    await this.append({ t: 'reserved', id, reservation }, false);
  }

  /** The chunk's results, on disk before its bill is settled. */
  async chunk(id: string, credits: number, rows: JournalRow[]): Promise<void> {
    await this.append({ t: 'chunk', id, credits, rows }, true);
  }

  async settled(id: string): Promise<void> {
    await this.append({ t: 'settled', id }, false);
  }

  /** Every row is written; the unverified ones may be retried. */
  async finished(): Promise<void> {
    await this.append({ t: 'finished' }, true);
  }

  /** A retry of a finished run's unverified rows starts: until it finishes, it is a run to resume. */
  async reopened(): Promise<void> {
    await this.append({ t: 'reopened' }, true);
  }

  async close(): Promise<void> {
    await this.file.close();
  }

  private async append(line: z.infer<typeof Line>, sync: boolean): Promise<void> {
    await this.file.write(`${JSON.stringify(line)}\n`);
    if (sync) await this.file.datasync();
  }
}
