import type { GeoPoint } from '../contract/address.js';
import type { SuggestionType } from '../contract/autocomplete.js';
import { parseSuggestions } from './response-guard.js';
import type { WidgetSuggestion } from './types.js';

export interface SuggestRequest {
  query: string;
  country?: string;
  language?: string;
  limit?: number;
  sessionToken?: string;
  near?: GeoPoint;
  types?: SuggestionType[];
}

export type SuggestResult =
  | { kind: 'ok'; suggestions: WidgetSuggestion[] }
  | { kind: 'rate-limited' }
  | { kind: 'failed' }
  | { kind: 'aborted' };

/** POST /v1/widget/autocomplete. Never throws: every failure is a quiet result the UI can ignore. */
export async function fetchSuggestions(
  apiBase: string,
  token: string,
  body: SuggestRequest,
  signal: AbortSignal,
): Promise<SuggestResult> {
  try {
    const res = await fetch(`${apiBase}/v1/widget/autocomplete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
      credentials: 'omit',
    });
    if (res.status === 429) return { kind: 'rate-limited' };
    if (!res.ok) return { kind: 'failed' };
    const suggestions = parseSuggestions(await res.json());
    return suggestions ? { kind: 'ok', suggestions } : { kind: 'failed' };
  } catch {
    return signal.aborted ? { kind: 'aborted' } : { kind: 'failed' };
  }
}

/**
 * Asks the service whether this page's origin may use the token. The probe always answers 200 with
 * `Access-Control-Allow-Origin: *`, so a page outside the allowlist learns it without the browser
 * logging a CORS failure; the widget then stays a plain input. null: the service could not be asked
 * (offline, down), which is not a refusal.
 */
export async function checkAccess(apiBase: string, token: string): Promise<boolean | null> {
  try {
    const res = await fetch(`${apiBase}/widget/v1/access?token=${encodeURIComponent(token)}`, { credentials: 'omit' });
    if (!res.ok) return null;
    const body: unknown = await res.json();
    return typeof body === 'object' && body !== null && (body as { allowed?: unknown }).allowed === true;
  } catch {
    return null;
  }
}
