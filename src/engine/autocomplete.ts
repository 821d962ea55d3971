import type { AutocompleteRequest, Suggestion } from '../contract/autocomplete.js';
import type { ResponseCache } from '../store/cache/response-cache.js';
import type { Biller, CallContext } from './billing.js';
import { everyoneAnswered } from './answered.js';
import { AnswerMemo } from './answer-memo.js';
import { cacheKey, withDataGenerations } from './cache-key.js';
import type { ProviderRunner } from './fan-out.js';
import { mergeSuggestions } from './merge-suggestions.js';
import { autocompleteText } from './autocomplete-query.js';
import { type SignalSource, signalOf } from './signal.js';
import { markUnverified, nobodyAnswered } from './unverified.js';

export interface AutocompleteEngineDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  biller: Biller;
  cacheTtlMs: number;
}

export interface AutocompleteResult {
  suggestions: Suggestion[];
  cached: boolean;
}

/**
 * Autocomplete for servers and the widget alike: quota gate → cache (24 h) → reserve →
 * fan-out to providers that autocomplete (asked without the unit and recipient the user typed:
 * no provider matches them) → merge and deduplicate, the unit carried back → settle.
 */
export class AutocompleteEngine {
  /** Cache hits reuse the cache key and the parsed suggestions of the same request (answer-memo.ts). */
  private readonly memo = new AnswerMemo<undefined, Suggestion[]>();

  constructor(private readonly deps: AutocompleteEngineDeps) {}

  async autocomplete(request: AutocompleteRequest, ctx: CallContext, signal?: SignalSource): Promise<AutocompleteResult> {
    const { biller, cache, runner } = this.deps;
    await biller.ensureCredits(ctx.accountId);
    const country = request.country?.toUpperCase();
    const providers = runner.active();
    const memo = this.memo.entry(JSON.stringify([request.query, country ?? null, request.language ?? null, request.limit, providers]), () => ({
      key: cacheKey('autocomplete', {
        query: request.query,
        ...(country ? { country } : {}),
        ...(request.language ? { language: request.language } : {}),
        limit: request.limit,
        providers,
      }),
      read: undefined,
    }));
    const eligible = runner.eligible('autocomplete', country);
    // Where `local` takes part, the key carries its data generation (cache-key.ts).
    const key = withDataGenerations(memo.key, runner.dataGenerations(eligible, country));
    const outcome = (suggestions: Suggestion[]) => ({
      verdict: null,
      provider: suggestions[0]?.provider ?? null,
      query: request.query,
    });

    const text = await cache.getText(key);
    const hit = text === undefined ? undefined : this.memo.answer(memo, text, (parsed) => parsed as Suggestion[]);
    if (hit) {
      await biller.free(ctx, outcome(hit));
      return { suggestions: hit, cached: true };
    }

    const { result, complete } = await biller.billed(ctx, eligible.length, async (allowed) => {
      const called = runner.likeliest(eligible, allowed, country);
      const { query, unit } = autocompleteText(request.query, country);
      const attempts = await runner.run(
        'autocomplete',
        {
          query,
          ...(country ? { country } : {}),
          ...(request.language ? { language: request.language } : {}),
          limit: request.limit,
        },
        signalOf(signal),
        { only: called, requestId: ctx.requestId },
      );
      const suggestions = mergeSuggestions(attempts, request.limit, { ...(country ? { country } : {}), ...(unit ? { unit } : {}) });
      return {
        value: { result: markUnverified({ suggestions, cached: false }, nobodyAnswered(attempts)), complete: everyoneAnswered(attempts, eligible) },
        answered: attempts.filter((a) => a.answered).length,
        outcome: outcome(suggestions),
      };
    });
    // Cached only once billed (as validate): never a free answer for a call that was not paid.
    if (complete) await cache.set(key, result.suggestions, this.deps.cacheTtlMs);
    return result;
  }
}
