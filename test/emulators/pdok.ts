import type { EmulatorAddress } from './dataset.js';
import { type PdokDoc, pdokDoc } from './pdok-docs.js';
import { distanceBonus, entitiesOf, freeTextSearch, type Match, preferNear } from './search.js';
import { coordinate, nearestAddresses } from './reverse.js';
import { type Behaviour, type Emulator, json, type Reply, startEmulator, template } from './server.js';
import { normalizeText, tokenize } from './text.js';

/**
 * PDOK Locatieserver v3_1 (`/free`, `/suggest`, `/lookup`). Like the real one it serves only
 * Dutch data, rejects query parameters outside its OpenAPI description, honours `fq`, `fl`,
 * `rows`, `start`, and answers `{"response": {...}}` Solr envelopes.
 */
const BASE_PATH = '/bzk/locatieserver/search/v3_1';
const ALLOWED: Record<string, string[]> = {
  '/free': ['q', 'fq', 'fl', 'sort', 'df', 'start', 'rows', 'wt', 'bq', 'lat', 'lon'],
  '/suggest': ['q', 'fq', 'fl', 'sort', 'df', 'qf', 'start', 'rows', 'wt', 'bq', 'lat', 'lon'],
  '/lookup': ['id', 'fl', 'wt'],
  '/reverse': ['lat', 'lon', 'X', 'Y', 'type', 'distance', 'fq', 'fl', 'start', 'rows', 'wt'],
};
const DEFAULT_FL: Record<string, string> = {
  '/free':
    'id identificatie weergavenaam bron type openbareruimte_id openbareruimtetype straatnaam straatnaam_verkort huis_nlt huisnummer huisletter huisnummertoevoeging postcode woonplaatscode woonplaatsnaam gemeentecode gemeentenaam provinciecode provincienaam provincieafkorting centroide_ll centroide_rd score',
  '/suggest': 'id weergavenaam type score',
  '/lookup': '*',
  '/reverse': 'id weergavenaam type score afstand',
};
const TITLES: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function problem(status: number, detail: string): Reply {
  return { status, contentType: 'application/problem+json', body: template('pdok-error.json', { status, title: TITLES[status] ?? 'Error', detail }) };
}

/** `fl` as Solr reads it: space or comma separated, `*` for every stored field, `score` on request. */
function project(doc: PdokDoc, score: number, fl: string): PdokDoc {
  const fields = fl.split(/[\s,]+/).filter(Boolean);
  const out: PdokDoc = {};
  for (const [k, v] of Object.entries(doc)) if (fields.includes('*') || fields.includes(k)) out[k] = v;
  if (fields.includes('score')) out.score = score;
  return out;
}

/** `type:adres`, `type:(adres OR weg)`, `postcode:1012LG`: exact match on a stored field. */
function filter(fqs: string[]): (doc: PdokDoc) => boolean {
  const clauses = fqs.map((fq) => {
    const m = /^(\w+):\(?(.*?)\)?$/.exec(fq.trim());
    return m ? { field: m[1]!, values: m[2]!.split(/\s+OR\s+/i).map((v) => v.trim().replace(/^"|"$/g, '').toLowerCase()) } : undefined;
  });
  return (doc) => clauses.every((c) => !c || c.values.includes(String(doc[c.field] ?? '').toLowerCase()));
}

function highlight(label: string, query: string): string {
  const tokens = tokenize(query);
  return label.replace(/[\p{L}\p{N}]+/gu, (word) => (tokens.some((t) => normalizeText(word).startsWith(t)) ? `<b>${word}</b>` : word));
}

function search(path: string, params: URLSearchParams, dataset: EmulatorAddress[], ignoreSuggestFl: boolean): Reply {
  const rows = Number(params.get('rows') ?? '10');
  const start = Number(params.get('start') ?? '0');
  if (!Number.isInteger(rows) || rows < 0 || rows > 100) return problem(400, 'rows must be an integer between 0 and 100');
  if (!Number.isInteger(start) || start < 0) return problem(400, 'start must be a non-negative integer');
  const q = params.get('q');
  if (path === '/suggest' && !q) return problem(400, "query parameter 'q' is required");
  const nl = dataset.filter((a) => a.country === 'NL');
  // `lat`/`lon` (WGS84): objects near the point score higher, as Locatieserver boosts them.
  const [lat, lon] = [params.get('lat'), params.get('lon')];
  const point = lat !== null && lon !== null ? { lat: Number(lat), lng: Number(lon) } : undefined;
  if ((lat === null) !== (lon === null) || (point && !(Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180))) {
    return problem(400, 'lat and lon must be given together, as WGS84 degrees');
  }
  const found: Match[] =
    q && q.trim() !== '*:*'
      ? freeTextSearch(nl, q, { kinds: ['address', 'street', 'postcode', 'city'], prefixLast: path === '/suggest' })
      : entitiesOf(nl).map((entity) => ({ entity, score: 1, matched: new Set() }));
  const matches = point ? preferNear(found, distanceBonus(point, 0.5)) : found;
  const keep = filter(params.getAll('fq'));
  const typeBoost = { address: 0.4, street: 0.3, postcode: 0.2, city: 0.1 };
  const bias = point ? distanceBonus(point, 0.5) : () => 0;
  const hits = matches
    .map((m) => ({ doc: pdokDoc(m.entity), score: Math.round(((m.score + bias(m.entity)) * 9 + typeBoost[m.entity.kind]) * 1e6) / 1e6 }))
    .filter((h) => keep(h.doc))
    .sort((a, b) => b.score - a.score);
  const fl = (path === '/suggest' && ignoreSuggestFl ? undefined : params.get('fl')) ?? DEFAULT_FL[path]!;
  const page = hits.slice(start, start + rows);
  const response = { numFound: hits.length, start, maxScore: hits[0]?.score ?? 0, ...(path === '/free' ? { numFoundExact: true } : {}), docs: page.map((h) => project(h.doc, h.score, fl)) };
  if (path === '/free') return json(200, { response });
  const highlighting = Object.fromEntries(page.map((h) => [h.doc.id as string, { suggest: [highlight(String(h.doc.weergavenaam), q ?? '')] }]));
  return json(200, { response, highlighting });
}

