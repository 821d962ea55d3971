import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { WebAssets } from './assets.js';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface LayoutOptions {
  title: string;
  description: string;
  assets: WebAssets;
  body: Html;
  /** Script paths, loaded deferred in order. */
  scripts: string[];
  bodyClass?: string;
  /** Replaces the site links in the header (the console shows its own). */
  nav?: Html;
}

/** The shell every public page shares: head, skip link, header, footer. Everything is served locally. */
export function layout(o: LayoutOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${o.title}</title>
<meta name="description" content="${o.description}">
<link rel="icon" href="${o.assets.icon.path}" type="image/svg+xml">
<link rel="stylesheet" href="${o.assets.styles.path}">
${o.scripts.map((src) => html`<script defer src="${src}"></script>\n`)}</head>
<body${o.bodyClass ? html` class="${o.bodyClass}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header">
  <div class="bar">
    <a class="brand" href="/">addressd</a>
    ${o.nav ?? html`<nav aria-label="Site">
      <a href="/#demo">Demo</a>
      <a href="/docs">API reference</a>
      <a href="/openapi.json">OpenAPI</a>
      <a href="/dashboard">Console</a>
    </nav>`}
  </div>
</header>
<main id="main">
${o.body}
</main>
<footer class="site-footer">
  <div class="bar">
    <span>Address validation and autocomplete. Data: PDOK (BAG), © OpenStreetMap contributors.</span>
  </div>
</footer>
</body>
</html>
`;
}
