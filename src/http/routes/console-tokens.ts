import type { Context, Hono } from 'hono';
import { InvalidOriginError } from '../../accounts/publishable-tokens.js';
import { mayManageTokens, RoleMessages } from '../../accounts/roles.js';
import type { Services } from '../../services.js';
import { flashNotice } from '../../web/console/frame.js';
import { tokensPage } from '../../web/console/tokens-page.js';
import type { AppEnv } from '../context.js';
import { HttpError } from '../errors.js';
import { CreateTokenForm, CsrfForm, OriginsForm } from '../console-forms.js';
import { type Caller, consoleOrigin, Redirect, requireCaller, sessionForm, viewerOf } from '../console-session.js';
import { page } from './console-render.js';

const BACK = '/dashboard/tokens';

/** Publishable tokens of the caller's account: create, edit the origin list, revoke, preview. */
export function consoleTokenRoutes(web: Hono<AppEnv>, services: Services): void {
  const { tokens, sessions } = services;
  /** Tokens are the owner's alone (accounts/roles.ts): a member's change is a 403. */
  const allow = (caller: Caller): void => {
    if (!mayManageTokens(caller.role)) throw new HttpError(403, RoleMessages.tokens);
  };

  const render = async (c: Context, status: 200 | 400, draft?: { origins: string; env: string; error: string }) => {
    const caller = await requireCaller(c, services);
    const flash = await sessions.takeFlash(caller.sessionId);
    const list = await tokens.list(caller.account.id);
    const origin = consoleOrigin(c, services);
    const previewable = list.filter((t) => t.revokedAt === null && t.origins.includes(origin));
    const wanted = c.req.query('preview');
    const preview = previewable.find((t) => t.id === wanted) ?? previewable[0];
    return page(
      c,
      (assets) =>
        tokensPage(assets, {
          viewer: viewerOf(caller),
          tokens: list,
          baseUrl: origin,
          consoleOrigin: origin,
          preview,
          notice: flashNotice(flash),
          ...(draft ? { draft } : {}),
        }),
      status,
    );
  };

  web.get('/tokens', (c) => render(c, 200));

  web.post('/tokens', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, CreateTokenForm);
    allow(caller);
    if (!form.ok) return render(c, 400, { origins: form.fields.origins ?? '', env: form.fields.env ?? 'live', error: form.message });
    try {
      await tokens.create(caller.account.id, form.data.env, form.data.origins);
    } catch (error) {
      if (!(error instanceof InvalidOriginError)) throw error;
      return render(c, 400, { origins: form.data.origins.join('\n'), env: form.data.env, error: error.message });
    }
    await sessions.setFlash(caller.sessionId, { kind: 'notice', message: 'Token created: embed it with the snippet below.' });
    throw new Redirect(BACK);
  });

  web.post('/tokens/:id/origins', async (c) => {
    const caller = await requireCaller(c, services);
    const form = await sessionForm(c, services, caller, OriginsForm);
    allow(caller);
    let message = form.ok ? '' : form.message;
    if (form.ok) {
      try {
        await tokens.setOrigins(c.req.param('id'), form.data.origins, caller.account.id);
      } catch (error) {
        if (!(error instanceof InvalidOriginError)) throw error;
        message = `Origins not saved. ${error.message}`;
      }
    } else {
      await tokens.get(c.req.param('id'), caller.account.id);
    }
    await sessions.setFlash(caller.sessionId, message ? { kind: 'error', message } : { kind: 'notice', message: 'Origins saved.' });
    throw new Redirect(BACK);
  });

  web.post('/tokens/:id/revoke', async (c) => {
    const caller = await requireCaller(c, services);
    await sessionForm(c, services, caller, CsrfForm);
    allow(caller);
    await tokens.revoke(c.req.param('id'), caller.account.id);
    await sessions.setFlash(caller.sessionId, { kind: 'notice', message: 'Token revoked: the widget endpoint refuses it from now on.' });
    throw new Redirect(BACK);
  });
}
