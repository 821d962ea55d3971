import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { z } from 'zod';
import type { Account } from '../accounts/accounts.js';
import type { Membership, Person, Role } from '../accounts/people.js';
import { type ConsoleSession, sameToken } from '../accounts/sessions.js';
import { randomToken } from '../lib/ids.js';
import type { Services } from '../services.js';
import type { Viewer } from '../web/console/frame.js';
import { UNSTORABLE_MESSAGE } from '../contract/text.js';
import { unstorableField } from './console-inputs.js';
import { HttpError } from './errors.js';

/** Thrown to leave a console handler with a 303 (after a POST) or 302 (a GET needing log-in). */
export class Redirect extends Error {
  constructor(
    readonly location: string,
    readonly status: 302 | 303 = 303,
  ) {
    super(`redirect to ${location}`);
    this.name = 'Redirect';
  }
}

export const ConsoleMessages = {
  csrf: 'This form expired or was sent from another site, so nothing was changed. Reload the page and try again.',
  loginRate: 'Too many log-in attempts for this email or from this address. Wait a few minutes and try again.',
  signupRate: 'Too many sign-ups from this address. Wait a while and try again.',
  signupClosed: 'Sign-up is closed on this service: ask its operator for an invitation.',
  /** The same words for a new email and one that already had a login (docs/security.md). */
  signupDone: 'Sign-up received. Log in with the email and password you chose to continue; a new account shows its first keys then.',
  wrongLogin: 'The email or the password is wrong.',
  noAccount: 'This login belongs to no account any more: ask the account owner or the operator for an invitation.',
} as const;

/** Someone logged in, with the account the console shows. */
export interface Caller {
  sessionId: string;
  session: ConsoleSession;
  person: Person;
  memberships: Membership[];
  account: Account;
  /** The caller's role in the account shown (accounts/roles.ts says what it allows). */
  role: Role;
}

/** HTTPS as the browser sees it: the request itself, a trusted proxy's header, or PUBLIC_BASE_URL. */
export function isSecure(c: Context, services: Services): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (services.config.TRUST_PROXY && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https') return true;
  return services.config.PUBLIC_BASE_URL?.startsWith('https:') ?? false;
}

/** This console's origin as browsers see it: PUBLIC_BASE_URL's when set, else the request's. */
export function consoleOrigin(c: Context, services: Services): string {
  return new URL(services.config.PUBLIC_BASE_URL ?? c.req.url).origin;
}

// `__Host-` cookies must be Secure, for path /, without Domain: a sibling subdomain cannot plant them.
const cookieName = (base: string, secure: boolean) => (secure ? `__Host-${base}` : base);
const SESSION = 'addressd_session';
const FORM = 'addressd_form';

function cookieOptions(secure: boolean, maxAge?: number) {
  return { path: '/', httpOnly: true, sameSite: 'Lax' as const, secure, ...(maxAge !== undefined ? { maxAge } : {}) };
}

/** The logged-in caller, or null (no cookie, unknown or expired session, no longer a member). */
export async function currentCaller(c: Context, services: Services): Promise<Caller | null> {
  const sessionId = getCookie(c, cookieName(SESSION, isSecure(c, services)));
  const session = await services.sessions.find(sessionId);
  if (!session || !sessionId) return null;
  const [person, memberships] = await Promise.all([services.people.get(session.personId), services.people.memberships(session.personId)]);
  const membership = memberships.find((m) => m.accountId === session.accountId);
  if (!person || !membership) return null;
  const account = await services.accounts.get(session.accountId);
  return { sessionId, session, person, memberships, account, role: membership.role };
}

/** The caller, or a trip to the log-in page that comes back here afterwards. */
export async function requireCaller(c: Context, services: Services): Promise<Caller> {
  const caller = await currentCaller(c, services);
  if (caller) return caller;
  const here = new URL(c.req.url);
  throw new Redirect(`/dashboard/login?next=${encodeURIComponent(here.pathname + here.search)}`, 302);
}

