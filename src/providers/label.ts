import type { AddressComponents } from '../contract/address.js';

/** Countries that write the house number before the street ("10 Downing Street"). */
const NUMBER_FIRST = new Set(['US', 'GB', 'IE', 'FR', 'CA', 'AU', 'NZ', 'LU', 'IL', 'TH']);

/**
 * A one-line display label for providers that send none (Photon). Follows the country's
 * habit for the house number; the engine never parses labels, they are for people.
 */
export function formatLabel(c: AddressComponents, name?: string, countryName?: string): string {
  const numberFirst = c.country !== undefined && NUMBER_FIRST.has(c.country);
  const line1 = c.street ? (c.houseNumber ? (numberFirst ? `${c.houseNumber} ${c.street}` : `${c.street} ${c.houseNumber}`) : c.street) : undefined;
  const line2 = [c.postcode, c.city].filter(Boolean).join(' ') || undefined;
  // A town or region result has no street line: its state tells same-named places apart.
  const region = line1 === undefined && c.state !== undefined && c.state !== c.city ? c.state : undefined;
  const parts = [name && name !== c.street && name !== c.city ? name : undefined, line1, line2, region, countryName];
  return parts.filter((p): p is string => Boolean(p)).join(', ');
}