function lookup(params: URLSearchParams, dataset: EmulatorAddress[]): Reply {
  const id = params.get('id');
  if (!id) return problem(400, "query parameter 'id' is required");
  const docs = entitiesOf(dataset.filter((a) => a.country === 'NL'))
    .map(pdokDoc)
    .filter((d) => d.id === id);
  const fl = params.get('fl') ?? DEFAULT_FL['/lookup']!;
  const maxScore = docs.length ? 15.693415 : 0;
  return json(200, { response: { numFound: docs.length, start: 0, maxScore, numFoundExact: true, docs: docs.map((d) => project(d, maxScore, fl)) } });
}

export interface PdokEmulatorOptions {
  dataset?: EmulatorAddress[];
  /** `/suggest` answers only its default fields (id, weergavenaam, type, score) whatever `fl` says, so clients must `/lookup`. */
  suggestIgnoresFl?: boolean;
}

/**
 * `/reverse?lat=&lon=`: the Dutch addresses nearest to a WGS 84 position, nearest first, each
 * with `afstand` (metres, one decimal); `type` (default `adres`), `distance` (metres), `rows`
 * (default 10), `fl`. RD coordinates (`X`/`Y`) are not emulated: a 400.
 */
function reverse(params: URLSearchParams, dataset: EmulatorAddress[]): Reply {
  const lat = coordinate(params.get('lat'), 90);
  const lon = coordinate(params.get('lon'), 180);
  if (lat === undefined || lon === undefined) return problem(400, 'lat and lon are required (RD X/Y not supported here)');
  const rows = Number(params.get('rows') ?? '10');
  if (!Number.isInteger(rows) || rows < 0 || rows > 100) return problem(400, 'rows must be an integer between 0 and 100');
  const distance = params.get('distance') === null ? Number.POSITIVE_INFINITY : Number(params.get('distance'));
  if (!(distance > 0)) return problem(400, 'distance must be a positive number of metres');
  const types = params.getAll('type');
  if (types.length > 0 && !types.includes('adres')) return json(200, { response: { numFound: 0, start: 0, maxScore: 0, numFoundExact: true, docs: [] } });
  const near = nearestAddresses(dataset.filter((a) => a.country === 'NL'), lat, lon, distance, rows);
  const fl = params.get('fl') ?? DEFAULT_FL['/reverse']!;
  const docs = near.map((n) => ({ ...project(pdokDoc(n.entity), 1, fl), ...(/(^|[\s,])(afstand|\*)([\s,]|$)/.test(fl) ? { afstand: Math.round(n.distanceM * 10) / 10 } : {}) }));
  return json(200, { response: { numFound: docs.length, start: 0, maxScore: 1, numFoundExact: true, docs } });
}

export function pdokBehaviour(opts: PdokEmulatorOptions = {}): Behaviour {
  return {
    basePath: BASE_PATH,
    handle(request, params, dataset) {
      const allowed = ALLOWED[request.path];
      if (!allowed) return problem(404, `no such endpoint: ${request.path}`);
      const unknown = [...params.keys()].find((k) => !allowed.includes(k));
      if (unknown) return problem(400, `unknown query parameter: ${unknown}`);
      if (request.path === '/reverse') return reverse(params, dataset);
      return request.path === '/lookup' ? lookup(params, dataset) : search(request.path, params, dataset, opts.suggestIgnoresFl === true);
    },
    errorReply: (status) => problem(status, status === 429 ? 'Rate limit exceeded' : 'The service could not process the request'),
  };
}

export function startPdokEmulator(opts: PdokEmulatorOptions = {}): Promise<Emulator> {
  return startEmulator(pdokBehaviour(opts), opts.dataset);
}
