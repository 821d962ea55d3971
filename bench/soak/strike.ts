import type { Fault } from './faults.js';
import type { Instance } from './instances.js';
import { type FaultRow, tally } from './report.js';
import type { Outcome, Target } from './traffic.js';

/** Whatever happens, no probe loop outlives this (a restart on a machine this busy can take a minute). */
const RECOVERY_BOUND_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Strikes, holds, ends; then probes every concerned instance until it answers a billed validate
 * (and, when Redis was the fault, passes the rate limiter): the row's window runs from the strike
 * to that moment.
 */
export async function strike(fault: Fault, instances: Instance[], send: (t: Target, kind: 'probe' | 'limiter-probe') => Promise<Outcome>, now: () => number, outcomes: Outcome[]): Promise<FaultRow> {
  const fromMs = now();
  const note = (await fault.strike()) ?? '';
  await sleep(fault.holdMs);
  await fault.end();
  const endMs = now();
  const concerned = instances.filter((i) => i.store === fault.store);
  const backs = await Promise.all(
    concerned.map(async (instance) => {
      const kinds = fault.limiter ? (['probe', 'limiter-probe'] as const) : (['probe'] as const);
      for (const kind of kinds) {
        for (;;) {
          const outcome = await send(instance, kind);
          if (outcome.status === (kind === 'probe' ? 200 : 404)) break;
          if (now() - endMs > RECOVERY_BOUND_MS) return undefined;
          await sleep(100);
        }
      }
      return now();
    }),
  );
  const toMs = backs.includes(undefined) ? now() : Math.max(...(backs as number[]));
  const backAfterS = backs.includes(undefined) ? undefined : (toMs - endMs) / 1000;
  const said = [note, fault.after?.()].filter(Boolean).join('; ');
  // Requests in flight when it struck count too (a kill -9 cuts them).
  const window = outcomes.filter((o) => o.store === fault.store && o.ended >= fromMs && o.sent <= toMs);
  console.log(`  ${(fromMs / 1000).toFixed(0).padStart(4)} s  ${fault.name}${said ? ` (${said})` : ''}: back after ${backAfterS === undefined ? 'NEVER' : `${backAfterS.toFixed(1)} s`}`);
  return { name: fault.name, note: said, tally: tally(window), backAfterS, fromMs, toMs, store: fault.store };
}
