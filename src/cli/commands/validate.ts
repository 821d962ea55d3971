import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { BulkLedger } from '../../billing/bulk-ledger.js';
import { createLogger } from '../../lib/logger.js';
import { createServices } from '../../services.js';
import { BulkInputError, inspectInput } from '../bulk/input.js';
import { Journal, journalPath, type RunMeta } from '../bulk/journal.js';
import { lockOutput } from '../bulk/lock.js';
import { type ColumnMapping, type ComponentKey, parseColumnsArg, resolveMapping } from '../bulk/mapping.js';
import { OutputWriter, type ResultFields } from '../bulk/output.js';
import { rowProgress } from '../bulk/progress.js';
import { type BulkSummary, recoverJournal, runBulk } from '../bulk/run.js';
import type { CliContext } from '../context.js';
import { intArg } from '../parse-args.js';
import { describeStore } from '../store-info.js';

interface ValidateFlags {
  account: string;
  out?: string;
  queryColumn?: string;
  columns?: Partial<Record<ComponentKey, string>>;
  country?: string;
  source: string;
  concurrency: number;
  chunk: number;
  resume?: boolean;
}

function countryArg(value: string): string {
  if (!/^[A-Za-z]{2}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not an ISO 3166-1 alpha-2 country code`);
  return value.toUpperCase();
}

/** FILE.csv → FILE.validated.csv next to it (JSON Lines stay JSON Lines). */
function defaultOut(file: string, format: 'csv' | 'jsonl'): string {
  const ext = path.extname(file);
  return path.join(path.dirname(file), `${path.basename(file, ext)}.validated.${format === 'jsonl' ? 'jsonl' : 'csv'}`);
}

const EXIT_INTERRUPTED = 130;

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
    .option('--columns <map>', 'component columns, e.g. street=Street,houseNumber=No,postcode=Zip,city=Town (also state, country)', parseColumnsArg)
    .option('--country <cc>', 'ISO country of every row (bias and filter, as the API`s `country`)', countryArg)
    .option('--source <tag>', 'usage tag of the look-ups', 'cli')
    .option('--concurrency <n>', 'rows looked up at once', intArg(1, 64), 8)
    .option('--chunk <rows>', 'rows billed together (one reservation and one transaction per chunk)', intArg(1, 10_000), 256)
    .option('--resume', 'continue an interrupted run into the same output; rows already done are not billed again')
    .action(async (file: string, flags: ValidateFlags) => {
      if (flags.queryColumn && flags.columns) throw new InvalidArgumentError('give --query-column or --columns, not both');
      if (flags.source.length < 1 || flags.source.length > 64) throw new InvalidArgumentError('--source must have 1 to 64 characters');
      const input = await inspectInput(file);
      const given: ColumnMapping | undefined = flags.queryColumn ? { query: flags.queryColumn } : flags.columns ? { components: flags.columns } : undefined;
      const mapping = resolveMapping(input.columns, file, given);
      const out = path.resolve(flags.out ?? defaultOut(file, input.format));
      if (out === path.resolve(file)) throw new BulkInputError('--out must not be the input file');
      const outFormat = /\.(jsonl|ndjson)$/i.test(out) ? 'jsonl' : 'csv';
      const meta: RunMeta = {
        t: 'run',
        input: path.resolve(file),
        bytes: input.bytes,
        rows: input.rows,
        columns: input.columns,
        mapping: 'query' in mapping ? mapping : { components: Object.fromEntries(Object.entries(mapping.components).filter((e): e is [string, string] => e[1] !== undefined)) },
        country: flags.country ?? null,
        account: flags.account,
        source: flags.source,
      };

      const unlock = lockOutput(out);
      try {
        const journalFile = journalPath(out);
        const earlier = await Journal.load(journalFile);
        if (flags.resume && !earlier) throw new BulkInputError(`nothing to resume: no journal ${journalFile} (a finished run removes it)`);
        if (!flags.resume && earlier) {
          throw new BulkInputError(`${journalFile} holds an interrupted run: add --resume to continue it (done rows are not billed again), or delete it to start over`);
        }
        if (earlier && JSON.stringify(earlier.meta) !== JSON.stringify(meta)) {
          throw new BulkInputError(`${journalFile} belongs to another run (the input, account, columns, country or source differ): run that command again with --resume, or delete the journal`);
        }
        ctx.note(`store: ${describeStore(ctx.config)}`);
        // Its own INSTANCE_ID: a server on this machine has the same default one, and starting
        // would release that server's reservations as this process's predecessor's.
        const instanceId = `${ctx.config.INSTANCE_ID}/validate-${process.pid}`;
        const services = await createServices({ ...ctx.config, INSTANCE_ID: instanceId }, { logger: createLogger('silent') });
        try {
          const account = await services.accounts.get(flags.account);
          const ledger = new BulkLedger(services.database, services.clock, { owner: instanceId });
          const done = earlier ? await recoverJournal(ledger, earlier) : new Map<number, ResultFields>();
          const journal = earlier ? await Journal.reopen(journalFile) : await Journal.create(journalFile, meta);
          const output = new OutputWriter(out, outFormat, input.delimiter, input.columns);
          const progress = rowProgress(input.rows, done.size);
          const stop = { requested: false };
          const onInterrupt = () => {
            if (stop.requested) process.exit(EXIT_INTERRUPTED);
            stop.requested = true;
            ctx.note('\nstopping: finishing the rows in flight (Ctrl-C again quits at once; --resume continues either way)');
          };
          process.on('SIGINT', onInterrupt);
          let summary: BulkSummary;
          try {
            summary = await runBulk(
              {
                runner: services.runner,
                cache: services.cache,
                cacheTtlMs: services.config.VALIDATE_CACHE_TTL_MS,
                ledger,
                clock: services.clock,
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
                onRow: () => progress.tick(),
              },
            );
          } finally {
            process.off('SIGINT', onInterrupt);
            progress.stop();
            await output.close();
            await journal.close();
          }
          if (summary.outcome === 'complete') await Journal.remove(journalFile);
          else ctx.exitCode = summary.outcome === 'interrupted' ? EXIT_INTERRUPTED : 1;
          ctx.out({ ...summary, out, journal: summary.outcome === 'complete' ? null : journalFile }, summaryLines(summary, out, journalFile));
        } finally {
          await services.close();
        }
      } finally {
        unlock();
      }
    });
}

function summaryLines(s: BulkSummary, out: string, journal: string): string[] {
  const lines = [
    `${s.done} of ${s.rows} rows → ${out}`,
    `  valid ${s.valid}, correctable ${s.correctable}, invalid ${s.invalid}, no address ${s.skipped}; ${s.creditsThisRun} credits spent by this run`,
  ];
  const at = s.stoppedAtRow !== undefined ? ` at row ${s.stoppedAtRow + 1}` : '';
  if (s.outcome === 'interrupted') lines.push(`  interrupted${at}: run the same command with --resume to continue (${journal})`);
  if (s.outcome === 'credits-exhausted') lines.push(`  credits ran out${at}: add credits (addressd credits add), then run the same command with --resume`);
  return lines;
}
