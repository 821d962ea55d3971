import { existsSync, readFileSync } from 'node:fs';
import type { Books, Read } from './books.js';
import { runCli } from './setup.js';

/** What the list runs said: each attempt's outcome and credits, and the output file. */
export interface ListRun {
  attempts: { outcome: string; credits: number | undefined; exit: number | null }[];
  out: string;
  rows: number;
}

export const LIST_SOURCE = 'soak-list';

/**
 * `addressd validate` over a customer list while the faults strike, as an operator runs it: an
 * attempt cut short by a fault is continued with `--resume` (bounded), which must bill no row twice.
 */
export async function runList(file: string, out: string, rows: number, accountId: string, env: Record<string, string>, log: (line: string) => void): Promise<ListRun> {
  const run: ListRun = { attempts: [], out, rows };
  for (let attempt = 0; attempt < 5; attempt++) {
    const args = ['validate', file, '--account', accountId, '--out', out, '--query-column', 'address', '--country-column', 'country', '--source', LIST_SOURCE];
    // An attempt that stopped before its journal existed (it could not start: Redis or PostgreSQL
    // away at that moment) left nothing to resume: the operator runs it again from the start.
    const resume = attempt > 0 && existsSync(`${out}.journal`);
    const ran = await runCli(resume ? [...args, '--resume'] : args, env, 600_000);
    const outcome = typeof ran.json?.outcome === 'string' ? ran.json.outcome : `failed: ${ran.stderr.trim().split('\n').pop() ?? ''}`;
    const credits = typeof ran.json?.creditsThisRun === 'number' ? ran.json.creditsThisRun : undefined;
    run.attempts.push({ outcome, credits, exit: ran.code });
    log(`list ${resume ? '--resume' : attempt === 0 ? 'run' : 'run again'}: ${outcome}${credits !== undefined ? `, ${credits} credits` : ''} in ${(ran.ms / 1000).toFixed(1)} s`);
    if (outcome === 'complete') break;
  }
  return run;
}

/** The list's output holds every row once, and its rows were billed once each: events = rows, credits = what the runs said. */
export async function checkList(read: Read, run: ListRun): Promise<Books> {
  // No output at all (every attempt failed to start) is a failed list, not a crash of the books.
  const written = existsSync(run.out) ? readFileSync(run.out, 'utf8').split('\n').filter(Boolean).length - 1 : 0;
  const [billed] = await read<{ n: number; credits: number | null }>(`SELECT count(*) AS n, sum(credits) AS credits FROM usage_events WHERE source = '${LIST_SOURCE}'`);
  const said = run.attempts.every((a) => a.credits !== undefined) ? run.attempts.reduce((sum, a) => sum + (a.credits ?? 0), 0) : undefined;
  const complete = run.attempts.at(-1)?.outcome === 'complete';
  const ok = complete && written === run.rows && Number(billed?.n) === run.rows && (said === undefined || said === Number(billed?.credits ?? 0));
  return {
    ok,
    lines: [
      `${ok ? 'ok  ' : 'FAIL'} list: ${run.attempts.length} run(s), last ${run.attempts.at(-1)?.outcome}; output ${written} of ${run.rows} rows; ${billed?.n} rows billed for ${billed?.credits ?? 0} credits (the runs said ${said ?? 'unknown'})`,
    ],
  };
}
