import { LRUCache } from 'lru-cache';

/** What the memo keeps for one exact request: its cache key, its read input, its last answer. */
export interface MemoEntry<Read, Answer> {
  key: string;
  read: Read;
  /** The cache entry's JSON text the answer was decided from. */
  text?: string;
  answer?: Answer;
  /** This process was asked this request before (answer-memo.ts, likelyMiss). */
  asked?: boolean;
}

/**
 * Whether the cache read of this request is likely a miss: it is the first time this process is
 * asked it (a request asked before was cached then, or answered from the cache). The engine then
 * starts the look-up beside the read (work-ahead.ts). Marks the entry asked.
 */
export function likelyMiss(entry: MemoEntry<unknown, unknown>): boolean {
  const first = entry.asked !== true;
  entry.asked = true;
  return first;
}

/**
 * Cache hits without the work: the parsed input and the decided answer of a request, kept by the
 * request's exact identity (every field that changes the answer, the thresholds and the active
 * providers). An answer is reused only while the cache still holds the very text it was decided
 * from, so a refreshed entry (a debug call, another instance) is decided afresh: the memo can
 * never answer differently from parsing and scoring again. Answers are shared between callers:
 * read-only.
 */
export class AnswerMemo<Read, Answer> {
  /**
   * Made on first use: an LRUCache allocates its arrays for `max` entries up front, and a bulk run
   * makes an engine (so a memo) per chunk that never remembers a request.
   */
  #entries: LRUCache<string, MemoEntry<Read, Answer>> | undefined;

  constructor(private readonly maxEntries = 10_000) {}

  /** The entry of a request identity; `prepare` (cache key, parsing) runs once per identity. */
  entry(identity: string, prepare: () => { key: string; read: Read }): MemoEntry<Read, Answer> {
    const entries = (this.#entries ??= new LRUCache({ max: this.maxEntries }));
    let entry = entries.get(identity);
    if (!entry) {
      entry = prepare();
      entries.set(identity, entry);
    }
    return entry;
  }

  /**
   * The answer for the cache's current `text`; `decide` (which parses the text) runs only when the
   * text is not the one remembered. Text that is not JSON is no answer: undefined, a cache miss.
   */
  answer(entry: MemoEntry<Read, Answer>, text: string, decide: (parsed: unknown) => Answer): Answer | undefined {
    if (entry.text === text && entry.answer !== undefined) return entry.answer;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const answer = decide(parsed);
    entry.text = text;
    entry.answer = answer;
    return answer;
  }
}
