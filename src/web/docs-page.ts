import { html } from 'hono/html';
import type { WebAssets } from './assets.js';
import { type Html, layout } from './layout.js';

/** `/docs`: Redoc renders /openapi.json in the page; the fallback shows while it loads or without JS. */
export function docsPage(assets: WebAssets): Html {
  const body = html`
<div id="redoc" data-spec="/openapi.json">
  <div class="docs-fallback">
    <h1>API reference</h1>
    <p>Loading the reference… It needs JavaScript; the raw <a href="/openapi.json">OpenAPI 3.1 document</a> works without.</p>
  </div>
</div>
`;
  return layout({
    title: 'API reference · addressd',
    description: 'Endpoints, request and response schemas and request examples of the address validation API.',
    assets,
    body,
    scripts: [assets.redoc.path, assets.docsScript.path],
    bodyClass: 'docs-page',
  });
}
