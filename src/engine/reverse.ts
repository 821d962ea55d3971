import type { ReverseRequest, ReverseSuggestion } from '../contract/reverse.js';
import { everyoneAnswered } from './answered.js';
import type { AutocompleteEngineDeps } from './autocomplete.js';
import type { CallContext } from './billing.js';
import { cacheKey, withDataGenerations } from './cache-key.js';
import { nearestSuggestions } from './reverse-merge.js';
import { type SignalSource, signalOf } from './signal.js';
import { markUnverified, nobodyAnswered } from './unverified.js';
import { cacheLater } from './cache-later.js';
import { AnswerMemo, likelyMiss } from './answer-memo.js';
import { readBeside } from './work-ahead.js';

export interface ReverseResult {
  suggestions: ReverseSuggestion[];
  cached: boolean;
}

/** Positions are used to 5 decimal places (about 1 m; a phone's fix is coarser): the answer is exact for the key it is cached under. */
const round5 = (x: number) => Math.round(x * 1e5) / 1e5;

/**
 * Reverse look-up for servers and the widget (issue 35), the autocomplete pipeline's steps on a
 * position: quota gate → cache (24 h, keyed by the rounded position) → reserve → fan-out to the
 * providers that look up positions there → nearest first → settle. Billed as autocomplete.
 */
export class ReverseEngine {
  /** By cache key: whether this process was asked a position before, and the hit's parsed answer (answer-memo.ts). */
  private readonly memo = new AnswerMemo<undefined, ReverseSuggestion[]>();

  constructor(private readonly deps: AutocompleteEngineDeps) {}

  async reverse(request: ReverseRequest, ctx: CallContext, signal?: SignalSource): Promise<ReverseResult> {
    const { biller, cache, runner } = this.deps;
    await biller.ensureCredits(ctx.accountId);
    const position = { lat: round5(request.lat), lng: round5(request.lng) };
    const eligible = runner.eligible('reverse', undefined, position);
    const key = withDataGenerations(
      cacheKey('reverse', {
        ...(request.language ? { language: request.language } : {}),
        limit: request.limit,
        position: { ...position, radiusMeters: request.radiusMeters },
        providers: runner.active(),
      }),
      runner.dataGenerations(eligible, undefined),
    );
    // The usage report names the place to about 100 m: enough to tell calls apart, not a customer's doorstep.
    const outcome = (suggestions: ReverseSuggestion[]) => ({
      verdict: null,
      provider: suggestions[0]?.provider ?? null,
      query: `${position.lat.toFixed(3)},${position.lng.toFixed(3)}`,
    });

    // `stillWanted` (work-ahead.ts): a look-up started beside the cache read stops there once a hit made it unneeded.
    const work = async (allowed: number, stillWanted = () => undefined as void) => {
      const attempts = await runner.run(
        'reverse',
        { ...position, radiusMeters: request.radiusMeters, limit: request.limit, ...(request.language ? { language: request.language } : {}) },
        signalOf(signal),
        { only: runner.likeliest(eligible, allowed, undefined), requestId: ctx.requestId },
      );
      stillWanted();
      const suggestions = nearestSuggestions(attempts, position, request.radiusMeters, request.limit);
      return {
        value: { result: markUnverified({ suggestions, cached: false }, nobodyAnswered(attempts)), complete: everyoneAnswered(attempts, eligible) },
        answered: attempts.filter((a) => a.answered).length,
        outcome: outcome(suggestions),
      };
    };
    const early = runner.ownData(eligible);
    const memo = this.memo.entry(key, () => ({ key, read: undefined }));

    // A position this process is asked for the first time is likely a miss: its look-up starts
    // beside the cache read, as validate's (validate.ts).
    const { hit, ahead } = await readBeside(
      async () => {
        const text = await cache.getText(key);
        return text === undefined ? undefined : this.memo.answer(memo, text, (parsed) => parsed as ReverseSuggestion[]);
      },
      early && likelyMiss(memo) ? (stillWanted) => work(eligible.length, stillWanted) : undefined,
    );
    if (hit) {
      await biller.free(ctx, outcome(hit));
      return { suggestions: hit, cached: true };
    }
    const { result, complete } = await biller.billed(ctx, eligible.length, work, { early, ...(ahead ? { ahead } : {}) });
    // Cached only once billed, and only an answer every eligible provider gave.
    if (complete) cacheLater(cache, key, result.suggestions, this.deps.cacheTtlMs);
    return result;
  }
}
