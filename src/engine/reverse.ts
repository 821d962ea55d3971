import type { ReverseRequest, ReverseSuggestion } from '../contract/reverse.js';
import { everyoneAnswered } from './answered.js';
import type { AutocompleteEngineDeps } from './autocomplete.js';
import type { CallContext } from './billing.js';
import { cacheKey, withDataGenerations } from './cache-key.js';
import { nearestSuggestions } from './reverse-merge.js';
import { type SignalSource, signalOf } from './signal.js';
import { markUnverified, nobodyAnswered } from './unverified.js';
import { cacheLater } from './cache-later.js';
import { AnswerMemo } from './answer-memo.js';

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
  /** By cache key: a hit's parsed answer, kept while the cache holds the same text (answer-memo.ts). */
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

    const work = async (allowed: number) => {
      const attempts = await runner.run(
        'reverse',
        { ...position, radiusMeters: request.radiusMeters, limit: request.limit, ...(request.language ? { language: request.language } : {}) },
        signalOf(signal),
        { only: runner.likeliest(eligible, allowed, undefined), requestId: ctx.requestId },
      );
      const suggestions = nearestSuggestions(attempts, position, request.radiusMeters, request.limit);
      return {
        value: { result: markUnverified({ suggestions, cached: false }, nobodyAnswered(attempts)), complete: everyoneAnswered(attempts, eligible) },
        answered: attempts.filter((a) => a.answered).length,
        outcome: outcome(suggestions),
      };
    };
    const early = runner.ownData(eligible);
    const memo = this.memo.entry(key, () => ({ key, read: undefined }));

    // Its look-up is NOT started beside the cache read (as validate's and autocomplete's are): the
    // nearest-address statement is far shorter than the reservation, which then waits behind it
    // (`npm run bench:scale`, PostgreSQL + Redis: reverse p50 0.5-2.4 ms slower with it).
    const text = await cache.getText(key);
    const hit = text === undefined ? undefined : this.memo.answer(memo, text, (parsed) => parsed as ReverseSuggestion[]);
    if (hit) {
      await biller.free(ctx, outcome(hit));
      return { suggestions: hit, cached: true };
    }
    const { result, complete } = await biller.billed(ctx, eligible.length, work, { early });
    // Cached only once billed, and only an answer every eligible provider gave.
    if (complete) cacheLater(cache, key, result.suggestions, this.deps.cacheTtlMs);
    return result;
  }
}
