import { html } from 'hono/html';
import type { ProviderId } from '../contract/enums.js';
import type { HomeSample } from '../demo/instance-samples.js';
import { splitTrailingCountry } from '../demo/trailing-country.js';
import type { WebAssets } from './assets.js';
import { type Html, layout } from './layout.js';

/** The curl example, for the instance's own sample address where it has one. */
const curl = (query: string, country: string) => `curl -X POST https://your-host/v1/validate \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${`{"query": ${JSON.stringify(query)}, "country": ${JSON.stringify(country)}}`.replace(/'/g, "'\\''")}'`;

/** How the homepage names each provider, in the order PROVIDERS may list them. */
const PROVIDER_NAMES: Record<ProviderId, string> = {
  pdok: 'PDOK',
  photon: "OpenStreetMap's Photon",
  nominatim: "OpenStreetMap's Nominatim",
  local: 'your own imported address data',
};

/** "a", "a and b", "a, b and c". */
function spoken(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * What one call asks: only the providers this deployment enabled (PROVIDERS), so a server with
 * `PROVIDERS=local` never claims to ask an outside service.
 */
function leadText(providers: readonly ProviderId[]): string {
  const outcome = 'one verdict, a confidence from 0 to 100 and the standardized address';
  if (providers.length === 0) return `One API call returns ${outcome}.`;
  const asks = spoken(providers.map((id) => PROVIDER_NAMES[id]));
  return providers.length === 1 ? `One API call checks ${asks} and returns ${outcome}.` : `One API call asks ${asks}, compares their answers and returns ${outcome}.`;
}

/** The sample list: recorded answers, or addresses of this instance's own data (demo/instance-samples.ts). */
function sampleList(samples: readonly HomeSample[]): Html | string {
  if (samples.length === 0) return '';
  const recorded = samples.every((s) => s.recorded);
  return html`<ul class="samples" aria-label="${recorded ? 'Samples (recorded answers)' : 'Samples from this service’s data'}">
      <li class="muted">${recorded ? 'Or see a recorded example:' : 'Or try an address from this service’s data:'}</li>
      ${samples.map(
        (s) => html`<li><button type="button" data-sample="${s.query}">${s.query}<small>${s.label}${s.recorded ? ' · recorded answer' : ''}</small></button></li>`,
      )}
    </ul>`;
}

/** `/`: what the service does, and the demo box (its script adds the live part). */
export function homePage(assets: WebAssets, samples: readonly HomeSample[], freeMonthlyCredits: number, enabled: readonly string[]): Html {
  const providers = enabled.filter((id): id is ProviderId => id in PROVIDER_NAMES);
  // The examples in the box are the samples' own where they come from this instance's data.
  const example = samples.find((s) => !s.recorded)?.query;
  const own = example ? splitTrailingCountry(example) : undefined;
  const body = html`<div class="home">
<h1>${providers.length > 1 ? 'Check any address against several geocoders at once' : 'Check any address in one call'}</h1>
<p class="lead">${leadText(providers)}</p>

<section id="demo" aria-labelledby="demo-title">
  <h2 id="demo-title">Try it</h2>
  <form id="demo-form" class="demo">
    <label for="demo-query">Address</label>
    <div class="demo-row">
      <input id="demo-query" name="query" type="text" required maxlength="200" autocomplete="off" spellcheck="false"
        placeholder="e.g. ${example ?? 'Damrak 1, 1012 LG Amsterdam'}" aria-describedby="demo-hint">
      <button type="submit">Check address</button>
    </div>
    <p id="demo-hint" class="hint">Searches every country the providers here cover; end with a country code to narrow it, e.g. “${example ?? 'Unter den Linden 77, Berlin, DE'}”.</p>
    ${sampleList(samples)}
    <noscript><p class="hint">The demo needs JavaScript; the API itself does not.</p></noscript>
  </form>
  <div id="demo-result" aria-live="polite"></div>
</section>

<section aria-labelledby="what-title">
  <h2 id="what-title">What you get</h2>
  <ul class="features">
    <li><strong>A verdict you can act on</strong>valid, correctable or invalid, with the reasons behind it.</li>
    <li><strong>Part-by-part checks</strong>street, house number, postcode, city and country each marked as matched, corrected or missing.</li>
    ${providers.length > 1 ? html`<li><strong>Consensus</strong>the providers' answers are compared; agreement raises the confidence, disagreement lowers it.</li>` : ''}
    <li><strong>Autocomplete</strong>for servers, and a hosted widget for checkout forms with publishable tokens.</li>
  </ul>
</section>

<section aria-labelledby="api-title">
  <h2 id="api-title">Use the API</h2>
  <p>Every endpoint is described in the <a href="/docs">API reference</a> and as an <a href="/openapi.json">OpenAPI 3.1 document</a>.
  A lookup costs one credit per provider that answered; cached answers are free. A free account includes ${freeMonthlyCredits} credits a month.</p>
  <pre><code>${curl(own?.query ?? 'Damrak 1, 1012 LG Amsterdam', own?.country ?? 'NL')}</code></pre>
</section>
</div>
`;
  return layout({
    title: 'addressd: address validation and autocomplete',
    description: 'Validate and autocomplete postal addresses across several geocoding providers, with one verdict and confidence.',
    assets,
    body,
    scripts: [assets.homeScript.path],
  });
}
