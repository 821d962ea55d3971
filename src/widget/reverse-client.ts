import type { GeoPoint } from '../contract/address.js';
import { parseSuggestions } from './response-guard.js';
import type { WidgetSuggestion } from './types.js';

/**
 * POST /v1/widget/reverse: the addresses nearest to the customer's position, nearest first.
 * Never throws: null for any failure (offline, a 429, a malformed answer), which the button reports.
 */
export async function fetchNearest(apiBase: string, token: string, at: GeoPoint, radiusMeters: number): Promise<WidgetSuggestion[] | null> {
  try {
    const res = await fetch(`${apiBase}/v1/widget/reverse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ lat: at.lat, lng: at.lng, radiusMeters, limit: 1 }),
      credentials: 'omit',
    });
    return res.ok ? parseSuggestions(await res.json()) : null;
  } catch {
    return null;
  }
}
