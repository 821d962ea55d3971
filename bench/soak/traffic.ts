import { DEFAULT_DATASET } from '../../test/emulators/index.js';

/** One instance under traffic: its URL survives restarts (a fixed port). */
export interface Target {
  name: string;
  url: string;
  /** Which books it writes: the two PostgreSQL instances share one, the SQLite instance has its own. */
  store: 'postgres' | 'sqlite';
}

export interface Keys {
  live: string;
  /** An ak_test_ key: its 60/minute limit lives in Redis (or in-process), so it fails closed when Redis is away. */
  test: string;
}

/** `probe` is a billed validate, `limiter-probe` feedback for an unknown id (404 once the rate limiter counts again). */
export type Kind = 'validate' | 'batch' | 'autocomplete' | 'feedback' | 'test-key' | 'probe' | 'limiter-probe';

/** What one request got: a status, or the connection failing. */
export interface Outcome {
  /** ms since the soak started, when the request was sent and when it ended. */
  sent: number;
  ended: number;
  target: string;
  store: Target['store'];
  kind: Kind;
  status: number | 'connection';
  /** A 503 that said when to come back. */
  retryAfter: boolean;
  /** The source tags of the billed calls this request answered (a batch answers several). */
  answered: string[];
  /** Per answered source: the credits the answer says it cost (debug trace), when it says. */
  credits: Map<string, number>;
  /** The source tags it sent (for calls that may have been billed though their answer was lost). */
  sentSources: string[];
}

const NL = DEFAULT_DATASET.filter((a) => a.country === 'NL');

/** A query from a small set (cache hits) or a large one (misses): NL for the emulators, DE for the local index. */
function validateBody(n: number, rnd: () => number): { query: string; country: string } {
  if (rnd() < 0.5) {
    const a = NL[n % NL.length]!;
    return { query: `${a.street} ${a.houseNumber}, ${a.postcode} ${a.city}`, country: 'NL' };
  }
  const street = Math.floor(rnd() * 500);
  return { query: `Weg${street} ${1 + Math.floor(rnd() * 40)}, Gemeinde ${street % 100}`, country: 'DE' };
}

function autocompleteBody(rnd: () => number): { query: string; country: string } {
  if (rnd() < 0.5) {
    const a = NL[Math.floor(rnd() * NL.length)]!;
    return { query: a.street.slice(0, 3 + Math.floor(rnd() * (a.street.length - 2))), country: 'NL' };
  }
  return { query: `Weg${Math.floor(rnd() * 500)} ${1 + Math.floor(rnd() * 40)}`, country: 'DE' };
}

/** Credits a debug answer names: one per provider that answered, none when cached. */
function tracedCredits(answer: { cached?: boolean; trace?: { status: string }[] }): number | undefined {
  if (answer.cached) return 0;
  return answer.trace ? answer.trace.filter((s) => s.status === 'ok').length : undefined;
}

interface TrafficOptions {
  targets: Target[];
  keys: Record<Target['store'], Keys>;
  /** Loops per target (each waits for its answer before the next request). */
  clients: number;
  started: number;
  /** Every request ends within this (a hung instance counts as a connection failure). */
  requestTimeoutMs: number;
  record(outcome: Outcome): void;
}

/**
 * The soak's customers: per target `clients` loops of validate, batch, autocomplete and feedback
 * (for ids it was given earlier), and one slow test-key loop per store (under its 60/min limit).
 * Every billed call carries a source tag of its own, so the books can be matched call by call.
 */
export function startTraffic(options: TrafficOptions): { stop(): Promise<void>; send(target: Target, kind: Kind): Promise<Outcome> } {
  let stopped = false;
  let seq = 0;
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const responseIds: Record<Target['store'], string[]> = { postgres: [], sqlite: [] };
  const now = () => performance.now() - options.started;

  async function send(target: Target, kind: Kind): Promise<Outcome> {
    const source = `soak.${target.name}.${++seq}`;
    const key = kind === 'test-key' ? options.keys[target.store].test : options.keys[target.store].live;
    let path = '/v1/validate';
    let body: unknown;
    let sources = [source];
    if (kind === 'batch') {
      path = '/v1/validate/batch';
      sources = [0, 1, 2, 3].map((i) => `${source}.${i}`);
      body = { items: sources.map((s, i) => ({ ...validateBody(seq + i, rnd), source: s })) };
    } else if (kind === 'autocomplete') {
      path = '/v1/autocomplete';
      body = { ...autocompleteBody(rnd), source };
    } else if (kind === 'feedback' || kind === 'limiter-probe') {
      path = '/v1/validate/feedback';
      sources = [];
      const responseId = kind === 'feedback' ? responseIds[target.store].pop() : 'rsp_soak_probe';
      body = { responseId, conclusion: 'validated_used' };
    } else {
      body = { ...validateBody(seq, rnd), source, debug: kind === 'validate' && rnd() < 0.3 };
    }
    const outcome: Outcome = { sent: now(), ended: 0, target: target.name, store: target.store, kind, status: 'connection', retryAfter: false, answered: [], credits: new Map(), sentSources: sources };
    try {
      const res = await fetch(`${target.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.requestTimeoutMs),
      });
      const text = await res.text();
      outcome.status = res.status;
      outcome.retryAfter = res.status === 503 && /^\d+$/.test(res.headers.get('retry-after') ?? '');
      if (res.status === 200) {
        type Answer = { status?: number; responseId?: string; cached?: boolean; trace?: { status: string }[] };
        const json = JSON.parse(text) as Answer & { results?: Answer[] };
        const answers: Answer[] = kind === 'batch' ? (json.results ?? []) : [json];
        answers.forEach((answer, i) => {
          if (answer.status !== undefined) return; // an item that was refused, not answered
          outcome.answered.push(sources[i]!);
          const credits = tracedCredits(answer);
          if (credits !== undefined) outcome.credits.set(sources[i]!, credits);
          const id = answer.responseId;
          if (id && responseIds[target.store].length < 1000) responseIds[target.store].push(id);
        });
      }
    } catch {
      // refused, reset or timed out: the connection failed (the books allow these calls to be billed)
    }
    outcome.ended = now();
    options.record(outcome);
    return outcome;
  }

  const pick = (target: Target): Kind => {
    const r = rnd();
    if (r < 0.1 && responseIds[target.store].length > 0) return 'feedback';
    if (r < 0.2) return 'batch';
    if (r < 0.55) return 'autocomplete';
    return 'validate';
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const loops = options.targets.flatMap((target) =>
    Array.from({ length: options.clients }, async () => {
      while (!stopped) {
        const outcome = await send(target, pick(target));
        // A refused connection comes back at once: do not spin on a dead instance.
        if (outcome.status === 'connection' || outcome.status === 503) await pause(100);
      }
    }),
  );
  // ~40 test-key calls a minute per store, spread over its instances: under the key's 60/min.
  for (const store of ['postgres', 'sqlite'] as const) {
    const targets = options.targets.filter((t) => t.store === store);
    if (targets.length === 0) continue;
    loops.push(
      (async () => {
        for (let i = 0; !stopped; i++) {
          await send(targets[i % targets.length]!, 'test-key');
          await pause(1500);
        }
      })(),
    );
  }
  return {
    send,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
