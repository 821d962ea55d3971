import { availableParallelism, constants } from 'node:os';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { BulkInputError, inspectInput } from '../bulk/input.js';
import { Journal, journalPath, type RunMeta } from '../bulk/journal.js';
import { lockOutput } from '../bulk/lock.js';
import { type ColumnMapping, type ComponentKey, parseColumnsArg, resolveMapping } from '../bulk/mapping.js';
import { OutputWriter, type ResultFields } from '../bulk/output.js';
import type { SpawnedPool } from '../bulk/lookup-pool.js';
import type { BulkSummary } from '../bulk/run.js';
import { refuseInputAsTarget } from '../bulk/same-file.js';
import { isCountryCode } from '../../address/countries.js';
import type { CliContext } from '../context.js';
import { intArg } from '../parse-args.js';
import { describeStore } from '../store-info.js';

interface ValidateFlags {
  account: string;
  out?: string;
  queryColumn?: string;
  countryColumn?: string;
  columns?: Partial<Record<ComponentKey, string>>;
  country?: string;
  source: string;
  concurrency: number;
  chunk: number;
  resume?: boolean;
  retryUnverified?: boolean;
  rawCells?: boolean;
  workers?: number;
}

function countryArg(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not an ISO 3166-1 alpha-2 country code`);
  if (!isCountryCode(value)) throw new InvalidArgumentError(`unknown country "${value}" (an ISO 3166-1 alpha-2 code such as NL)`);
  return value.toUpperCase();
}

/** FILE.csv → FILE.validated.csv next to it (JSON Lines stay JSON Lines). */
function defaultOut(file: string, format: 'csv' | 'jsonl'): string {
  const ext = path.extname(file);
  return path.join(path.dirname(file), `${path.basename(file, ext)}.validated.${format === 'jsonl' ? 'jsonl' : 'csv'}`);
}

/**
 * The signals that stop a run cleanly (rows in flight finish, are billed and written): Ctrl-C, a
 * closed terminal, `kill`/systemd/docker stop. Each exits 128 + its number, as the shell reports
 * a process the signal ended (130, 129, 143).
 */
const STOP_SIGNALS = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;
const exitCodeOf = (signal: (typeof STOP_SIGNALS)[number]) => 128 + constants.signals[signal];

/**
 * Below this many rows lookup threads cost more to start than they save: each loads the engine's
 * modules (through tsx when run from source: a fifth of all CPU of a 5,000-row run) and opens its
 * index and providers.
 */
const THREADED_FROM_ROWS = 20_000;

/** Rows a lookup thread takes at a time of a chunk the threads share (BulkDeps.shareRows). */
const SHARED_ROWS = 8;

/** Lookup threads: as given, else one per core for a list big enough to pay for them. */
function workerCount(given: number | undefined, rows: number): number {
  if (given !== undefined) return given;
  return rows >= THREADED_FROM_ROWS ? Math.min(availableParallelism(), 8) : 0;
}

/** Lookup threads started loading (none for 0). */
async function spawnPool(count: number): Promise<SpawnedPool | undefined> {
  if (count === 0) return undefined;
  const { LookupPool } = await import('../bulk/lookup-pool.js');
  return LookupPool.spawn(count);
}

/**
 * `validate FILE --account ID [--out OUT] [--query-column NAME | --columns street=…,…] [--country CC]
 * [--concurrency N] [--resume]`: every row through the API's engine and billing, into a new file.
 */
export function registerValidateCommand(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('validate every address of a CSV or JSON Lines file with the same engine and billing as the API, into a new file')
    .argument('<file>', 'CSV (delimiter , ; tab or |, with a header row) or JSON Lines')
    .requiredOption('--account <id>', 'account billed for the look-ups')
    .option('--out <file>', 'output file (default FILE.validated.csv next to the input; .jsonl writes JSON Lines)')
    .option('--query-column <name>', 'column holding the whole address as free text')
    .option('--country-column <name>', 'with --query-column: the column holding each row\'s country (found by name when not given: country, countrycode, land)')
    .option('--columns <map>', 'component columns, e.g. street=Street,houseNumber=No,postcode=Zip,city=Town (also state, country)', parseColumnsArg)
    .option('--country <cc>', "ISO country of the rows without one of their own (bias and filter, as the API's country)", countryArg)
    .option('--source <tag>', 'usage tag of the look-ups', 'cli')
    .option('--concurrency <n>', 'rows looked up at once', intArg(1, 64), 8)
    .option('--chunk <rows>', 'rows billed together (one reservation and one transaction per chunk)', intArg(1, 10_000), 256)
    .option('--resume', 'continue an interrupted run into the same output; rows already done are not billed again, unverified rows are looked up again')
    .option('--retry-unverified', 'after a run that finished with unverified rows: look up only those rows again (billed as usual) and rewrite them in place in the output')
    .option('--raw-cells', 'write CSV cells as they are: without it a cell beginning with = + - @ tab or CR gets a leading \' so spreadsheets never run it as a formula (OWASP CSV injection; our own lat/lng numbers stay numbers)')
    .option('--workers <n>', `lookup threads beside the one that reads, bills and writes (default: one per core from ${THREADED_FROM_ROWS} rows, else 0)`, intArg(0, 32))
    .action(async (file: string, flags: ValidateFlags) => {
      if (flags.queryColumn && flags.columns) throw new InvalidArgumentError('give --query-column or --columns, not both');
      if (flags.source.length < 1 || flags.source.length > 64) throw new InvalidArgumentError('--source must have 1 to 64 characters');
      const input = await inspectInput(file);
      const given: ColumnMapping | undefined = flags.queryColumn
        ? { query: flags.queryColumn, ...(flags.countryColumn ? { country: flags.countryColumn } : {}) }
        : flags.columns
          ? { components: flags.columns }
          : undefined;
      if (flags.countryColumn && !flags.queryColumn) throw new InvalidArgumentError('--country-column goes with --query-column (with --columns, map country=COLUMN)');
      const mapping = resolveMapping(input.columns, file, given);
      const out = path.resolve(flags.out ?? defaultOut(file, input.format));
      if (out === path.resolve(file)) throw new BulkInputError('--out must not be the input file');
      // By identity, before anything is opened for writing: a link to the input is the input.
      refuseInputAsTarget(file, [out, journalPath(out), `${out}.lock`]);
      if (flags.resume && flags.retryUnverified) throw new InvalidArgumentError('give --resume or --retry-unverified, not both');
      const outFormat = /\.(jsonl|ndjson)$/i.test(out) ? 'jsonl' : 'csv';
      const meta: RunMeta = {
        t: 'run',
        input: path.resolve(file),
        bytes: input.bytes,
        rows: input.rows,
        columns: input.columns,
        mapping: 'query' in mapping ? { query: mapping.query, ...(mapping.country ? { country: mapping.country } : {}) } : { components: Object.fromEntries(Object.entries(mapping.components).filter((e): e is [string, string] => e[1] !== undefined)) },
        country: flags.country ?? null,
        account: flags.account,
        source: flags.source,
      };

      const unlock = lockOutput(out);
      try {
        const journalFile = journalPath(out);
        const found = await Journal.load(journalFile);
        if (flags.resume && !found) throw new BulkInputError(`nothing to resume: no journal ${journalFile} (a finished run removes it)`);
        if (flags.resume && found?.finished) {
          throw new BulkInputError(`nothing to resume: the run of ${journalFile} finished; --retry-unverified looks its unverified rows up again`);
        }
        if (flags.retryUnverified && !found) {
          throw new BulkInputError(`nothing to retry: no journal ${journalFile} (a run whose every row was verified removes it)`);
        }
        if (flags.retryUnverified && !found?.finished) {
          throw new BulkInputError(`${journalFile} holds an interrupted run: --resume continues it (and looks its unverified rows up again)`);
        }
        // A finished run's journal never blocks a fresh run: the fresh run replaces it.
        if (!flags.resume && !flags.retryUnverified && found && !found.finished) {
          throw new BulkInputError(`${journalFile} holds an interrupted run: add --resume to continue it (done rows are not billed again), or delete it to start over`);
        }
        const earlier = flags.resume || flags.retryUnverified ? found : undefined;
        if (earlier && JSON.stringify(earlier.meta) !== JSON.stringify(meta)) {
          throw new BulkInputError(`${journalFile} belongs to another run (the input, account, columns, country or source differ): run that command again with --resume, or delete the journal`);
        }
        ctx.note(`store: ${describeStore(ctx.config)}`);
        // A fresh run's lookup threads load their modules now, while this thread loads the engine
        // and opens the database and the account (a resumed run knows its rows left only then).
        const spawning = earlier ? Promise.resolve(undefined) : spawnPool(workerCount(flags.workers, input.rows));
        spawning.catch(() => undefined);
        let handedOver = false;
        try {
          // The engine and its providers load here, not at start: every other command stays quick.
          const [{ createServices }, { createLogger }, { BulkLedger }, { recoverJournal, runBulk }, { rowProgress }, { LookupPool }, { RunResponseCache }, { localPrimer }] = await Promise.all([
            import('../../services.js'),
            import('../../lib/logger.js'),
            import('../../billing/bulk-ledger.js'),
            import('../bulk/run.js'),
            import('../bulk/progress.js'),
            import('../bulk/lookup-pool.js'),
            import('../../store/cache/run-cache.js'),
            import('../bulk/prime.js'),
          ]);
          // Its own INSTANCE_ID: a server on this machine has the same default one, and starting
          // would release that server's reservations as this process's predecessor's.
          const instanceId = `${ctx.config.INSTANCE_ID}/validate-${process.pid}`;
          const services = await createServices({ ...ctx.config, INSTANCE_ID: instanceId }, { logger: createLogger('silent') });
          try {
            const account = await services.accounts.get(flags.account);
            const ledger = new BulkLedger(services.database, services.clock, { owner: instanceId });
            const done = earlier ? await recoverJournal(ledger, earlier) : new Map<number, ResultFields>();
            const journal = earlier ? await Journal.reopen(journalFile) : await Journal.create(journalFile, meta);
            if (earlier?.finished) await journal.reopened();
            const threads = workerCount(flags.workers, input.rows - done.size);
            const spawned = earlier ? (threads > 0 ? await LookupPool.spawn(threads) : undefined) : await spawning;
            // From here the threads are the pool's (open ends them itself when it fails).
            handedOver = true;
            const pool = await spawned?.open({
              // The threads' own handles: the same configuration as this process (its INSTANCE_ID included).
              config: services.config,
              caller: { accountId: account.id, source: flags.source, thresholds: account.thresholds },
              concurrency: flags.concurrency,
            });
            const output = new OutputWriter(out, outFormat, input.delimiter, input.columns, { rawCells: flags.rawCells === true });
            const progress = rowProgress(input.rows, done.size);
            const stop = { requested: false };
            let stoppedBy: (typeof STOP_SIGNALS)[number] = 'SIGINT';
            // Node passes the signal's name; a caller of the handler itself may not.
            const onStop = (signal: (typeof STOP_SIGNALS)[number] = 'SIGINT') => {
              if (stop.requested) process.exit(exitCodeOf(stoppedBy));
              stoppedBy = signal;
              stop.requested = true;
              pool?.stop();
              // The bar steps aside first: drawn again after the note it would overwrite it.
              progress.stop();
              ctx.note(`stopping: finishing the rows in flight (${signal}; a second signal quits at once; --resume continues either way)`);
            };
            for (const signal of STOP_SIGNALS) process.on(signal, onStop);
            let summary: BulkSummary;
            try {
              summary = await runBulk(
                {
                  runner: services.runner,
                  // Without Redis the service's cache is this process's alone: one that writes answers as JSON only when read.
                  cache: services.config.REDIS_URL ? services.cache : new RunResponseCache(services.clock),
                  cacheTtlMs: services.config.VALIDATE_CACHE_TTL_MS,
                  prime: services.localIndex && localPrimer(services.localIndex),
                  ledger,
                  clock: services.clock,
                  pool,
                  // `local` on SQLite alone: a row is CPU in the thread, a few rows at a time keep the threads even.
                  shareRows: services.localIndex?.backend === 'sqlite' && services.config.PROVIDERS.every((p) => p === 'local') ? SHARED_ROWS : undefined,
                  renewEveryMs: Math.floor(services.config.RESERVATION_MAX_AGE_MS / 3),
                },
                {
                  input,
                  mapping,
                  ...(flags.country ? { country: flags.country } : {}),
                  account,
                  source: flags.source,
                  concurrency: flags.concurrency,
                  chunkRows: flags.chunk,
                  journal,
                  done,
                  output,
                  stop,
                  onRow: (rows) => progress.update(rows),
                },
              );
              // Every row written, some unverified: finished (exit 0), and the journal stays for --retry-unverified.
              if (summary.outcome === 'complete' && summary.unverified > 0) await journal.finished();
            } finally {
              for (const signal of STOP_SIGNALS) process.off(signal, onStop);
              progress.stop();
              await pool?.close();
              await output.close();
              await journal.close();
            }
            // Unverified rows keep the (finished) journal: --retry-unverified looks them up again.
            const complete = summary.outcome === 'complete';
            const verified = complete && summary.unverified === 0;
            if (verified) await Journal.remove(journalFile);
            else if (!complete) ctx.exitCode = summary.outcome === 'interrupted' ? exitCodeOf(stoppedBy) : 1;
            ctx.out({ ...summary, out, journal: verified ? null : journalFile }, summaryLines(summary, out, journalFile));
          } finally {
            await services.close();
          }
        } finally {
          // The run stopped before its threads were opened (no such account, a database error).
          if (!handedOver) await (await spawning.catch(() => undefined))?.terminate();
        }
      } finally {
        unlock();
      }
    });
}

function summaryLines(s: BulkSummary, out: string, journal: string): string[] {
  const notLookedUp = [`no address ${s.noAddress}`, ...(s.unknownCountry > 0 ? [`unknown country ${s.unknownCountry}`] : []), ...(s.badField > 0 ? [`unreadable field ${s.badField}`] : [])];
  const lines = [
    `${s.done} of ${s.rows} rows → ${out}`,
    `  valid ${s.valid}, correctable ${s.correctable}, invalid ${s.invalid}, not verified ${s.unverified}, ${notLookedUp.join(', ')}; ${s.creditsThisRun} credits spent by this run` +
      (s.repeats > 0 ? ` (${s.repeats} repeated rows answered as cache hits)` : ''),
  ];
  const at = s.stoppedAtRow !== undefined ? ` at row ${s.stoppedAtRow + 1}` : '';
  if (s.outcome === 'interrupted') lines.push(`  interrupted${at}: run the same command with --resume to continue (${journal})`);
  if (s.held > 0) lines.push(`  ${s.held} later rows are done and kept in the journal: --resume writes them without billing them again`);
  if (s.outcome === 'complete' && s.unverified > 0) {
    lines.push(
      `  finished; ${s.unverified} rows not verified (no provider answered; column verified=no, 0 credits): run the same command with --retry-unverified to look only those up again (billed as usual; rewritten in place in ${out})`,
    );
  } else if (s.unverified > 0) {
    lines.push(`  ${s.unverified} rows not verified (no provider answered; column verified=no, 0 credits): --resume looks them up again`);
  }
  if (s.outcome === 'credits-exhausted') lines.push(`  credits ran out${at}: add credits (addressd credits add), then run the same command with --resume`);
  return lines;
}