export const viewerOf = (caller: Caller): Viewer => ({
  email: caller.person.email,
  accountId: caller.account.id,
  accountName: caller.account.name,
  memberships: caller.memberships,
  csrfToken: caller.session.csrfToken,
  role: caller.role,
});

/**
 * A new session for a person who just proved who they are. Whatever session the browser
 * presented is destroyed first and a fresh id issued: a planted id never becomes a login.
 */
export async function startSession(c: Context, services: Services, personId: string, accountId: string): Promise<string> {
  const secure = isSecure(c, services);
  await services.sessions.destroy(getCookie(c, cookieName(SESSION, secure)));
  const { id } = await services.sessions.create(personId, accountId);
  setCookie(c, cookieName(SESSION, secure), id, cookieOptions(secure, services.config.CONSOLE_SESSION_HOURS * 3600));
  deleteCookie(c, cookieName(FORM, secure), cookieOptions(secure));
  return id;
}

export async function endSession(c: Context, services: Services, caller: Caller): Promise<void> {
  await services.sessions.destroy(caller.sessionId);
  deleteCookie(c, cookieName(SESSION, isSecure(c, services)), cookieOptions(isSecure(c, services)));
}

/**
 * Cross-site requests are refused before any token is compared: a browser's `Sec-Fetch-Site`
 * and `Origin` name the page that sent the form. Without either (old browsers) the token alone decides.
 */
function fromOurOrigin(c: Context, services: Services): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  if (origin === consoleOrigin(c, services) || origin === new URL(c.req.url).origin) return true;
  try {
    return new URL(origin).host === c.req.header('host');
  } catch {
    return false;
  }
}

async function formFields(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return {};
  // A body that does not parse as its type (multipart without a boundary, say) carries no form,
  // and so no CSRF token: refused like any other, not a 500.
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, never>);
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export type FormResult<T> = { ok: true; data: T } | { ok: false; message: string; fields: Record<string, string> };

async function parsed<S extends z.ZodType>(c: Context, schema: S, expected: string | undefined, services: Services): Promise<FormResult<z.infer<S>>> {
  const fields = await formFields(c);
  const presented = fields.csrf ?? '';
  if (!fromOurOrigin(c, services) || !expected || !sameToken(presented, expected)) throw new HttpError(403, ConsoleMessages.csrf);
  // The API's storable-text rule for every field, the same on both stores (console-inputs.ts).
  if (unstorableField(fields) !== undefined) return { ok: false, message: UNSTORABLE_MESSAGE, fields: {} };
  const result = schema.safeParse(fields);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, message: result.error.issues[0]?.message ?? 'Check the form', fields };
}

/** A logged-in form: the session's synchronizer token, compared in constant time, and our origin. */
export function sessionForm<S extends z.ZodType>(c: Context, services: Services, caller: Caller, schema: S): Promise<FormResult<z.infer<S>>> {
  return parsed(c, schema, caller.session.csrfToken, services);
}

/** The log-in and sign-up forms (no session yet): a random token in an HttpOnly cookie and in the form. */
export function anonymousForm<S extends z.ZodType>(c: Context, services: Services, schema: S): Promise<FormResult<z.infer<S>>> {
  return parsed(c, schema, getCookie(c, cookieName(FORM, isSecure(c, services))), services);
}

/** The token for a log-in or sign-up form: the browser's existing one, or a new one set now. */
export function anonymousFormToken(c: Context, services: Services): string {
  const secure = isSecure(c, services);
  const existing = getCookie(c, cookieName(FORM, secure));
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken(32);
  setCookie(c, cookieName(FORM, secure), token, cookieOptions(secure, 3600 * 2));
  return token;
}

/** Only console paths: a `next` pointing elsewhere (another site, `//evil`) is dropped. */
export function safeNext(next: string | undefined): string | undefined {
  return next && /^\/dashboard(?:\/[A-Za-z0-9/_-]*)?(?:\?[A-Za-z0-9=&_%.-]*)?$/.test(next) ? next : undefined;
}
