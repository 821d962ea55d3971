import type { Hono } from 'hono';
import { EmailTakenError } from '../../accounts/people.js';
import { WeakPasswordError } from '../../accounts/passwords.js';
import { InviteUnusableError } from '../../accounts/signup.js';
import type { Services } from '../../services.js';
import { loginPage, signupPage } from '../../web/console/auth-pages.js';
import type { AppEnv } from '../context.js';
import { throttlePasswordAttempt, throttleSignup } from '../console-limits.js';
import { LoginForm, SignupForm, CsrfForm, SwitchAccountForm } from '../console-forms.js';
import {
  anonymousForm,
  anonymousFormToken,
  ConsoleMessages,
  endSession,
  Redirect,
  requireCaller,
  safeNext,
  sessionForm,
  startSession,
} from '../console-session.js';
import { page } from './console-render.js';

/** Sign-up, log-in, log-out and switching accounts. */
export function consoleAuthRoutes(web: Hono<AppEnv>, services: Services): void {
  const signupOpen = services.config.SIGNUP === 'open';

  // Shown even to someone logged in (to switch logins); logging in replaces that session.
  web.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    const notice = c.req.query('signup') === 'done' ? ConsoleMessages.signupDone : undefined;
    return page(c, (assets) => loginPage(assets, { csrfToken: anonymousFormToken(c, services), signupOpen, ...(next ? { next } : {}), ...(notice ? { notice } : {}) }));
  });

  web.post('/login', async (c) => {
    const form = await anonymousForm(c, services, LoginForm);
    const again = (status: 400 | 401, error: string, email?: string) =>
      page(c, (assets) => loginPage(assets, { csrfToken: anonymousFormToken(c, services), signupOpen, error, ...(email ? { email } : {}) }), status);
    if (!form.ok) return again(400, form.message, form.fields.email);
    const { email, password, next } = form.data;
    await throttlePasswordAttempt(c, services, email);
    const person = await services.people.authenticate(email, password);
    if (!person) return again(401, ConsoleMessages.wrongLogin, email);
    const [first] = await services.people.memberships(person.id);
    if (!first) return again(401, ConsoleMessages.noAccount, email);
    const sessionId = await startSession(c, services, person.id, first.accountId);
    // What sign-up could not say without telling who has a login: a new account's first keys
    // (shown once, before anything else), or that someone tried to sign up with this email.
    const notice = await services.people.takeNotice(person.id);
    if (notice) await services.sessions.setFlash(sessionId, notice);
    throw new Redirect(notice?.kind === 'keys' ? '/dashboard/keys' : (safeNext(next) ?? '/dashboard/usage'));
  });

  web.get('/signup', async (c) => {
    const code = c.req.query('invite');
    const invite = code ? await services.invites.find(code) : null;
    const token = anonymousFormToken(c, services);
    const error = code && !invite ? 'This invitation is unknown, used or expired: ask for a new one.' : undefined;
    return page(c, (assets) =>
      signupPage(assets, {
        csrfToken: token,
        open: signupOpen,
        ...(invite && code ? { invite: { code, email: invite.email } } : {}),
        ...(error ? { error } : {}),
      }),
    );
  });

  web.post('/signup', async (c) => {
    const form = await anonymousForm(c, services, SignupForm);
    const code = form.ok ? form.data.invite : form.fields.invite;
    const invite = code ? await services.invites.find(code) : null;
    const again = (status: 400 | 403 | 409, error: string) =>
      page(
        c,
        (assets) =>
          signupPage(assets, {
            csrfToken: anonymousFormToken(c, services),
            open: signupOpen,
            error,
            ...(form.ok ? { email: form.data.email, ...(form.data.project ? { projectName: form.data.project } : {}) } : { email: form.fields.email ?? '' }),
            ...(invite && code ? { invite: { code, email: invite.email } } : {}),
          }),
        status,
      );
    if (!form.ok) return again(400, form.message);
    const { email, password, project } = form.data;
    if (!code && !signupOpen) return again(403, ConsoleMessages.signupClosed);
    await throttleSignup(c, services);
    // Joining by invite checks the password of an email that already has a login: a password
    // guess like a log-in, counted by the same throttles (issue 28 §10).
    if (code) await throttlePasswordAttempt(c, services, email);
    if (!code) {
      // A new email and one that already has a login get the same answer, after the same work.
      try {
        await services.signUp.newAccount({ email, password, ...(project ? { projectName: project } : {}) });
      } catch (error) {
        if (error instanceof WeakPasswordError) return again(400, error.message);
        throw error;
      }
      throw new Redirect('/dashboard/login?signup=done');
    }
    let result;
    try {
      result = await services.signUp.byInvite({ code, email, password });
    } catch (error) {
      if (error instanceof EmailTakenError) return again(409, 'This email already has a console login: enter its password to join.');
      if (error instanceof InviteUnusableError || error instanceof WeakPasswordError) return again(400, error.message);
      throw error;
    }
    const sessionId = await startSession(c, services, result.person.id, result.accountId);
    await services.sessions.setFlash(sessionId, { kind: 'notice', message: 'You joined the account.' });
    throw new Redirect('/dashboard/usage');
  });

  web.post('/logout', async (c) => {
    const caller = await requireCaller(c, services);
    await sessionForm(c, services, caller, CsrfForm);
    await endSession(c, services, caller);
    throw new Redirect('/dashboard/login');
  });

  web.post('/account', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, SwitchAccountForm);
    if (form.ok && caller.memberships.some((m) => m.accountId === form.data.account)) {
      await services.sessions.switchAccount(caller.sessionId, form.data.account);
    }
    throw new Redirect('/dashboard/usage');
  });
}

