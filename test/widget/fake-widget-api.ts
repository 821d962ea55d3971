import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { labelMatches } from '../../src/address/label-matches.js';
import type { GeoPoint } from '../../src/contract/address.js';
import type { SuggestionType, WidgetSuggestion } from '../../src/contract/autocomplete.js';
import type { HttpsPageServer } from '../support/https-page-server.js';

export interface RecordedRequest {
  query: string;
  sessionToken?: string;
  country?: string;
  near?: GeoPoint;
  types?: SuggestionType[];
  authorization?: string;
}

/** A scripted suggestion; its `type` (unless given) follows from its address, its `matches` from each query, as the service's do. */
export type FakeSuggestion = Omit<WidgetSuggestion, 'type' | 'matches'> & Partial<Pick<WidgetSuggestion, 'type' | 'matches'>>;

function answered(s: FakeSuggestion, query: string): WidgetSuggestion {
  const a = s.address;
  const type = s.type ?? (a.houseNumber ? 'address' : a.street ? 'street' : a.postcode ? 'postcode' : 'locality');
  return { ...s, type, matches: s.matches ?? labelMatches(query, s.label, a.country) };
}

export interface FakeWidgetApi {
  requests: RecordedRequest[];
  /** Queries whose connection the browser closed before the answer (aborted as stale). */
  aborted: string[];
  /** What the next answers look like. */
  mode: 'ok' | 'rate-limited' | 'error' | 'garbage';
  allowed: boolean;
  /** HTTP status of the access probe; anything but 200 means the service could not be asked. */
  accessStatus: number;
  /** Hold the answer to queries containing this text until release() (to make a request stale). */
  holdQueriesContaining: string | null;
  /** What an `ok` answer suggests (default SUGGESTIONS). */
  suggestions: FakeSuggestion[];
  release(): void;
}

export const SUGGESTIONS: FakeSuggestion[] = [
  { id: 'svc_s_1', label: 'Damrak 1, 1012 LG Amsterdam', provider: 'pdok', address: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' } },
  { id: 'svc_s_2', label: 'Damrak 10, 1012 LK Amsterdam', provider: 'pdok', address: { street: 'Damrak', houseNumber: '10', postcode: '1012 LK', city: 'Amsterdam', country: 'NL' } },
  { id: 'svc_s_3', label: 'Damrakpassage, Amsterdam', provider: 'photon', address: { street: 'Damrakpassage', city: 'Amsterdam', country: 'NL' } },
];

const TYPES: Record<string, string> = { js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', json: 'application/json' };

/**
 * A scripted stand-in for the service on the page's own origin: the built widget files, the access probe and
 * POST /v1/widget/autocomplete. Lets tests force 429s, failures and slow answers the real server gives only rarely.
 */
export function installFakeWidgetApi(server: HttpsPageServer, widgetDir: string): FakeWidgetApi {
  for (const name of readdirSync(widgetDir)) {
    const body = readFileSync(join(widgetDir, name));
    const type = TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
    server.route(`/widget/v1/${name}`, (_req, res) => void res.writeHead(200, { 'content-type': type }).end(body));
  }
  let waiting: (() => void)[] = [];
  const api: FakeWidgetApi = {
    requests: [],
    aborted: [],
    mode: 'ok',
    allowed: true,
    accessStatus: 200,
    holdQueriesContaining: null,
    suggestions: SUGGESTIONS,
    release: () => {
      waiting.forEach((w) => w());
      waiting = [];
    },
  };
  server.route('/widget/v1/access', (_req, res) => {
    if (api.accessStatus !== 200) return void res.writeHead(api.accessStatus, { 'content-type': 'text/plain' }).end('unavailable');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ allowed: api.allowed }));
  });
  server.route('/v1/widget/autocomplete', async (req, res, raw) => {
    const body = JSON.parse(raw) as RecordedRequest;
    api.requests.push({ ...body, authorization: req.headers.authorization });
    let closed = false;
    res.on('close', () => {
      closed = !res.writableFinished;
      if (closed) api.aborted.push(body.query);
    });
    if (api.holdQueriesContaining && body.query.includes(api.holdQueriesContaining)) await new Promise<void>((r) => waiting.push(r));
    if (closed) return;
    const json = { 'content-type': 'application/json' };
    if (api.mode === 'rate-limited') return void res.writeHead(429, json).end(JSON.stringify({ message: 'Widget autocomplete rate limit reached' }));
    if (api.mode === 'error') return void res.writeHead(500, json).end(JSON.stringify({ message: 'Internal error' }));
    if (api.mode === 'garbage') return void res.writeHead(200, json).end('<html>proxy error</html>');
    res.writeHead(200, json).end(JSON.stringify({ suggestions: api.suggestions.map((s) => answered(s, body.query)), sessionToken: body.sessionToken ?? null, cached: false }));
  });
  return api;
}
