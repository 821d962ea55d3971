import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AccountStore } from '../../src/accounts/accounts.js';
import { CreditLedger, type ReservationCall, type UsageEventInput } from '../../src/billing/credit-ledger.js';
import { systemClock } from '../../src/lib/clock.js';
import { openDatabase } from '../../src/store/db/database.js';

/**
 * `npm run bench:ledger`: the CPU the credit ledger alone takes per call, in this process, one
 * call at a time (no HTTP, no engine): a reservation; a reservation and its background settle
 * (written before the next call: one item per batch, the quiet case); a cache hit's free event;
 * and free events 64 at a time (group-committed together, the loaded case). On SQLite by default,
 * PostgreSQL with --database-url. Issue 37: what the ledger's own writes cost, apart from the rest
 * of a request (`npm run bench:trips` measures whole requests).
 */
const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '1000' },
    /** Each measure is taken this many times; the least disturbed (lowest CPU) is shown: the machine is shared. */
    rounds: { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const calls = Number(args.calls);
const rounds = Math.max(1, Number(args.rounds));
const dir = mkdtempSync(path.join(tmpdir(), 'addressd-ledger-bench-'));
const database = await openDatabase({ dataDir: dir, ...(args['database-url'] ? { databaseUrl: args['database-url'] } : {}) });
const accountId = (await new AccountStore(database.db, systemClock).create({ plan: 'scale' })).id;
const ledger = new CreditLedger(database, systemClock, { owner: 'bench' });
const call: ReservationCall = { credentialId: 'key_bench', env: 'live', endpoint: '/v1/validate', source: null };
const event = (i: number, cached: boolean): UsageEventInput => ({
  accountId,
  credentialId: 'key_bench',
  env: 'live',
  endpoint: '/v1/validate',
  verdict: 'valid',
  provider: cached ? null : 'local',
  latencyMs: 3,
  cached,
  query: `Damrak ${i}, 1012 LG Amsterdam`,
  source: null,
});

const steps: Record<string, (i: number) => Promise<unknown>> = {
  reserve: async () => ledger.reserve(accountId, 1, call),
  'reserve + settle': async (i) => {
    const reservation = await ledger.reserve(accountId, 1, call);
    await (await ledger.settleLater(reservation!, 1, event(i, false))).written;
  },
  'free event': async (i) => (await ledger.recordFreeLater(event(i, true))).written,
  'free events, 64 per batch': async (i) => {
    const accepted = await Promise.all(Array.from({ length: 64 }, (_, j) => ledger.recordFreeLater(event(i * 64 + j, true))));
    await Promise.all(accepted.map((a) => a.written));
  },
};

console.log(`bench:ledger — ${database.dialect}, ${calls} calls one at a time, best of ${rounds} rounds, node ${process.version}`);
for (const [name, step] of Object.entries(steps)) {
  const n = name.includes('64') ? Math.max(10, Math.round(calls / 64)) : calls;
  const per = name.includes('64') ? 64 : 1;
  for (let i = 0; i < Math.min(200, n); i++) await step(i);
  await ledger.idle();
  let best = { cpu: Infinity, system: 0, wall: 0 };
  for (let round = 0; round < rounds; round++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < n; i++) await step((round + 1) * n + i);
    await ledger.idle();
    const used = process.cpuUsage(cpu);
    const us = (used.user + used.system) / n / per;
    if (us < best.cpu) best = { cpu: us, system: used.system / n / per, wall: ((performance.now() - started) * 1000) / n / per };
  }
  console.log(`  ${name.padEnd(28)} CPU ${best.cpu.toFixed(1).padStart(6)} µs/call (system ${best.system.toFixed(1).padStart(5)}), wall ${best.wall.toFixed(1).padStart(6)} µs/call`);
}
await ledger.drain(1000);
await database.close();
rmSync(dir, { recursive: true, force: true });
