import type { Outcome } from './traffic.js';

/** What happened to the requests sent during one stretch of time, to one store's instances. */
export interface Tally {
  requests: number;
  answered: number;
  /** 503 with a Retry-After of whole seconds. */
  retryLater: number;
  /** 503 without Retry-After: the contract broken. */
  bare503: number;
  /** 500 and every other 5xx. */
  errors: number;
  connection: number;
  /** 4xx other than what the traffic expects (its test key stays under its limit, feedback ids are fresh). */
  refused: number;
  /** The 4xx by kind and status, e.g. `test-key 429`. */
  refusals: Map<string, number>;
}

export function tally(outcomes: Iterable<Outcome>): Tally {
  const t: Tally = { requests: 0, answered: 0, retryLater: 0, bare503: 0, errors: 0, connection: 0, refused: 0, refusals: new Map() };
  for (const o of outcomes) {
    t.requests++;
    if (o.status === 'connection') t.connection++;
    else if (o.status === 200 || o.status === 204 || (o.kind === 'limiter-probe' && o.status === 404)) t.answered++;
    else if (o.status === 503) o.retryAfter ? t.retryLater++ : t.bare503++;
    else if (o.status >= 500) t.errors++;
    else {
      t.refused++;
      const what = `${o.kind} ${o.status}`;
      t.refusals.set(what, (t.refusals.get(what) ?? 0) + 1);
    }
  }
  return t;
}

/** One fault's row: its window runs from the strike to the moment every concerned instance answered again. */
export interface FaultRow {
  name: string;
  note: string;
  tally: Tally;
  /** Seconds from the fault's end until every concerned instance answered; undefined: never within the bound. */
  backAfterS: number | undefined;
  /** The window (ms since the start) and the store whose requests it counts. */
  fromMs: number;
  toMs: number;
  store: 'postgres' | 'sqlite';
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

export function printTable(rows: FaultRow[]): void {
  console.log(`\n${'fault'.padEnd(46)} ${pad('requests', 8)} ${pad('answered', 8)} ${pad('503+RA', 7)} ${pad('503-RA', 7)} ${pad('500/5xx', 7)} ${pad('conn', 5)} ${pad('4xx', 4)} ${pad('back after', 10)}`);
  for (const r of rows) {
    const t = r.tally;
    const back = r.backAfterS === undefined ? 'NEVER' : `${r.backAfterS.toFixed(1)} s`;
    console.log(
      `${r.name.padEnd(46)} ${pad(t.requests, 8)} ${pad(t.answered, 8)} ${pad(t.retryLater, 7)} ${pad(t.bare503, 7)} ${pad(t.errors, 7)} ${pad(t.connection, 5)} ${pad(t.refused, 4)} ${pad(back, 10)}${r.note ? `  (${r.note})` : ''}`,
    );
    if (t.refused > 0) console.log(`${''.padEnd(46)} 4xx: ${[...t.refusals].map(([what, n]) => `${n} × ${what}`).join(', ')}`);
  }
}

export function describeTally(label: string, t: Tally): string {
  return `${label}: ${t.requests} requests, ${t.answered} answered, ${t.retryLater} × 503 with Retry-After, ${t.bare503} × 503 without, ${t.errors} × 500/5xx, ${t.connection} connection errors, ${t.refused} other 4xx${t.refused ? ` (${[...t.refusals].map(([w, n]) => `${n} × ${w}`).join(', ')})` : ''}`;
}
