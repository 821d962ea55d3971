import { createHash } from 'node:crypto';
import { countryName } from './countries.js';
import { type EmulatorAddress, readFixture } from './dataset.js';
import { type Entity, freeTextSearch, type Match, preferNear, structuredSearch } from './search.js';
import { coordinate, nearestAddresses } from './reverse.js';
import { type Behaviour, type Emulator, json, type Reply, startEmulator, template } from './server.js';

/**
 * Nominatim `/search`, free-form (`q=`) and structured (`street=`, `city=`, `postalcode=`,
 * `state=`, `country=`), answering `format=jsonv2` (or `json`) arrays with `addressdetails`.
 * Like the public instance it refuses requests without an identifying User-Agent, and `q`
 * together with structured parameters is a 400.
 */
const STRUCTURED = ['amenity', 'street', 'city', 'county', 'state', 'country', 'postalcode'] as const;
const LICENCE = 'Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright';
const GENERIC_AGENTS = ['', 'node', 'undici'];
/** Places OSM tags `place=town`, so Nominatim reports them under `address.town`. */
const TOWNS = new Set(['Nieuwegein', 'Amersfoort', 'Cupertino']);

function error(status: number, message: string): Reply {
  return { status, contentType: 'application/json; charset=utf-8', body: template('nominatim-error.json', { status, detail: message }) };
}

function html(status: number, fixture: string): Reply {
  return { status, contentType: 'text/html; charset=utf-8', body: readFixture(fixture) };
}

function id(entity: Entity, salt: string): number {
  return Number.parseInt(createHash('md5').update(salt + entity.key).digest('hex').slice(0, 8), 16);
}

const KIND: Record<Entity['kind'], { osm?: string; category: string; type: string; rank: number; addresstype: string }> = {
  address: { osm: 'node', category: 'place', type: 'house', rank: 30, addresstype: 'place' },
  street: { osm: 'way', category: 'highway', type: 'residential', rank: 26, addresstype: 'road' },
  postcode: { category: 'place', type: 'postcode', rank: 21, addresstype: 'postcode' },
  city: { osm: 'relation', category: 'boundary', type: 'administrative', rank: 16, addresstype: 'city' },
};

function place(m: Match, format: string, details: boolean, language: string | undefined): Record<string, unknown> {
  const e = m.entity;
  const k = KIND[e.kind];
  const country = countryName(e.country, language);
  const cityKey = e.cityType ?? (TOWNS.has(e.city) ? 'town' : 'city');
  const localityKey = e.localityType ?? 'village';
  // Like the real server, `address` keeps one name per key, the lowest: a village inside a
  // municipality that is also an OSM village hides the municipality, which only display_name names.
  const address = {
    ...(e.kind === 'address' ? { house_number: e.houseNumber } : {}),
    ...(e.kind === 'address' || e.kind === 'street' ? { road: e.street } : {}),
    ...(e.locality ? { [localityKey]: e.locality } : {}),
    ...(e.locality && localityKey === cityKey ? {} : { [cityKey]: e.city }),
    ...(e.municipality ? { municipality: e.municipality } : {}),
    ...(e.county ? { county: e.county } : {}),
    ...(e.state ? { state: e.state } : {}),
    ...(e.kind !== 'city' && e.postcode ? { postcode: e.postcode } : {}),
    country,
    country_code: e.country.toLowerCase(),
  };
  const lats = e.members.map((a) => a.lat);
  const lngs = e.members.map((a) => a.lng);
  const pad = e.kind === 'city' ? 0.1 : e.kind === 'address' ? 0.00005 : 0.0005;
  const name = e.kind === 'address' ? '' : e.kind === 'street' ? e.street : e.kind === 'postcode' ? e.postcode : e.city;
  const display = [
    e.kind === 'address' ? e.houseNumber : undefined,
    e.kind === 'address' || e.kind === 'street' ? e.street : undefined,
    e.locality,
    e.city,
    e.municipality,
    e.county,
    e.state,
    e.kind === 'city' ? undefined : e.postcode,
    country,
  ];
  return {
    place_id: id(e, 'place'),
    licence: LICENCE,
    ...(k.osm ? { osm_type: k.osm, osm_id: id(e, 'osm') } : {}),
    lat: String(e.lat),
    lon: String(e.lng),
    ...(format === 'jsonv2' ? { category: k.category, type: k.type, place_rank: k.rank } : { class: k.category, type: k.type }),
    importance: Math.round((e.kind === 'city' ? 0.6 : 0.2) * (0.5 + m.score / 2) * 1e6) / 1e6,
    ...(format === 'jsonv2' ? { addresstype: k.addresstype, name } : {}),
    display_name: display.filter(Boolean).join(', '),
    ...(details ? { address } : {}),
    boundingbox: [Math.min(...lats) - pad, Math.max(...lats) + pad, Math.min(...lngs) - pad, Math.max(...lngs) + pad].map((v) => String(Math.round(v * 1e7) / 1e7)),
  };
}

