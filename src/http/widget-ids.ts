import { LRUCache } from 'lru-cache';
import type { Sealer } from '../lib/seal.js';

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
