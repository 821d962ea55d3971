import type { AddressComponents } from '../contract/address.js';
import type { ValidateRequest, ValidateResponse } from '../contract/validate.js';
import type { ProviderAttempt, ProviderRunner } from './fan-out.js';
import type { GeocodeQuery } from '../providers/provider.js';
import type { ResponseCache } from '../store/cache/response-cache.js';
import type { BillStep, CallContext } from './billing.js';
import { everyoneAnswered } from './answered.js';
import { AnswerMemo, likelyMiss, type MemoEntry } from './answer-memo.js';
import { cacheKey, withDataGenerations } from './cache-key.js';
import { shapeAnswer } from './answer-shape.js';
import { buildConsensus } from './consensus.js';
import { shareNumberedStreets } from './numbered-streets.js';
import { hasCoordinates } from './resolved-address.js';
import { scoreCandidate } from './score.js';
import type { ScoredCandidate, Thresholds } from './types.js';
import { readValidateInput, type ValidateInput } from './validate-input.js';
import { confirmUnverified, isUnverified, markUnverified, nobodyAnswered } from './unverified.js';
import { decideVerdict, recognisable } from './verdict.js';
import { type SignalSource, signalOf } from './signal.js';
import { cacheLater } from './cache-later.js';
import { withSharedPart } from './shared-answer-json.js';
import { readBeside, type WorkAhead } from './work-ahead.js';

/** What the cache keeps for validate: provider answers, not verdicts (thresholds differ per account). */
interface CachedLookup {
  attempts: Pick<ProviderAttempt, 'provider' | 'answered' | 'candidates'>[];
}

export interface ValidateEngineDeps {
  runner: ProviderRunner;
  cache: ResponseCache;
  biller: BillStep;
  cacheTtlMs: number;
  /** Gives every answer its own `responseId` (feedback/response-ids.ts); a bulk run, whose rows get no feedback, has none. */
  responseIds?: AnswerIds;
  /**
   * Keep each request's parsed input and decided answer for its next cache hit (the API's repeat
   * callers). Default true; a bulk run passes false: its repeats never reach the engine
   * (cli/bulk/repeats.ts), so remembering its rows would only cost their identity and an LRU slot.
   */
  rememberRequests?: boolean;
  /**
   * How a request is read (default readValidateInput): a bulk run reads a slice of rows up front to
   * prime the local index with their queries, and hands those readings over instead of reading twice.
   */
  readInput?: (request: ValidateRequest) => ValidateInput;
}

export type ValidateResult = Omit<ValidateResponse, 'cached' | 'responseId'>;

/** Issues an answer's response id from what the answer was and how the input was read. */
export interface AnswerIds {
  issue(accountId: string, source: string | null, answer: ValidateResult, input: AddressComponents, unverified: boolean, previous?: string): string;
}

/**
 * POST /v1/validate, top to bottom (DESIGN §3-§6):
 * quota gate → read input → cache → reserve credits → fan-out → score (free text read again against
 * each candidate) → consensus over the recognisable candidates → verdict → settle.
 */
export class ValidateEngine {
  /** Cache hits reuse the parsed input and the decided answer of the same request (answer-memo.ts). */
  private readonly memo = new AnswerMemo<ValidateInput, ValidateResult>();

  constructor(private readonly deps: ValidateEngineDeps) {}

