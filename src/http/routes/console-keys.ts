import type { Hono } from 'hono';
import { mayManageKeys, RoleMessages } from '../../accounts/roles.js';
import type { Environment } from '../../contract/enums.js';
import type { Services } from '../../services.js';
import { flashNotice } from '../../web/console/frame.js';
import { keysPage, type RevealedKey } from '../../web/console/keys-page.js';
import type { AppEnv } from '../context.js';
import { HttpError } from '../errors.js';
import { throttlePasswordAttempt } from '../console-limits.js';
import { CreateKeyForm, CsrfForm, PasswordForm, RenameKeyForm } from '../console-forms.js';
import { type Caller, consoleOrigin, Redirect, requireCaller, sessionForm, viewerOf } from '../console-session.js';
import { page } from './console-render.js';

const BACK = '/dashboard/keys';

/** Secret keys of the caller's account; every id is looked up within that account only. */
export function consoleKeyRoutes(web: Hono<AppEnv>, services: Services): void {
  const { secretKeys, sessions } = services;
  /** Back to the list with a one-time error notice (post/redirect/get). */
  const refuse = async (caller: Caller, message: string): Promise<never> => {
    await sessions.setFlash(caller.sessionId, { kind: 'error', message });
    throw new Redirect(BACK);
  };
  /** Members work with test keys only (accounts/roles.ts): a live key's action is a 403. */
  const allow = (caller: Caller, env: Environment): void => {
    if (!mayManageKeys(caller.role, env)) throw new HttpError(403, RoleMessages.liveKeys);
  };

  web.get('/keys', async (c) => {
    const caller = await requireCaller(c, services);
    const flash = await sessions.takeFlash(caller.sessionId);
    const revealed: RevealedKey[] = [];
    if (flash?.kind === 'keys') {
      for (const id of flash.keyIds) {
        const [info, { key }] = await Promise.all([secretKeys.info(id, caller.account.id), secretKeys.reveal(id, caller.account.id)]);
        revealed.push({ id, name: info.name, env: info.env, key });
      }
    }
    const keys = await secretKeys.list(caller.account.id);
    return page(c, (assets) =>
      keysPage(assets, {
        viewer: viewerOf(caller),
        keys,
        revealed,
        ...(flash?.kind === 'keys' ? { revealMessage: flash.message } : {}),
        notice: flashNotice(flash),
        baseUrl: consoleOrigin(c, services),
      }),
    );
  });

  web.post('/keys', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, CreateKeyForm);
    if (!form.ok) return refuse(caller, form.message);
    allow(caller, form.data.env);
    const created = await secretKeys.create(caller.account.id, form.data.env, form.data.name);
    await sessions.setFlash(caller.sessionId, { kind: 'keys', keyIds: [created.id], message: `Key “${form.data.name}” created` });
    throw new Redirect(BACK);
  });

  web.post('/keys/:id/rename', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, RenameKeyForm);
    allow(caller, (await secretKeys.info(c.req.param('id'), caller.account.id)).env);
    if (!form.ok) return refuse(caller, form.message);
    const renamed = await secretKeys.rename(c.req.param('id'), form.data.name, caller.account.id);
    await sessions.setFlash(caller.sessionId, { kind: 'notice', message: `Key renamed to “${renamed.name ?? ''}”.` });
    throw new Redirect(BACK);
  });

  web.post('/keys/:id/revoke', async (c) => {
    const caller = await requireCaller(c, services);
    await sessionForm(c, services, caller, CsrfForm);
    allow(caller, (await secretKeys.info(c.req.param('id'), caller.account.id)).env);
    const revoked = await secretKeys.revoke(c.req.param('id'), caller.account.id);
    await sessions.setFlash(caller.sessionId, { kind: 'notice', message: `Key “${revoked.name ?? revoked.id}” revoked: the API refuses it from now on.` });
    throw new Redirect(BACK);
  });

  // Re-reveal asks for the password again (a session left open is not enough) and counts as a log-in attempt.
  web.post('/keys/:id/reveal', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, PasswordForm);
    const key = await secretKeys.info(c.req.param('id'), caller.account.id);
    allow(caller, key.env);
    await throttlePasswordAttempt(c, services, caller.person.email);
    if (!form.ok || !(await services.people.checkPassword(caller.person.id, form.data.password))) {
      return refuse(caller, 'Wrong password: the key stays hidden.');
    }
    if (key.revokedAt) return refuse(caller, 'A revoked key cannot be revealed.');
    await sessions.setFlash(caller.sessionId, { kind: 'keys', keyIds: [key.id], message: `Key “${key.name ?? key.id}”` });
    throw new Redirect(BACK);
  });
}

