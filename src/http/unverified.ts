import type { Context } from 'hono';
import { isUnverified } from '../engine/unverified.js';

/**
 * The additive signal that no provider answered (README "Operating it"): the body keeps SPEC's
 * shape, this header says the verdict is not a finding. Browsers may read it (exposed by CORS).
 */
export const UNVERIFIED_HEADER = 'X-Addressd-Unverified';
export const UNVERIFIED_VALUE = 'providers-unavailable';
/** On a batch: the indexes (0-based, comma-separated) of the items no provider answered. */
export const UNVERIFIED_ITEMS_HEADER = 'X-Addressd-Unverified-Items';
/** Response headers a cross-origin page may read. */
export const EXPOSED_HEADERS = [UNVERIFIED_HEADER, UNVERIFIED_ITEMS_HEADER, 'X-Request-Id'];

export function flagUnverified(c: Context, unverified: boolean | object): void {
  if (typeof unverified === 'object' ? isUnverified(unverified) : unverified) c.header(UNVERIFIED_HEADER, UNVERIFIED_VALUE);
}
