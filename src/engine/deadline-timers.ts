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

/**
 * The signal shared by the calls without a caller's signal started in one macrotask: an
 * AbortController each cost more than the local provider's whole call wrapper. It is aborted
 * once every call sharing it has settled or expired and one of them expired: a call that
 * outlives its deadline sees its signal aborted then (at the latest when the last of its
 * turn-mates, started microseconds apart with the same timeout, reaches its own deadline), a
 * call that is still running never sees it aborted early.
 */
interface Turn {
  readonly ctrl: AbortController;
  live: number;
  expired: boolean;
}

let turn: Turn | undefined;

export interface SignalLease {
  readonly signal: AbortSignal;
  /** The call settled (`expired`: by its deadline); once per lease. */
  end(expired: boolean): void;
}

/** This macrotask's shared signal, for a call that ends its lease when it settles or expires. */
export function turnSignal(): SignalLease {
  const t = (turn ??= { ctrl: new AbortController(), live: 0, expired: false });
  t.live += 1;
  let ended = false;
  return {
    signal: t.ctrl.signal,
    end(expired) {
      if (ended) return;
      ended = true;
      t.live -= 1;
      t.expired ||= expired;
      if (t.live === 0 && t.expired) t.ctrl.abort();
    },
  };
}

function armAll(): void {
  // Calls started from now on are in another turn, with a signal of their own turn.
  turn = undefined;
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
