import type { AddressComponents } from '../../contract/address.js';
import { placeNames } from '../place-names.js';
import type { Precision, ProviderCandidate } from '../provider.js';
import { type PdokDoc, WKT_POINT } from './wire.js';

const PRECISION: Record<string, Precision> = {
  adres: 'address',
  weg: 'street',
  postcode: 'postcode',
  woonplaats: 'locality',
  gemeente: 'locality',
  provincie: 'region',
};

/**
 * BAG keeps number, letter and addition apart; we write them the Dutch way as one
 * houseNumber: `12` + `B` → `12B`, `12` + addition `2` → `12-2`, all three → `12B-2`.
 */
export function pdokHouseNumber(doc: Pick<PdokDoc, 'huisnummer' | 'huisletter' | 'huisnummertoevoeging'>): string | undefined {
  if (doc.huisnummer === undefined) return undefined;
  const addition = doc.huisnummertoevoeging?.trim();
  return `${doc.huisnummer}${doc.huisletter?.trim().toUpperCase() ?? ''}${addition ? `-${addition}` : ''}`;
}

/** BAG stores `1012LG`; the postal form is `1012 LG`. */
export function pdokPostcode(value: string | undefined): string | undefined {
  const compact = value?.replace(/\s+/g, '').toUpperCase();
  if (!compact) return undefined;
  return /^\d{4}[A-Z]{2}$/.test(compact) ? `${compact.slice(0, 4)} ${compact.slice(4)}` : compact;
}

export function parsePoint(wkt: string | undefined): { lat: number; lng: number } | undefined {
  const m = wkt ? WKT_POINT.exec(wkt) : null;
  if (!m) return undefined;
  const lng = Number(m[1]);
  const lat = Number(m[2]);
  return Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : undefined;
}

/**
 * Solr scores are only comparable within one response, so providerConfidence is the doc's
 * score relative to the best score of the response (`maxScore`): 1 for the top hit, lower for
 * weaker ones. How well the top hit matches the input is judged by the engine's comparison.
 */
export function pdokConfidence(score: number | undefined, maxScore: number | undefined): number | undefined {
  if (score === undefined || maxScore === undefined || !(maxScore > 0)) return undefined;
  return Math.min(1, Math.max(0, score / maxScore));
}

export function mapPdokDoc(doc: PdokDoc, maxScore: number | undefined): ProviderCandidate {
  const components: AddressComponents = { country: 'NL' };
  const houseNumber = pdokHouseNumber(doc);
  const postcode = pdokPostcode(doc.postcode);
  if (doc.straatnaam) components.street = doc.straatnaam;
  if (houseNumber) components.houseNumber = houseNumber;
  if (postcode) components.postcode = postcode;
  if (doc.woonplaatsnaam) components.city = doc.woonplaatsnaam;
  if (doc.provincienaam) components.state = doc.provincienaam;
  const candidate: ProviderCandidate = { components, precision: PRECISION[doc.type] ?? 'locality', raw: doc };
  const location = parsePoint(doc.centroide_ll);
  if (location) candidate.location = location;
  const confidence = pdokConfidence(doc.score, maxScore);
  if (confidence !== undefined) candidate.providerConfidence = confidence;
  if (doc.weergavenaam) candidate.label = doc.weergavenaam;
  // The woonplaats is the town people write (Westkapelle); the gemeente may be a larger one (Veere).
  const places = placeNames(doc.woonplaatsnaam, doc.gemeentenaam);
  if (places) candidate.placeNames = places;
  return candidate;
}
