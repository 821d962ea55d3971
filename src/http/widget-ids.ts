import { LRUCache } from 'lru-cache';
import type { Suggestion, WidgetSuggestion } from '../contract/autocomplete.js';
import { CreditsExhaustedError } from '../engine/errors.js';
import type { Sealer } from '../lib/seal.js';
import { HttpError, Messages } from './errors.js';

/** Associated data that binds a suggestion id to the token it was issued to: it opens under no other. */
export const suggestionIdBinding = (tokenId: string): string => `widget:${tokenId}`;

/**
 * Opaque suggestion ids of the widget endpoints (autocomplete and reverse), sealed once per token:
 * AES-GCM setup cost more than the rest of a cache hit. The same suggestion to the same token
 * gets the same id; it still opens under no other.
 */
export function widgetSuggestionIds(sealer: Sealer): (tokenId: string, s: { provider: string; label: string }) => string {
  const sealedIds = new LRUCache<string, string>({ max: 20_000 });
  return (tokenId, s) => {
    const key = `${tokenId}\n${s.provider}\n${s.label}`;
    let id = sealedIds.get(key);
    if (id === undefined) {
      id = `svc_s_${sealer.seal(JSON.stringify({ p: s.provider, l: s.label }), suggestionIdBinding(tokenId))}`;
      sealedIds.set(key, id);
    }
    return id;
  };
}

/** Suggestions as the browser sees them (autocomplete and reverse): a sealed id, never the provider's payload or location. */
export function widgetSuggestions(sealer: Sealer): (tokenId: string, s: Suggestion) => WidgetSuggestion {
  const idOf = widgetSuggestionIds(sealer);
  return (tokenId, s) => ({
    id: idOf(tokenId, s),
    label: s.label,
    provider: s.provider,
    address: s.components,
    type: s.type,
    matches: s.matches,
    ...(s.action ? { action: s.action } : {}),
  });
}

/** Credits ran out between the gate and the reservation (a concurrent call spent them): the widget's 429. */
export function widgetCreditsError(error: unknown): never {
  if (error instanceof CreditsExhaustedError) throw new HttpError(429, Messages.widgetCredits);
  throw error;
}
