import { html } from 'hono/html';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import type { WebAssets } from '../assets.js';
import type { Html } from '../layout.js';
import { consoleFrame, csrfField } from './frame.js';

export interface AuthFormState {
  csrfToken: string;
  email?: string;
  error?: string;
}

function errorBox(error: string | undefined): Html {
  return error ? html`<div class="notice notice--error" role="alert" id="form-error"><p>${error}</p></div>` : html``;
}

const described = (error: string | undefined) => (error ? html` aria-describedby="form-error"` : '');

export function loginPage(assets: WebAssets, state: AuthFormState & { next?: string; signupOpen: boolean; notice?: string }): Html {
  const body = html`<section class="auth" aria-labelledby="login-title">
<h1 id="login-title">Log in to the console</h1>
${state.notice ? html`<div class="notice notice--ok" role="status"><p>${state.notice}</p></div>` : ''}
${errorBox(state.error)}
<form method="post" action="/dashboard/login" class="stack">
  ${csrfField(state.csrfToken)}
  ${state.next ? html`<input type="hidden" name="next" value="${state.next}">` : ''}
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${state.email ?? ''}"${described(state.error)}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}">
  <button type="submit">Log in</button>
</form>
${state.signupOpen ? html`<p>No login yet? <a href="/dashboard/signup">Create a free account</a>.</p>` : html`<p class="muted">Sign-up is by invitation on this service: ask its operator.</p>`}
</section>`;
  return consoleFrame({ assets, title: 'Log in', body });
}

export interface SignupState extends AuthFormState {
  projectName?: string;
  /** Joining an account by invitation: the email is fixed by the invite. */
  invite?: { code: string; email: string };
  open: boolean;
}

export function signupPage(assets: WebAssets, state: SignupState): Html {
  if (!state.open && !state.invite) {
    const body = html`<section class="auth" aria-labelledby="signup-title">
<h1 id="signup-title">Sign-up is by invitation</h1>
${errorBox(state.error)}
<p>This service does not take new sign-ups. Its operator can invite you to an account; the invitation link brings you back here.</p>
<p><a href="/dashboard/login">Log in</a> if you already have a login.</p>
</section>`;
    return consoleFrame({ assets, title: 'Sign up', body });
  }
  const invite = state.invite;
  const body = html`<section class="auth" aria-labelledby="signup-title">
<h1 id="signup-title">${invite ? 'Accept your invitation' : 'Create your account'}</h1>
<p class="lead">${invite
    ? 'Choose a password to join the account you were invited to. If this email already has a console login, enter its password.'
    : 'A free account includes monthly credits, a live and a test secret key, and publishable tokens for the address widget.'}</p>
${errorBox(state.error)}
<form method="post" action="/dashboard/signup" class="stack">
  ${csrfField(state.csrfToken)}
  ${invite ? html`<input type="hidden" name="invite" value="${invite.code}">` : ''}
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${invite?.email ?? state.email ?? ''}"${invite ? html` readonly` : ''}${described(state.error)}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" aria-describedby="password-hint">
  <p id="password-hint" class="hint">At least ${PASSWORD_MIN_LENGTH} characters.</p>
  ${invite
    ? ''
    : html`<label for="project">Project name <span class="muted">(optional)</span></label>
  <input id="project" name="project" type="text" maxlength="100" value="${state.projectName ?? ''}" autocomplete="organization">`}
  <button type="submit">${invite ? 'Join the account' : 'Create account'}</button>
</form>
<p>Already have a login? <a href="/dashboard/login">Log in</a>.</p>
</section>`;
  return consoleFrame({ assets, title: invite ? 'Accept invitation' : 'Sign up', body });
}

/** Any refusal shown as a page: throttled log-ins, expired forms, unknown ids. */
export function problemPage(assets: WebAssets, title: string, message: string, back: { href: string; label: string }): Html {
  const body = html`<section aria-labelledby="problem-title">
<h1 id="problem-title">${title}</h1>
<div class="notice notice--error" role="alert"><p>${message}</p></div>
<p><a href="${back.href}">${back.label}</a></p>
</section>`;
  return consoleFrame({ assets, title, body });
}
