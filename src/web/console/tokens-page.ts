import { html } from 'hono/html';
import type { TokenInfo } from '../../accounts/publishable-tokens.js';
import { mayManageTokens, RoleMessages } from '../../accounts/roles.js';
import type { WebAssets } from '../assets.js';
import type { Html } from '../layout.js';
import { consoleFrame, csrfField, type Viewer, whenText } from './frame.js';

export interface TokensView {
  viewer: Viewer;
  tokens: TokenInfo[];
  baseUrl: string;
  /** The console's own origin: a token allowing it can be tried right here. */
  consoleOrigin: string;
  /** The token previewed on this page, if any allows the console's origin. */
  preview: TokenInfo | undefined;
  notice?: Html;
  /** The create form as last sent, with what was wrong with it. */
  draft?: { origins: string; env: string; error: string };
}

export const widgetSnippet = (baseUrl: string, token: string): string =>
  `<input id="address" autocomplete="off">\n<script src="${baseUrl}/widget/v1/widget.js" data-token="${token}" data-input="#address" defer></script>`;

const canPreview = (t: TokenInfo, origin: string) => t.revokedAt === null && t.origins.includes(origin);

function tokenCard(t: TokenInfo, view: TokensView, index: number): Html {
  const csrf = view.viewer.csrfToken;
  const active = t.revokedAt === null;
  const title = `${t.env} token ${t.token.slice(0, 16)}…`;
  return html`<article class="token panel" data-token-id="${t.id}" aria-labelledby="token-${index}-title">
  <h3 id="token-${index}-title"><span class="chip">${t.env}</span> <code id="token-${index}">${t.token}</code>
    ${active ? '' : html` <span class="chip chip--mismatch">revoked ${whenText(t.revokedAt)}</span>`}</h3>
  <p class="muted">Created ${whenText(t.createdAt)}. Allowed origins: ${t.origins.map((o, i) => html`${i ? ', ' : ''}<code>${o}</code>`)}</p>
  ${active
    ? html`<h4 id="snippet-${index}-title">Embed the widget</h4>
  <pre aria-labelledby="snippet-${index}-title"><code id="snippet-${index}">${widgetSnippet(view.baseUrl, t.token)}</code></pre>
  <p><button type="button" class="secondary copy" data-copy="snippet-${index}" hidden>Copy snippet</button>
  ${canPreview(t, view.consoleOrigin) && view.preview?.id !== t.id ? html` <a href="/dashboard/tokens?preview=${t.id}#preview">Preview this token here</a>` : ''}</p>
  ${mayManageTokens(view.viewer.role)
    ? html`<details class="manage">
    <summary>Edit origins or revoke<span class="visually-hidden"> (${title})</span></summary>
    <form method="post" action="/dashboard/tokens/${t.id}/origins" class="stack">
      ${csrfField(csrf)}
      <label for="origins-${t.id}">Allowed origins, one per line</label>
      <textarea id="origins-${t.id}" name="origins" rows="3" required aria-describedby="origins-hint">${t.origins.join('\n')}</textarea>
      <button type="submit" class="secondary">Save origins</button>
    </form>
    <form method="post" action="/dashboard/tokens/${t.id}/revoke" data-confirm="Revoke this token? Pages using it stop suggesting addresses at once.">
      ${csrfField(csrf)}
      <button type="submit" class="danger">Revoke token<span class="visually-hidden"> ${title}</span></button>
    </form>
  </details>`
    : html`<button type="button" class="secondary" disabled aria-describedby="role-note">Edit origins or revoke<span class="visually-hidden"> (${title})</span></button>`}`
    : ''}
</article>`;
}

function previewSection(view: TokensView): Html {
  const t = view.preview;
  if (!t) {
    return html`<section aria-labelledby="preview-title" id="preview">
  <h2 id="preview-title">Live preview</h2>
  <p class="muted">Add this console's origin, <code>${view.consoleOrigin}</code>, to a token's list to try the widget on this page.${view.consoleOrigin.startsWith('https://') ? '' : ' (It must be served over HTTPS: tokens allow HTTPS origins only.)'}</p>
</section>`;
  }
  const fields = JSON.stringify({ street: '#preview-street', houseNumber: '#preview-number', postcode: '#preview-postcode', city: '#preview-city' });
  return html`<section aria-labelledby="preview-title" id="preview" class="panel">
  <h2 id="preview-title">Live preview</h2>
  <p class="muted">The hosted widget with token <code>${t.token.slice(0, 16)}…</code>, as your visitors will see it. Suggestions cost credits like any widget call.</p>
  <form class="preview stack" action="#preview">
    <label for="preview-address">Find an address</label>
    <input id="preview-address" type="text" autocomplete="off">
    <div class="row">
      <div><label for="preview-street">Street</label><input id="preview-street" type="text"></div>
      <div><label for="preview-number">Number</label><input id="preview-number" type="text"></div>
      <div><label for="preview-postcode">Postcode</label><input id="preview-postcode" type="text"></div>
      <div><label for="preview-city">City</label><input id="preview-city" type="text"></div>
    </div>
  </form>
  <script src="/widget/v1/widget.js" data-token="${t.token}" data-input="#preview-address" data-fields="${fields}" defer></script>
</section>`;
}

/** `/dashboard/tokens`: publishable tokens for the widget, their origin lists, snippet and a live preview. */
export function tokensPage(assets: WebAssets, view: TokensView): Html {
  const csrf = view.viewer.csrfToken;
  const draft = view.draft;
  const owner = mayManageTokens(view.viewer.role);
  const body = html`<h1>Publishable tokens</h1>
<p class="lead">Tokens for the address widget in your visitors' browsers. Each works only on the exact HTTPS origins you list (<code>https://shop.example</code>, with a port if not 443; no path, no wildcard) and only on the widget endpoint.</p>
${view.notice ?? ''}
<section aria-labelledby="create-title" class="panel">
  <h2 id="create-title">Create a token</h2>
  ${draft ? html`<div class="notice notice--error" role="alert" id="create-error"><p>${draft.error}</p></div>` : ''}
  ${owner ? '' : html`<p id="role-note" class="hint">${RoleMessages.tokens}</p>`}
  <form method="post" action="/dashboard/tokens" class="stack">
    ${csrfField(csrf)}
    <fieldset class="plain"${owner ? '' : html` disabled aria-describedby="role-note"`}>
    <label for="new-origins">Allowed origins, one per line</label>
    <textarea id="new-origins" name="origins" rows="3" required placeholder="https://shop.example" aria-describedby="origins-hint${draft ? ' create-error' : ''}">${draft?.origins ?? ''}</textarea>
    <p id="origins-hint" class="hint">Exact HTTPS origins as the browser sends them: scheme, host and port only.</p>
    <label for="new-env">Environment</label>
    <select id="new-env" name="env"><option value="live"${draft?.env === 'test' ? '' : html` selected`}>live (120 requests a minute)</option><option value="test"${draft?.env === 'test' ? html` selected` : ''}>test (60 requests a minute)</option></select>
    <button type="submit">Create token</button>
    </fieldset>
  </form>
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">Your tokens</h2>
  ${view.tokens.length ? view.tokens.map((t, i) => tokenCard(t, view, i)) : html`<p>No tokens yet.</p>`}
</section>
${previewSection(view)}`;
  return consoleFrame({ assets, title: 'Publishable tokens', body, viewer: view.viewer, section: 'tokens' });
}