  async validate(
    request: ValidateRequest,
    ctx: CallContext & { thresholds: Thresholds },
    signal?: SignalSource,
  ): Promise<ValidateResponse> {
    const { biller, cache, runner } = this.deps;
    await biller.ensureCredits(ctx.accountId);
    const memo = this.prepare(request, ctx.thresholds);
    const { read } = memo;
    const eligible = runner.eligible('geocode', read.country);
    const key = this.dataKey(memo.key, eligible, read.country);

    // `stillWanted` (work-ahead.ts): a look-up started beside the cache read stops there once a hit made it unneeded.
    const work = async (allowed: number, stillWanted = () => undefined as void) => {
      const called = runner.likeliest(eligible, allowed, read.country);
      const attempts = await runner.run('geocode', read.query, signalOf(signal), { only: called, requestId: ctx.requestId });
      stillWanted();
      const unverified = nobodyAnswered(attempts);
      const result = confirmUnverified(this.decide(read, attempts, ctx.thresholds, request.debug === true), unverified);
      const responseId = this.responseId(ctx, request, result, read, unverified);
      return {
        value: { response: markUnverified({ ...result, cached: false, responseId }, unverified), attempts },
        answered: attempts.filter((a) => a.answered).length,
        outcome: outcomeOf(result, read),
      };
    };
    const early = runner.ownData(eligible);
    let ahead: WorkAhead<{ response: ValidateResponse; attempts: ProviderAttempt[] }> | undefined;

    // debug shows a fresh trace: it skips the cache read but refreshes the entry.
    if (!request.debug) {
      // A request this process is asked for the first time is likely a miss: its look-up starts
      // beside the read (answer-memo.ts, likelyMiss), so a shared cache's round trip is not waited
      // for first. Only on our own data: a look-up a hit makes unneeded costs no one a call.
      const cached = await readBeside(
        async () => {
          const text = await cache.getText(key);
          return text === undefined ? undefined : this.fromCache(memo, text, ctx.thresholds);
        },
        // A bulk run (nothing remembered) wants rows per second, not a row's latency: nothing ahead.
        early && this.deps.rememberRequests !== false && likelyMiss(memo) ? (stillWanted) => work(eligible.length, stillWanted) : undefined,
      );
      if (cached.hit) {
        const result = cached.hit;
        await biller.free(ctx, outcomeOf(result, read));
        // The decided answer is the memo's, shared by every hit: its JSON is written once (shared-answer-json.ts).
        return withSharedPart(result, { cached: true, responseId: this.responseId(ctx, request, result, read) });
      }
      ahead = cached.ahead;
    }

    const { response, attempts } = await biller.billed(ctx, eligible.length, work, { early, ...(ahead ? { ahead } : {}) });
    // Cached only once billed: a cached answer is served free, so one kept from a call whose
    // settle failed would be served unbilled from then on.
    this.remember(key, attempts, eligible);
    return response;
  }

  /** Each answer's own id, cached ones too; derived, never stored (feedback/response-ids.ts). */
  private responseId(ctx: CallContext, request: ValidateRequest, result: ValidateResult, read: ValidateInput, unverified = isUnverified(result)): string {
    return this.deps.responseIds?.issue(ctx.accountId, ctx.source, result, read.input, unverified, request.previousResponseId) ?? '';
  }

  /** For the demo: a cached answer, or undefined (no credits, no allowance involved). */
  async cached(request: ValidateRequest, thresholds: Thresholds): Promise<ValidateResult | undefined> {
    const memo = this.prepare(request, thresholds);
    const key = this.dataKey(memo.key, this.deps.runner.eligible('geocode', memo.read.country), memo.read.country);
    const text = await this.deps.cache.getText(key);
    return text === undefined ? undefined : this.fromCache(memo, text, thresholds);
  }

  /**
   * Requests about to be validated (a batch's items the cache does not answer): their geocodes
   * handed ahead to the providers that look many up at once (ProviderRunner.prime), each read as
   * `validate` will read it (the memo keeps the reading for it).
   */
  async prime(requests: readonly ValidateRequest[], thresholds: Thresholds): Promise<void> {
    const queries: GeocodeQuery[] = [];
    for (const request of requests) {
      try {
        queries.push(this.prepare(request, thresholds).read.query);
      } catch {
        // Not readable: it fails again in its own run, where the caller handles it.
      }
    }
    await this.deps.runner.prime(queries);
  }

  /** The memo entry of this exact request: its cache key and parsed input, computed once. */
  private prepare(request: ValidateRequest, thresholds: Thresholds): MemoEntry<ValidateInput, ValidateResult> {
    const providers = this.deps.runner.active();
    if (this.deps.rememberRequests === false) return this.read(request, providers);
    const identity = JSON.stringify([
      request.query ?? null,
      request.components ?? null,
      request.country ?? null,
      request.language ?? null,
      request.near ?? null,
      thresholds.valid,
      thresholds.correctable,
      providers,
    ]);
    return this.memo.entry(identity, () => this.read(request, providers));
  }

  /** A request's parsed input and cache key. */
  private read(request: ValidateRequest, providers: string[]): MemoEntry<ValidateInput, ValidateResult> {
    const read = (this.deps.readInput ?? readValidateInput)(request);
    return { key: this.key(request, read, providers), read };
  }

  /** The answer a cache entry gives, decided once per entry text; undefined for unreadable text (a miss). */
  private fromCache(memo: MemoEntry<ValidateInput, ValidateResult>, text: string, thresholds: Thresholds): ValidateResult | undefined {
    return this.memo.answer(memo, text, (parsed) => this.decide(memo.read, (parsed as CachedLookup).attempts, thresholds));
  }

