import type { DemoRateLimitError } from '../contract/errors.js';
import type { DemoValidateResponse, ValidateRequest } from '../contract/validate.js';
import type { ValidateResult } from '../engine/validate.js';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../engine/types.js';
import { isUnverified } from '../engine/unverified.js';
import type { Clock } from '../lib/clock.js';
import type { ExhaustedWindow, RateLimiter } from '../store/limits/rate-limiter.js';
import type { DemoSamples } from './instance-samples.js';
import { findSample } from './samples.js';
import { splitTrailingCountry } from './trailing-country.js';
import { DEMO_WINDOWS, type DemoLimitWindow, demoLimitKey } from './windows.js';

/** The two engine calls the demo may make: neither touches credits. */
export interface DemoEngine {
  cached(request: ValidateRequest, thresholds: Thresholds): Promise<ValidateResult | undefined>;
  uncached(request: ValidateRequest, thresholds: Thresholds, signal?: AbortSignal, requestId?: string): Promise<ValidateResult>;
}

export interface DemoValidatorDeps {
  engine: DemoEngine;
  limiter: RateLimiter;
  clock: Clock;
  /** Quoted in the 429 body: what signing up gets instead (SPEC `freeMonthlyCredits`). */
  freeMonthlyCredits: number;
  windows?: readonly DemoLimitWindow[];
  /** Which texts are samples and how each is answered (instance-samples.ts); default the recorded ones. */
  samples?: Pick<DemoSamples, 'recorded' | 'isLive'>;
}

const RECORDED_ONLY: Pick<DemoSamples, 'recorded' | 'isLive'> = { recorded: findSample, isLive: async () => false };

export type DemoAnswerSource = 'sample' | 'cache' | 'lookup';

export type DemoOutcome =
  /** `unverified`: a fresh lookup no provider answered (engine/unverified.ts). */
  | { kind: 'answer'; source: DemoAnswerSource; response: DemoValidateResponse; unverified?: boolean }
  | { kind: 'limited'; error: DemoRateLimitError };

export const DEMO_LIMIT_MESSAGE = 'Demo request allowance reached.';

/** The limiter backend failed: the demo fails closed rather than serve uncounted lookups. */
export class DemoLimiterUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Demo rate limiter unavailable', { cause });
    this.name = 'DemoLimiterUnavailableError';
  }
}

/**
 * POST /demo/validate (SPEC, DESIGN §8): recorded sample → cache → per-IP allowance → fresh lookup.
 * Only a fresh lookup of a text that is no sample costs allowance; nothing here costs credits.
 */
export class DemoValidator {
  private readonly windows: readonly DemoLimitWindow[];
  private readonly samples: Pick<DemoSamples, 'recorded' | 'isLive'>;

  constructor(private readonly deps: DemoValidatorDeps) {
    this.windows = deps.windows ?? DEMO_WINDOWS;
    this.samples = deps.samples ?? RECORDED_ONLY;
  }

  async validate(text: string, ip: string, signal?: AbortSignal, requestId?: string): Promise<DemoOutcome> {
    const sample = this.samples.recorded(text);
    if (sample) return { kind: 'answer', source: 'sample', response: sample.response };

    const { query, country } = splitTrailingCountry(text);
    const request: ValidateRequest = country ? { query, country } : { query };
    const hit = await this.deps.engine.cached(request, DEFAULT_THRESHOLDS);
    if (hit) return { kind: 'answer', source: 'cache', response: toDemoResponse(hit) };

    // A sample drawn from this instance's data is looked up, but never counts against the visitor (DESIGN §8).
    if (!(await this.samples.isLive(text))) {
      let limit;
      try {
        limit = await this.deps.limiter.hit(demoLimitKey(ip), this.windows, this.deps.clock.now());
      } catch (error) {
        throw new DemoLimiterUnavailableError(error);
      }
      if (!limit.allowed) return { kind: 'limited', error: this.limitError(limit.exhausted) };
    }

    const fresh = await this.deps.engine.uncached(request, DEFAULT_THRESHOLDS, signal, requestId);
    return { kind: 'answer', source: 'lookup', response: toDemoResponse(fresh), ...(isUnverified(fresh) ? { unverified: true } : {}) };
  }

  private limitError(exhausted: ExhaustedWindow[]): DemoRateLimitError {
    const limits = exhausted.map((w) => ({
      window: this.windowName(w.name),
      max: w.max,
      periodSeconds: w.periodSeconds,
      retryAfterSeconds: w.retryAfterSeconds,
    }));
    return {
      message: DEMO_LIMIT_MESSAGE,
      limits,
      retryAfterSeconds: Math.max(...limits.map((l) => l.retryAfterSeconds)),
      freeMonthlyCredits: this.deps.freeMonthlyCredits,
    };
  }

  private windowName(name: string): DemoLimitWindow['name'] {
    const window = this.windows.find((w) => w.name === name);
    if (!window) throw new Error(`Rate limiter reported an unknown demo window: ${name}`);
    return window.name;
  }
}

/** Exactly SPEC's DemoValidateResponse fields: no `cached`, no debug output. */
export function toDemoResponse(result: ValidateResult): DemoValidateResponse {
  const { verdict, confidence, address, components, provider, reasons, consensus, granularity, action, unresolved, alternatives } = result;
  return { verdict, confidence, address, components, provider, reasons, consensus, granularity, action, unresolved, alternatives };
}
