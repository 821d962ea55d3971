import { type AutocompleteRequest, type Suggestion, SuggestionType } from '../contract/autocomplete.js';
import type { ResponseCache } from '../store/cache/response-cache.js';
import type { BillStep, CallContext } from './billing.js';
import { everyoneAnswered } from './answered.js';
import { AnswerMemo, likelyMiss } from './answer-memo.js';
import { cacheKey, withDataGenerations } from './cache-key.js';
import type { ProviderRunner } from './fan-out.js';
import { mergeSuggestions } from './merge-suggestions.js';
import { nearCell } from './near.js';
import { autocompleteText } from './autocomplete-query.js';
import { type SignalSource, signalOf } from './signal.js';
import { markUnverified, nobodyAnswered } from './unverified.js';
import { cacheLater } from './cache-later.js';
import { readBeside } from './work-ahead.js';

export interface AutocompleteEngineDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  biller: BillStep;
  cacheTtlMs: number;
}

export interface AutocompleteResult {
  suggestions: Suggestion[];
  cached: boolean;
}

/**
 * Autocomplete for servers and the widget alike: quota gate → cache (24 h) → reserve →
 * fan-out to providers that autocomplete (asked without the unit and recipient the user typed:
 * no provider matches them; with the customer's position as its ~1 km cell and the kinds wanted)
 * → merge and deduplicate, the unit carried back, each suggestion typed and its matches marked → settle.
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
    // Issue 35: the position as its ~1 km cell (what providers are asked and the cache keys), the kinds wanted.
    const near = request.near ? nearCell(request.near) : undefined;
    const types = wantedTypes(request.types);
    const options = { ...(near ? { near } : {}), ...(types ? { types } : {}) };
    const identity = JSON.stringify([request.query, country ?? null, request.language ?? null, request.limit, providers, near ?? null, types ?? null]);
    const memo = this.memo.entry(identity, () => ({
      key: cacheKey('autocomplete', {
        query: request.query,
        ...(country ? { country } : {}),
        ...(request.language ? { language: request.language } : {}),
        limit: request.limit,
        ...options,
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

    // `stillWanted` (work-ahead.ts): a look-up started beside the cache read stops there once a hit made it unneeded.
    const work = async (allowed: number, stillWanted = () => undefined as void) => {
      const called = runner.likeliest(eligible, allowed, country);
      const { query, unit } = autocompleteText(request.query, country);
      const attempts = await runner.run(
        'autocomplete',
        {
          query,
          ...(country ? { country } : {}),
          ...(request.language ? { language: request.language } : {}),
          limit: request.limit,
          ...options,
        },
        signalOf(signal),
        { only: called, requestId: ctx.requestId },
      );
      stillWanted();
      const suggestions = mergeSuggestions(attempts, request.limit, {
        ...(country ? { country } : {}),
        ...(unit ? { unit } : {}),
        ...options,
        query: request.query,
        ranksByNear: (id) => runner.ranksByNear(id),
      });
      return {
        value: { result: markUnverified({ suggestions, cached: false }, nobodyAnswered(attempts)), complete: everyoneAnswered(attempts, eligible) },
        answered: attempts.filter((a) => a.answered).length,
        outcome: outcome(suggestions),
      };
    };
    const early = runner.ownData(eligible);

    // A keystroke this process is asked for the first time is likely a miss: its look-up starts
    // beside the cache read, as validate's (validate.ts).
    const { hit, ahead } = await readBeside(
      async () => {
        const text = await cache.getText(key);
        return text === undefined ? undefined : this.memo.answer(memo, text, (parsed) => parsed as Suggestion[]);
      },
      early && likelyMiss(memo) ? (stillWanted) => work(eligible.length, stillWanted) : undefined,
    );
    if (hit) {
      await biller.free(ctx, outcome(hit));
      return { suggestions: hit, cached: true };
    }

    const { result, complete } = await biller.billed(ctx, eligible.length, work, { early, ...(ahead ? { ahead } : {}) });
    // Cached only once billed (as validate): never a free answer for a call that was not paid.
    if (complete) cacheLater(cache, key, result.suggestions, this.deps.cacheTtlMs);
    return result;
  }
}

/** The kinds asked for, in the contract's order; undefined for all of them (the same answer as none named). */
export function wantedTypes(types: readonly SuggestionType[] | undefined): SuggestionType[] | undefined {
  if (!types) return undefined;
  const wanted = SuggestionType.options.filter((t) => types.includes(t));
  return wanted.length === SuggestionType.options.length ? undefined : wanted;
}
