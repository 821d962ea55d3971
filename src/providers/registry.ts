import type { Dispatcher } from 'undici';
import type { Config } from '../config.js';
import { PROVIDER_IDS, type ProviderId } from '../contract/enums.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { HttpClient } from './http.js';
import { createNominatimProvider, isPublicNominatim } from './nominatim/adapter.js';
import { createPdokProvider } from './pdok/adapter.js';
import { createPhotonProvider } from './photon/adapter.js';
import type { Provider } from './provider.js';
import { SlotThrottle } from './throttle.js';

/** The configured providers; the runner asks it, never the adapters' modules. */
export interface ProviderSet {
  /** PROVIDERS in config order, as configured: may contain unknown ids or duplicates. */
  enabled: readonly string[];
  /** Enabled ids that have a provider here (known and available), config order, no duplicates. */
  active: readonly ProviderId[];
  get(id: string): Provider | undefined;
  /**
   * Whether an active provider can be reached now: an HTTP provider's base URL answers (any
   * status), `local` has data. Never rejects; for the start-up log line. Absent on test doubles.
   */
  probe?(id: ProviderId, signal: AbortSignal): Promise<{ reachable: boolean; detail: string }>;
  /** Closes the shared HTTP agent (`local` is closed by whoever opened its index). */
  close(): Promise<void>;
}

export interface ProviderExtras {
  /** Built by the local-index code when an index exists; absent means `local` is unavailable. */
  local?: Provider;
  /** Tests inject an undici MockAgent; production uses one keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** Time source of the public Nominatim throttle. */
  clock?: Clock;
}

interface FactoryContext {
  config: Config;
  http: HttpClient;
  extra: ProviderExtras;
}

/** The public Nominatim allows 1 request/s (usage policy). */
const PUBLIC_NOMINATIM_INTERVAL_MS = 1000;

const FACTORIES: Record<ProviderId, (ctx: FactoryContext) => Provider | undefined> = {
  pdok: ({ config, http }) => createPdokProvider({ baseUrl: config.PDOK_URL, http }),
  photon: ({ config, http }) => createPhotonProvider({ baseUrl: config.PHOTON_URL, http }),
  nominatim: ({ config, http, extra }) =>
    createNominatimProvider({
      baseUrl: config.NOMINATIM_URL,
      http,
      // Waiting longer than half the timeout for a slot leaves too little for the request
      // itself: such calls are `skipped` at once instead of timing out (and tripping the breaker).
      ...(isPublicNominatim(config.NOMINATIM_URL)
        ? {
            throttle: new SlotThrottle({
              intervalMs: PUBLIC_NOMINATIM_INTERVAL_MS,
              maxWaitMs: Math.floor(config.PROVIDER_TIMEOUT_MS / 2),
              clock: extra.clock ?? systemClock,
            }),
          }
        : {}),
    }),
  local: ({ extra }) => extra.local,
};

const COVERAGE: Partial<Record<ProviderId, (config: Config) => '*' | string[]>> = {
  pdok: (config) => config.PDOK_COUNTRIES,
  photon: (config) => config.PHOTON_COUNTRIES,
  nominatim: (config) => config.NOMINATIM_COUNTRIES,
};

/** Configured coverage can only narrow what the provider itself covers. */
function narrowCoverage(provider: Provider, countries: '*' | string[]): Provider {
  if (countries === '*') return provider;
  const inner = provider.covers.bind(provider);
  return Object.assign(Object.create(provider) as Provider, {
    covers: (country: string | undefined) =>
      inner(country) && (country === undefined || countries.includes(country.toUpperCase())),
  });
}

const BASE_URL: Partial<Record<ProviderId, (config: Config) => string>> = {
  pdok: (config) => config.PDOK_URL,
  photon: (config) => config.PHOTON_URL,
  nominatim: (config) => config.NOMINATIM_URL,
};

async function probe(provider: Provider | undefined, url: string | undefined, http: HttpClient, signal: AbortSignal) {
  if (!provider) return { reachable: false, detail: 'not configured' };
  if (!url) return provider.available?.() === false ? { reachable: false, detail: 'no data' } : { reachable: true, detail: 'has data' };
  const started = performance.now();
  try {
    const status = await http.reach(new URL(url), signal);
    return { reachable: true, detail: `HTTP ${status} in ${Math.round(performance.now() - started)} ms` };
  } catch (error) {
    const detail = signal.aborted ? 'no answer in time' : error instanceof Error ? error.message : String(error);
    return { reachable: false, detail };
  }
}

function isProviderId(id: string): id is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(id);
}

export function createProviders(config: Config, extra: ProviderExtras = {}): ProviderSet {
  const http = new HttpClient({ userAgent: config.USER_AGENT, ...(extra.dispatcher ? { dispatcher: extra.dispatcher } : {}) });
  const built = new Map<ProviderId, Provider>();
  for (const id of new Set(config.PROVIDERS)) {
    if (!isProviderId(id)) continue;
    const provider = FACTORIES[id]({ config, http, extra });
    if (provider) built.set(id, narrowCoverage(provider, COVERAGE[id]?.(config) ?? '*'));
  }
  return {
    enabled: [...config.PROVIDERS],
    active: [...built.keys()],
    get: (id) => (isProviderId(id) ? built.get(id) : undefined),
    probe: (id, signal) => probe(built.get(id), BASE_URL[id]?.(config), http, signal),
    close: () => http.close(),
  };
}
