import type { ImportFormat } from '../types.js';

/**
 * A country holding at least this share of an OpenStreetMap extract's addresses is one the
 * extract was made for. Extracts are cut by a polygon a little wider than the region, so the
 * addresses of a neighbour near the border come along (Liechtenstein's extract: 19 Austrian
 * addresses of ~15,000, 0.1 %); a multi-country extract (DACH) holds each of its countries by
 * the million. Far apart, so the threshold is not delicate.
 */
const COVERING_SHARE = 0.1;

/**
 * The countries an import was made for, which `local` then answers for as checked (DESIGN §2):
 * the `--country` given; every country of a CSV (OpenAddresses names one, a plain CSV is the
 * operator's own list); for OpenStreetMap, the country holding the most of the extract's
 * addresses and any other holding at least COVERING_SHARE of them. We chose shares over
 * "the national boundary (admin_level 2) is in the extract": a city or regional extract holds
 * no national boundary, and a country's boundary relation often comes along with a neighbour's
 * extract through the border ways they share.
 */
export function coveredCountries(format: ImportFormat, option: string | undefined, addresses: ReadonlyMap<string, number>): string[] {
  const covered = new Set<string>(option ? [option] : []);
  if (format !== 'osm') for (const c of addresses.keys()) covered.add(c);
  else {
    const total = [...addresses.values()].reduce((a, b) => a + b, 0);
    const most = Math.max(0, ...addresses.values());
    for (const [c, n] of addresses) if (n > 0 && (n === most || n >= total * COVERING_SHARE)) covered.add(c);
  }
  return [...covered].sort();
}
