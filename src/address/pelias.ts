import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/**
 * pelias-parser behind a small typed facade. Building its classifier loads large dictionaries
 * (0.5-2 s of CPU, most of a server start's), so it is built once, on first use; a parse then takes
 * under 1 ms. The server builds it in a worker thread instead (startPeliasThread), so a restarted
 * instance listens and answers without waiting for it: each parse is then a synchronous round trip
 * to that thread, and a parse asked for before the classifier is built waits for it.
 */
const require = createRequire(import.meta.url);

/** What we read from pelias-parser's solutions (its own classes are untyped CommonJS). */
interface PeliasSpan {
  body: string;
  start: number;
  end: number;
}
interface PeliasSolution {
  pair: ReadonlyArray<{ classification: { label: string }; span: PeliasSpan }>;
}
interface PeliasTokenizer {
  solution: readonly PeliasSolution[];
}
interface PeliasParser {
  classify(t: PeliasTokenizer): void;
  solve(t: PeliasTokenizer): void;
}

export type PeliasLabel = 'housenumber' | 'street' | 'postcode' | 'locality' | 'region' | 'country' | 'unit' | 'venue';
export type PeliasParse = Partial<Record<PeliasLabel, { value: string; start: number; end: number }>>;

let parser: PeliasParser | undefined;
let Tokenizer: (new (text: string) => PeliasTokenizer) | undefined;

function load(): { parser: PeliasParser; Tokenizer: new (text: string) => PeliasTokenizer } {
  if (!parser || !Tokenizer) {
    const AddressParser = require('pelias-parser/parser/AddressParser') as new () => PeliasParser;
    Tokenizer = require('pelias-parser/tokenization/Tokenizer') as new (text: string) => PeliasTokenizer;
    parser = new AddressParser();
  }
  return { parser, Tokenizer };
}

/** One labelled span of the best solution: label, text, start, end. */
type Pair = [label: string, body: string, start: number, end: number];

function parseHere(text: string): Pair[] {
  const { parser: p, Tokenizer: T } = load();
  const tokenizer = new T(text);
  p.classify(tokenizer);
  p.solve(tokenizer);
  return (tokenizer.solution[0]?.pair ?? []).map(({ classification, span }) => [classification.label, span.body, span.start, span.end]);
}

/**
 * How long a parse waits for the thread in all (building the classifier included, which takes
 * seconds on a busy machine) before it gives the thread up and builds the parser here instead.
 */
const THREAD_WAIT_MS = 60_000;

interface PeliasThread {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}
let thread: PeliasThread | undefined;

/**
 * Server start-up: pelias-parser is built in a worker thread from now on, and every parse of this
 * process goes there. Without it (tests, the CLI, its worker threads) the parser is built in the
 * calling thread on first use.
 */
export function startPeliasThread(): void {
  if (thread) return;
  const { port1, port2 } = new MessageChannel();
  // Slot 0: a reply is waiting; slot 1: the classifier is built (pelias-thread.mjs).
  const signal = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(new URL('./pelias-thread.mjs', import.meta.url), { workerData: { port: port2, signal }, transferList: [port2] });
  // The thread never keeps the process alive, and a thread that failed is given up for the calling thread's parser.
  worker.unref();
  const started: PeliasThread = { worker, port: port1, signal };
  const giveUp = () => {
    if (thread === started) thread = undefined;
  };
  worker.once('error', giveUp);
  worker.once('exit', giveUp);
  thread = started;
}

/**
 * False while the server's thread still builds the classifier: a parse asked for meanwhile waits
 * for it, blocking this thread for up to its build time (0.5-2 s), so GET /readyz says not ready
 * until then. True without a thread (the parser is built where it is used) or once it gave up.
 */
export function addressParserReady(): boolean {
  const t = thread;
  return !t || Atomics.load(t.signal, 1) === 1;
}

function parseInThread(t: PeliasThread, text: string): Pair[] | undefined {
  Atomics.store(t.signal, 0, 0);
  t.port.postMessage(text);
  const deadline = performance.now() + THREAD_WAIT_MS;
  for (;;) {
    const received = receiveMessageOnPort(t.port) as { message: { pairs?: Pair[]; error?: string } } | undefined;
    if (received) {
      if (received.message.error !== undefined) throw new Error(`pelias-parser: ${received.message.error}`);
      return received.message.pairs ?? [];
    }
    const left = deadline - performance.now();
    if (left <= 0) return undefined;
    // Returns at once when the reply came in between (the signal is already 1).
    Atomics.wait(t.signal, 0, 0, Math.min(left, 1000));
  }
}

/** Best pelias solution as label → span (character offsets into `text`); empty when it found none. */
export function peliasParse(text: string): PeliasParse {
  let pairs: Pair[] | undefined;
  const t = thread;
  if (t) {
    pairs = parseInThread(t, text);
    if (!pairs) {
      // The thread never answered (it died without an event we could hear while waiting): parse here from now on.
      thread = undefined;
      void t.worker.terminate();
    }
  }
  pairs ??= parseHere(text);
  const out: PeliasParse = {};
  for (const [label, value, start, end] of pairs) out[label as PeliasLabel] ??= { value, start, end };
  return out;
}

/** Builds the classifier now, in this thread (so a first parse does not pay for it). */
export function warmUpPelias(): void {
  load();
}