  /** For the demo: a fresh, unbilled lookup that also fills the cache. */
  async uncached(request: ValidateRequest, thresholds: Thresholds, signal?: AbortSignal, requestId?: string): Promise<ValidateResult> {
    const read = readValidateInput(request);
    const eligible = this.deps.runner.eligible('geocode', read.country);
    const attempts = await this.deps.runner.run('geocode', read.query, signal, { only: eligible, requestId });
    this.remember(this.dataKey(this.key(request, read), eligible, read.country), attempts, eligible);
    return confirmUnverified(this.decide(read, attempts, thresholds), nobodyAnswered(attempts));
  }

  private key(request: ValidateRequest, read: ValidateInput, providers = this.deps.runner.active()): string {
    return cacheKey('validate', {
      ...(request.query !== undefined ? { query: request.query } : {}),
      ...(request.components ? { components: request.components } : {}),
      ...(read.country ? { country: read.country } : {}),
      ...(request.language ? { language: request.language } : {}),
      ...(read.query.near ? { near: read.query.near } : {}),
      providers,
    });
  }

  /** The request's key with the data generations of the eligible providers that hold data (cache-key.ts). */
  private dataKey(key: string, eligible: readonly string[], country: string | undefined): string {
    return withDataGenerations(key, this.deps.runner.dataGenerations(eligible, country));
  }

  /** Only complete answers are cached: a lookup where a provider failed is not kept for 30 days. */
  private remember(key: string, attempts: ProviderAttempt[], eligible: readonly string[]): void {
    if (!everyoneAnswered(attempts, eligible)) return;
    const lookup: CachedLookup = {
      attempts: attempts.map(({ provider, answered, candidates }) => ({
        provider,
        answered,
        candidates: candidates.map(({ raw: _raw, ...rest }) => rest),
      })),
    };
    cacheLater(this.deps.cache, key, lookup, this.deps.cacheTtlMs);
  }

  private decide(
    read: ValidateInput,
    attempts: CachedLookup['attempts'] | ProviderAttempt[],
    thresholds: Thresholds,
    debug = false,
  ): ValidateResult {
    const first = this.decideAs(read, attempts, thresholds, debug);
    // A request without a country whose text the found country reads otherwise (`340/3` in LI is
    // house 340, door 3) is decided again as that country's: the same provider answers, read right.
    const found = first.address?.country;
    const again = found ? read.forCountry(found) : undefined;
    return again ? this.decideAs(again, attempts, thresholds, debug) : first;
  }

  private decideAs(
    read: ValidateInput,
    attempts: CachedLookup['attempts'] | ProviderAttempt[],
    thresholds: Thresholds,
    debug: boolean,
  ): ValidateResult {
    // A street the local index numbers is numbered in every provider's answer (numbered-streets.ts).
    const scored: ScoredCandidate[] = shareNumberedStreets(attempts, read.input, read.country).flatMap((attempt) =>
      attempt.candidates.map((candidate) =>
        scoreCandidate(read.readFor(candidate), { ...candidate, provider: attempt.provider as ScoredCandidate['provider'] }, {
          ...(read.country ? { country: read.country } : {}),
        }),
      ),
    );
    // Only results with usable coordinates can become the standardized address, and only those
    // recognisably the address asked for: never another street, never two components replaced.
    const usable = scored.filter((c) => hasCoordinates(c) && recognisable(c.componentVerdicts, c.precision));
    const { selected, consensus, confidence } = buildConsensus(usable, read.near);
    const decided = decideVerdict({ selected, confidence, thresholds });
    // What the caller stores and acts on, from the reading and the chosen candidate (answer-shape.ts).
    const { verdict, address, components, ...answer } = shapeAnswer({
      input: read.input,
      country: read.country,
      unresolved: read.unresolved,
      selected,
      usable,
      verdict: decided.verdict,
      thresholds,
      ...(read.near ? { near: read.near } : {}),
    });
    const result: ValidateResult = {
      verdict,
      confidence: selected ? confidence : 0,
      address,
      components,
      provider: selected?.provider ?? null,
      reasons: decided.reasons,
      consensus,
      ...answer,
    };
    if (debug) {
      result.candidates = scored.map((c) => ({
        provider: c.provider,
        components: c.components,
        ...(c.location ? { location: c.location } : {}),
        ...(c.providerConfidence !== undefined ? { providerConfidence: c.providerConfidence } : {}),
        ...(c.label ? { label: c.label } : {}),
        ...(c.raw !== undefined ? { raw: c.raw } : {}),
        confidence: c.confidence,
        componentVerdicts: c.componentVerdicts,
      }));
      result.trace = (attempts as ProviderAttempt[]).map((a) => a.step);
    }
    return result;
  }
}

function outcomeOf(result: ValidateResult, read: ValidateInput) {
  return { verdict: result.verdict, provider: result.provider, query: read.summary };
}
