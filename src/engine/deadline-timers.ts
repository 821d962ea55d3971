/**
 * Deadlines armed lazily: a provider call's timer is set only if the call is still pending when
 * the macrotask that started it ends. The local provider on SQLite answers within microtasks,
 * so a bulk run's tens of thousands of calls a second create no timer at all; a call that
 * really waits (HTTP, PostgreSQL) gets its timer at the end of the turn, for the time left to
 * its deadline. Nothing is lost by the delay: no timer can fire before the current macrotask
 * ends anyway. One shared setImmediate per turn arms every call started in it.
 */
export interface Deadline {
  /** `performance.now()` at which `expire` runs if the call has not settled. */
  readonly at: number;
  /** Set once the call settled: it is then never armed, and its timer (if any) is cleared. */
  settled: boolean;
  timer?: ReturnType<typeof setTimeout>;
  expire(): void;
}

let unarmed: Deadline[] = [];

function armAll(): void {
  const batch = unarmed;
  unarmed = [];
  const now = performance.now();
  for (const d of batch) {
    if (d.settled) continue;
    const remaining = d.at - now;
    if (remaining <= 0) d.expire();
    else d.timer = setTimeout(d.expire, Math.ceil(remaining));
  }
}

/** Arms `d` at the end of this macrotask unless it has settled by then. */
export function armLater(d: Deadline): void {
  if (unarmed.length === 0) setImmediate(armAll);
  unarmed.push(d);
}

/** The call settled: it must not expire. */
export function disarm(d: Deadline): void {
  d.settled = true;
  if (d.timer !== undefined) clearTimeout(d.timer);
}
