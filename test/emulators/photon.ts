import { createHash } from 'node:crypto';
import { countryName } from './countries.js';
import type { EmulatorAddress } from './dataset.js';
import { distanceBonus, type Entity, freeTextSearch, preferNear } from './search.js';
import { coordinate, nearestAddresses } from './reverse.js';
import { type Behaviour, type Emulator, json, type Reply, startEmulator, template } from './server.js';

/**
 * Photon `/api`: search-as-you-type over the dataset, answered as a GeoJSON FeatureCollection
 * whose properties carry OSM keys (`osm_type`, `osm_key`, `type` house/street/city, …).
 * `limit` and `lang` behave as on photon.komoot.io; an unsupported `lang` is a 400.
 */
const LANGUAGES = ['default', 'en', 'de', 'fr', 'it'];
const DEFAULT_LIMIT = 15;
/** Photon's layers (`layer=`, repeatable) and the kinds of the dataset each one holds. */
const LAYERS: Record<string, Entity['kind'] | undefined> = {
  house: 'address', street: 'street', city: 'city', locality: undefined, district: undefined, county: undefined, state: undefined, country: undefined, other: undefined,
};

function error(status: number, message: string): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: template('photon-error.json', { detail: message }) };
}

function osmId(entity: Entity): number {
  return Number.parseInt(createHash('md5').update(entity.key).digest('hex').slice(0, 9), 16);
}

function extent(entity: Entity): number[] {
  const lngs = entity.members.map((m) => m.lng);
  const lats = entity.members.map((m) => m.lat);
  const pad = entity.kind === 'city' ? 0.05 : 0.0004;
  const r = (v: number) => Math.round(v * 1e7) / 1e7;
  return [r(Math.min(...lngs) - pad), r(Math.max(...lats) + pad), r(Math.max(...lngs) + pad), r(Math.min(...lats) - pad)];
}

/**
 * Photon files a result's places by rank: `city` the municipality, `district` a village or
 * suburb inside it (a Dutch woonplaats inside a larger gemeente), `county` above.
 */
function places(entity: Entity): Record<string, string> {
  const district = entity.locality ?? (entity.municipality ? entity.city : undefined);
  return {
    city: entity.municipality ?? entity.city,
    ...(district ? { district } : {}),
    ...(entity.county ? { county: entity.county } : {}),
  };
}

export function photonFeature(entity: Entity, lang: string | undefined): Record<string, unknown> {
  const base = { country: countryName(entity.country, lang), countrycode: entity.country, ...(entity.state ? { state: entity.state } : {}) };
  const properties: Record<string, unknown> =
    entity.kind === 'address'
      ? { osm_type: 'N', osm_id: osmId(entity), osm_key: 'place', osm_value: 'house', ...base, ...places(entity), postcode: entity.postcode, housenumber: entity.houseNumber, street: entity.street, type: 'house' }
      : entity.kind === 'street'
        ? { osm_type: 'W', osm_id: osmId(entity), extent: extent(entity), osm_key: 'highway', osm_value: 'residential', ...base, ...places(entity), ...(entity.postcode ? { postcode: entity.postcode } : {}), name: entity.street, type: 'street' }
        : { osm_type: 'R', osm_id: osmId(entity), extent: extent(entity), osm_key: 'place', osm_value: entity.cityType ?? 'city', ...base, ...(entity.county ? { county: entity.county } : {}), name: entity.city, type: 'city' };
  return { geometry: { coordinates: [entity.lng, entity.lat], type: 'Point' }, type: 'Feature', properties };
}

/**
 * Photon `/reverse`: `lat`/`lon` (required), `radius` in kilometres (default 1 here), `limit`
 * (default 1), `layer` (`house` keeps address points), `lang`; the nearest features first, in
 * the same FeatureCollection as `/api`. Nothing near: an empty collection.
 */
function reverse(params: URLSearchParams, dataset: EmulatorAddress[]): Reply {
  const lat = coordinate(params.get('lat'), 90);
  const lon = coordinate(params.get('lon'), 180);
  if (lat === undefined || lon === undefined) return error(400, 'missing or invalid lat/lon parameter');
  const lang = params.get('lang') ?? undefined;
  if (lang !== undefined && !LANGUAGES.includes(lang)) return error(400, `language ${lang} is not supported, supported languages are: ${LANGUAGES.join(', ')}`);
  const radiusKm = params.get('radius') === null ? 1 : Number(params.get('radius'));
  const limit = params.get('limit') === null ? 1 : Number(params.get('limit'));
  if (!Number.isFinite(radiusKm) || radiusKm <= 0) return error(400, `invalid parameter 'radius': ${params.get('radius')}`);
  if (!Number.isInteger(limit) || limit < 1) return error(400, `invalid parameter 'limit': ${params.get('limit')}`);
  const layer = params.get('layer');
  if (layer !== null && layer !== 'house') return json(200, { features: [], type: 'FeatureCollection' });
  const features = nearestAddresses(dataset, lat, lon, radiusKm * 1000, limit).map((n) => photonFeature(n.entity, lang === 'default' ? undefined : lang));
  return json(200, { features, type: 'FeatureCollection' });
}

export const photonBehaviour: Behaviour = {
  basePath: '',
  handle(request, params, dataset: EmulatorAddress[]) {
    if (request.path === '/reverse' || request.path === '/reverse/') return reverse(params, dataset);
    if (request.path !== '/api' && request.path !== '/api/') return error(404, `Not found: ${request.path}`);
    const q = params.get('q');
    if (!q) return error(400, "missing search term 'q': /?q=berlin");
    const lang = params.get('lang') ?? undefined;
    if (lang !== undefined && !LANGUAGES.includes(lang)) return error(400, `language ${lang} is not supported, supported languages are: ${LANGUAGES.join(', ')}`);
    const limitParam = params.get('limit');
    const limit = limitParam === null ? DEFAULT_LIMIT : Number(limitParam);
    if (!Number.isInteger(limit) || limit < 1) return error(400, `invalid parameter 'limit': ${limitParam}`);
    // Location bias: `lat` and `lon` together, each a number in range, as photon.komoot.io checks them.
    const [lat, lon] = [params.get('lat'), params.get('lon')];
    if ((lat === null) !== (lon === null)) return error(400, "missing parameter 'lat' or 'lon': both or neither");
    const point = lat !== null && lon !== null ? { lat: Number(lat), lng: Number(lon) } : undefined;
    if (point && !(Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180)) return error(400, 'invalid search term: lat/lon out of range');
    const layers = params.getAll('layer');
    const unknown = layers.find((l) => !(l in LAYERS));
    if (unknown) return error(400, `invalid layer '${unknown}': expected one of ${Object.keys(LAYERS).join(', ')}`);
    const kinds = layers.length ? layers.map((l) => LAYERS[l]).filter((k): k is Entity['kind'] => k !== undefined) : (['address', 'street', 'city'] as const);
    const found = freeTextSearch(dataset, q, { kinds: [...kinds], prefixLast: true, requireHouseNumber: true });
    const matches = point ? preferNear(found, distanceBonus(point, 0.5)) : found;
    const features = matches.slice(0, limit).map((m) => photonFeature(m.entity, lang === 'default' ? undefined : lang));
    return json(200, { features, type: 'FeatureCollection' });
  },
  errorReply: (status) => error(status, status === 429 ? 'Too many requests' : 'Internal server error'),
};

export function startPhotonEmulator(opts: { dataset?: EmulatorAddress[] } = {}): Promise<Emulator> {
  return startEmulator(photonBehaviour, opts.dataset);
}
