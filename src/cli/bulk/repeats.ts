import { LRUCache } from 'lru-cache';
import type { ValidateRequest } from '../../contract/validate.js';
import { cacheKey, withDataGenerations } from '../../engine/cache-key.js';
import type { ProviderRunner } from '../../engine/fan-out.js';
import type { ResultFields } from './output.js';

/** A complete answer a repeat may reuse: its fields and the verdict/provider of its usage event. */
export interface KnownAnswer {
  fields: ResultFields;
  verdict: string | null;
  provider: string | null;
  /** The usage event's query of a row given as components (free text rows report their own text). */
  query: string | null;
}

/** Rows remembered at once: a list's repeats are mostly near each other (sorted exports, households). */
const REMEMBERED = 200_000;

/**
 * Repeats inside one list: a row asking what an earlier row asked (the same request once
 * normalized, as the response cache keys it) is answered with that row's answer and billed as the
 * API bills a cache hit (one event, cached, 0 credits). Only complete answers are reused, as only
 * those are cached: a row no provider answered is looked up again.
 */
export class Repeats {
  private readonly known = new LRUCache<string, KnownAnswer>({ max: REMEMBERED });

  private readonly providers: readonly string[];

  constructor(private readonly runner: Pick<ProviderRunner, 'active' | 'eligible' | 'dataGenerations'>) {
    this.providers = runner.active();
  }

  /**
   * The request's part of its key, as the response cache keys it (a hash of the normalized
   * request): a run computes it as it reads the row, while the lookup threads are busy.
   */
  requestKey(request: ValidateRequest): string {
    const country = (request.country ?? request.components?.country)?.toUpperCase();
    return cacheKey('validate', {
      ...(request.query !== undefined ? { query: request.query } : {}),
      ...(request.components ? { components: request.components } : {}),
      ...(country ? { country } : {}),
      ...(request.language ? { language: request.language } : {}),
      providers: this.providers,
    });
  }

  /**
   * The key, with the data generation where `local` takes part, read when the row is about to be
   * looked up: a run that spans an import (hours of rows, a `--update` meanwhile) never reuses an
   * answer of the old data.
   */
  key(request: ValidateRequest, requestKey = this.requestKey(request)): string {
    const country = (request.country ?? request.components?.country)?.toUpperCase();
    return withDataGenerations(requestKey, this.runner.dataGenerations(this.runner.eligible('geocode', country), country));
  }

  get(key: string): KnownAnswer | undefined {
    return this.known.get(key);
  }

  remember(key: string, answer: KnownAnswer): void {
    this.known.set(key, answer);
  }
}
