import { html } from 'hono/html';
import type { Membership, Role } from '../../accounts/people.js';
import type { Flash } from '../../accounts/sessions.js';
import type { WebAssets } from '../assets.js';
import { type Html, layout } from '../layout.js';

export type ConsoleSection = 'usage' | 'keys' | 'tokens';

/** Who is looking at a console page: enough for the header (sections, account switch, log-out). */
export interface Viewer {
  email: string;
  accountId: string;
  accountName: string | null;
  memberships: Membership[];
  csrfToken: string;
  /** What the pages offer follows accounts/roles.ts; the routes enforce the same. */
  role: Role;
}

export interface FrameOptions {
  assets: WebAssets;
  title: string;
  body: Html;
  viewer?: Viewer;
  section?: ConsoleSection;
  /** Extra scripts after the console's own (the widget preview). */
  scripts?: string[];
}

/** The hidden synchronizer token every state-changing console form carries. */
export const csrfField = (token: string): Html => html`<input type="hidden" name="csrf" value="${token}">`;

export const accountLabel = (m: { accountId: string; accountName: string | null }): string =>
  m.accountName ? `${m.accountName} (${m.accountId})` : m.accountId;

const SECTIONS: Array<[ConsoleSection, string]> = [
  ['usage', 'Usage'],
  ['keys', 'Secret keys'],
  ['tokens', 'Publishable tokens'],
];

function nav(viewer: Viewer | undefined, section: ConsoleSection | undefined): Html {
  if (!viewer) {
    return html`<nav aria-label="Console"><a href="/dashboard/login">Log in</a><a href="/dashboard/signup">Sign up</a><a href="/docs">API reference</a></nav>`;
  }
  const switcher =
    viewer.memberships.length > 1
      ? html`<form class="switch" method="post" action="/dashboard/account">
  ${csrfField(viewer.csrfToken)}
  <label for="account-switch">Account</label>
  <select id="account-switch" name="account">${viewer.memberships.map(
    (m) => html`<option value="${m.accountId}"${m.accountId === viewer.accountId ? html` selected` : ''}>${accountLabel(m)}</option>`,
  )}</select>
  <button type="submit" class="secondary">Switch</button>
</form>`
      : '';
  return html`<nav aria-label="Console">${SECTIONS.map(
    ([id, label]) => html`<a href="/dashboard/${id}"${id === section ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>
${switcher}
<form class="logout" method="post" action="/dashboard/logout">
  ${csrfField(viewer.csrfToken)}
  <span class="muted who">${viewer.email}</span>
  <button type="submit" class="secondary">Log out</button>
</form>`;
}

/** Every console page: the site shell with the console's header; no inline script or style. */
export function consoleFrame(o: FrameOptions): Html {
  return layout({
    title: `${o.title} · addressd console`,
    description: 'The addressd console: secret keys, publishable tokens and usage.',
    assets: o.assets,
    body: html`<div class="console">${o.body}</div>`,
    scripts: [o.assets.consoleScript.path, ...(o.scripts ?? [])],
    bodyClass: 'console-page',
    nav: nav(o.viewer, o.section),
  });
}

/** A one-time notice at the top of a page; errors are announced assertively. */
export function flashNotice(flash: Flash | null): Html {
  if (!flash || flash.kind === 'keys') return html``;
  const error = flash.kind === 'error';
  return html`<div class="notice ${error ? 'notice--error' : 'notice--ok'}" role="${error ? 'alert' : 'status'}"><p>${flash.message}</p></div>`;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, as stored) shown to the minute. */
export const whenText = (at: string | null): string => (at ? `${at.slice(0, 16)} UTC` : 'never');
