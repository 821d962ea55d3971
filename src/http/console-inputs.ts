import type { MiddlewareHandler } from 'hono';
import { isStorable, UNSTORABLE_MESSAGE } from '../contract/text.js';
import type { AppEnv } from './context.js';
import { HttpError } from './errors.js';

/**
 * The API's storable-text rule (contract/text.ts) at the console's door: a path (its `:id`
 * segments decoded), a query value or a form field holding NUL or a lone surrogate is a 400 before
 * any handler runs. PostgreSQL refuses NUL in text and answered 500; SQLite compared it and said
 * "not found". Now both stores give the same answer, and no console input reaches SQL unchecked.
 */
export function storableConsoleInputs(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!isStorable(c.req.path) || !Object.values(c.req.queries()).every((values) => values.every(isStorable))) {
      throw new HttpError(400, UNSTORABLE_MESSAGE);
    }
    await next();
  };
}

/** The form's fields, when each one is storable text. */
export function unstorableField(fields: Record<string, string>): string | undefined {
  return Object.keys(fields).find((name) => !isStorable(name) || !isStorable(fields[name] ?? ''));
}