/** How far `/reverse` looks for a house at each zoom (building level 18 is a few dozen metres). */
const REVERSE_REACH_M: Record<number, number> = { 18: 60, 17: 150, 16: 300 };

/**
 * Nominatim `/reverse?lat=&lon=&format=jsonv2&addressdetails=1&zoom=18`: exactly one place (the
 * nearest address point within the zoom's reach) as `/search` renders it, or, where nothing is
 * near, HTTP 200 with `{"error":"Unable to geocode"}`. A missing coordinate is a 400.
 */
function reverse(request: { headers: Record<string, string> }, params: URLSearchParams, dataset: EmulatorAddress[]): Reply {
  const lat = coordinate(params.get('lat'), 90);
  const lon = coordinate(params.get('lon'), 180);
  if (lat === undefined || lon === undefined) return error(400, "Parameter 'lat' and 'lon' must be given and be valid coordinates.");
  const format = params.get('format') ?? 'xml';
  if (format !== 'json' && format !== 'jsonv2') return error(400, `Parameter 'format' must be json or jsonv2 here (got ${format}).`);
  const zoom = Number(params.get('zoom') ?? '18');
  const [near] = nearestAddresses(dataset, lat, lon, REVERSE_REACH_M[zoom] ?? 60, 1);
  if (!near) return json(200, { error: 'Unable to geocode' });
  const language = params.get('accept-language') ?? request.headers['accept-language'];
  return json(200, place({ entity: near.entity, score: 1, matched: new Set() }, format, params.get('addressdetails') !== '0', language));
}

export const nominatimBehaviour: Behaviour = {
  basePath: '',
  handle(request, params, dataset: EmulatorAddress[]) {
    const reversing = request.path === '/reverse' || request.path === '/reverse.php';
    if (request.path !== '/search' && request.path !== '/search.php' && !reversing) return error(404, `Not found: ${request.path}`);
    const agent = request.headers['user-agent'] ?? '';
    if (GENERIC_AGENTS.includes(agent.toLowerCase()) && !request.headers.referer) return html(403, 'nominatim-blocked.html');
    if (reversing) return reverse(request, params, dataset);
    const format = params.get('format') ?? 'jsonv2';
    if (format !== 'json' && format !== 'jsonv2') return error(400, `Parameter 'format' must be json or jsonv2 here (got ${format}).`);
    const structured = Object.fromEntries(STRUCTURED.flatMap((k) => (params.get(k) ? [[k, params.get(k)!]] : [])));
    const q = params.get('q');
    if (q && Object.keys(structured).length > 0) {
      return error(400, "Structured query parameters (amenity, street, city, county, state, postalcode, country) cannot be used together with 'q' parameter.");
    }
    // `viewbox=<x1>,<y1>,<x2>,<y2>` (two corners, lon/lat): places inside are preferred; with `bounded=1` only they are found.
    const viewbox = params.get('viewbox');
    const box = viewbox?.split(',').map(Number);
    if (viewbox !== null && (box?.length !== 4 || box.some((v) => !Number.isFinite(v)))) {
      return error(400, "Bad parameter 'viewbox'. Expected 4 coordinates.");
    }
    const inside = (e: Entity) => {
      const [x1, y1, x2, y2] = box as [number, number, number, number];
      return e.lng >= Math.min(x1, x2) && e.lng <= Math.max(x1, x2) && e.lat >= Math.min(y1, y2) && e.lat <= Math.max(y1, y2);
    };
    const limit = Math.min(40, Math.max(1, Number(params.get('limit') ?? '10') || 10));
    const codes = (params.get('countrycodes') ?? '').split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
    const scoped = codes.length ? dataset.filter((a) => codes.includes(a.country)) : dataset;
    let matches = q
      ? freeTextSearch(scoped, q, { kinds: ['address', 'street', 'postcode', 'city'], requireHouseNumber: true })
      : Object.keys(structured).length
        ? structuredSearch(scoped, structured)
        : [];
    if (box) matches = params.get('bounded') === '1' ? matches.filter((m) => inside(m.entity)) : preferNear(matches, (e) => (inside(e) ? 0.5 : 0));
    // Nominatim ranks by relevance and drops what explains the query much worse than the best hit.
    const best = Math.max(0, ...matches.map((m) => m.score));
    const seenPostcodes = new Set<string>();
    matches = matches.filter((m) => {
      if (m.score < best - 0.15) return false;
      if (m.entity.kind !== 'postcode') return true;
      const key = `${m.entity.country}|${m.entity.postcode}`;
      return !seenPostcodes.has(key) && Boolean(seenPostcodes.add(key));
    });
    const language = params.get('accept-language') ?? request.headers['accept-language'];
    const places = matches.slice(0, limit).map((m) => place(m, format, params.get('addressdetails') === '1', language));
    return json(200, places);
  },
  errorReply: (status) => (status === 429 ? html(429, 'nominatim-over-limit.html') : error(status, 'Internal Server Error')),
};

export function startNominatimEmulator(opts: { dataset?: EmulatorAddress[] } = {}): Promise<Emulator> {
  return startEmulator(nominatimBehaviour, opts.dataset);
}
