import type { GeoPoint } from '../contract/address.js';

/**
 * The customer's position for the widget (issue 35): from the page (`data-addressd-near`, the
 * `near` option) or, only where the page opted in, from the browser once the customer allows it.
 * Shared with the "use my location" button, so the browser is asked at most once per page.
 */

/** `"52.37,4.89"` (lat,lng in degrees) → a point; anything else, ranges included, → undefined. */
export function parseNear(value: string | null | undefined): GeoPoint | undefined {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value ?? '');
  if (!m) return undefined;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : undefined;
}

/** A point rounded to about a kilometre: all the ranking uses, and no more of the customer's whereabouts than that. */
export function coarse(p: GeoPoint): GeoPoint {
  return { lat: Math.round(p.lat * 100) / 100, lng: Math.round(p.lng * 100) / 100 };
}

let asked: Promise<GeoPoint | undefined> | undefined;

/**
 * The browser's position, asked once per page (the first caller triggers the permission prompt;
 * later callers share the answer). Resolves undefined when the customer declines, the browser has
 * no geolocation or it times out: a refusal changes nothing and is not an error worth logging.
 */
export function browserPosition(timeoutMs = 10_000): Promise<GeoPoint | undefined> {
  const pending =
    asked ??
    new Promise<GeoPoint | undefined>((resolve) => {
      const geo = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
      if (!geo) return resolve(undefined);
      geo.getCurrentPosition(
        (pos) => resolve({ lat: pos.coords.latitude, lng: pos.coords.longitude }),
        () => resolve(undefined),
        { enableHighAccuracy: false, maximumAge: 600_000, timeout: timeoutMs },
      );
    }).then((point) => {
      // A declined or failed request may be granted later (the customer changes the site setting): ask again then.
      if (!point) asked = undefined;
      return point;
    });
  asked = pending;
  return pending;
}
