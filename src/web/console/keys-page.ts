import { html } from 'hono/html';
import { mayManageKeys, RoleMessages } from '../../accounts/roles.js';
import type { SecretKeyInfo } from '../../accounts/secret-keys.js';
import type { WebAssets } from '../assets.js';
import type { Html } from '../layout.js';
import { consoleFrame, csrfField, type Viewer, whenText } from './frame.js';

export interface RevealedKey {
  id: string;
  name: string | null;
  env: string;
  key: string;
}

export interface KeysView {
  viewer: Viewer;
  keys: SecretKeyInfo[];
  /** Keys in clear, this once (just created, or re-revealed after the password). */
  revealed: RevealedKey[];
  revealMessage?: string;
  notice?: Html;
  baseUrl: string;
}

const keyName = (k: { name: string | null; id: string }) => k.name ?? k.id;

function revealedBox(view: KeysView): Html {
  if (view.revealed.length === 0) return html``;
  return html`<section class="reveal notice notice--ok" aria-labelledby="revealed-title" role="status">
<h2 id="revealed-title">${view.revealMessage ?? 'Your key'}</h2>
<p>Copy ${view.revealed.length > 1 ? 'them' : 'it'} now: leaving this page hides ${view.revealed.length > 1 ? 'them' : 'it'} again. You can re-reveal a key later with your password.</p>
<dl class="secrets">${view.revealed.map(
    (k, i) => html`<dt>${keyName(k)} <span class="chip">${k.env}</span></dt>
  <dd><code id="secret-${i}" class="secret" data-key-id="${k.id}">${k.key}</code> <button type="button" class="secondary copy" data-copy="secret-${i}" hidden>Copy</button></dd>`,
  )}</dl>
<p class="muted">Use it from your server only: <code>Authorization: Bearer ${view.revealed[0]!.key.slice(0, 12)}…</code> on <code>${view.baseUrl}/v1/validate</code>.</p>
</section>`;
}

function keyRow(k: SecretKeyInfo, view: KeysView): Html {
  const csrf = view.viewer.csrfToken;
  const active = k.revokedAt === null;
  const allowed = mayManageKeys(view.viewer.role, k.env);
  const label = keyName(k);
  return html`<tr data-key-id="${k.id}">
  <th scope="row">${label}</th>
  <td><span class="chip">${k.env}</span></td>
  <td><code>${k.prefix}</code></td>
  <td>${whenText(k.createdAt)}</td>
  <td>${whenText(k.lastUsedAt)}</td>
  <td>${active ? 'active' : html`<span class="chip chip--mismatch">revoked ${whenText(k.revokedAt)}</span>`}</td>
  <td>${active && !allowed ? html`<button type="button" class="secondary" disabled aria-describedby="role-note">Manage<span class="visually-hidden"> ${label}</span></button>` : ''}${active && allowed
    ? html`<details class="manage">
    <summary>Manage<span class="visually-hidden"> ${label}</span></summary>
    <form method="post" action="/dashboard/keys/${k.id}/rename" class="inline">
      ${csrfField(csrf)}
      <label for="rename-${k.id}">New name</label>
      <input id="rename-${k.id}" name="name" type="text" required maxlength="100" value="${k.name ?? ''}">
      <button type="submit" class="secondary">Rename</button>
    </form>
    <form method="post" action="/dashboard/keys/${k.id}/reveal" class="inline">
      ${csrfField(csrf)}
      <label for="reveal-${k.id}">Your password</label>
      <input id="reveal-${k.id}" name="password" type="password" required autocomplete="current-password">
      <button type="submit" class="secondary">Reveal key</button>
    </form>
    <form method="post" action="/dashboard/keys/${k.id}/revoke" class="inline" data-confirm="Revoke ${label}? Requests with this key will be refused at once.">
      ${csrfField(csrf)}
      <button type="submit" class="danger">Revoke<span class="visually-hidden"> ${label}</span></button>
    </form>
  </details>`
    : ''}</td>
</tr>`;
}

/** `/dashboard/keys`: the secret keys of the account, to create, name, reveal and revoke. */
export function keysPage(assets: WebAssets, view: KeysView): Html {
  const csrf = view.viewer.csrfToken;
  // A member creates test keys only: live is offered, disabled, with the reason beside it.
  const liveAllowed = mayManageKeys(view.viewer.role, 'live');
  const roleNote = liveAllowed ? '' : html`<p id="role-note" class="hint">${RoleMessages.liveKeys}</p>`;
  const body = html`<h1>Secret keys</h1>
<p class="lead">Keys for your servers: <code>ak_live_…</code> for production, <code>ak_test_…</code> for development (same results and credits, 60 requests a minute, each item of a batch counting as one). Never put one in browser code: use a <a href="/dashboard/tokens">publishable token</a> there.</p>
${view.notice ?? ''}
${revealedBox(view)}
<section aria-labelledby="create-title" class="panel">
  <h2 id="create-title">Create a key</h2>
  <form method="post" action="/dashboard/keys" class="row">
    ${csrfField(csrf)}
    <div><label for="key-name">Name</label>
    <input id="key-name" name="name" type="text" required maxlength="100" placeholder="e.g. Checkout server"></div>
    <div><label for="key-env">Environment</label>
    <select id="key-env" name="env"${liveAllowed ? '' : html` aria-describedby="role-note"`}><option value="live"${liveAllowed ? '' : html` disabled`}>live</option><option value="test"${liveAllowed ? '' : html` selected`}>test</option></select></div>
    <button type="submit">Create key</button>
  </form>
  ${roleNote}
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">Your keys</h2>
  ${view.keys.length
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table of keys, scrolls sideways"><table class="keys">
    <caption class="visually-hidden">Secret keys of this account</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Environment</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
    <tbody>${view.keys.map((k) => keyRow(k, view))}</tbody>
  </table></div>`
    : html`<p>No keys yet.</p>`}
</section>`;
  return consoleFrame({ assets, title: 'Secret keys', body, viewer: view.viewer, section: 'keys' });
}
