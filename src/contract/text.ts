import { z } from '@hono/zod-openapi';

/** A UTF-16 surrogate without its partner: not a character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_MESSAGE = 'Contains a character that cannot be stored: NUL (\\u0000) or an unpaired UTF-16 surrogate';

/**
 * True when both databases can store the text exactly as given. PostgreSQL rejects NUL in text
 * (a 500 before this check, and on SQLite it was stored), and a lone surrogate has no UTF-8 form
 * (both drivers silently store U+FFFD instead). Every other Unicode character is fine.
 */
export function isStorable(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

type Ctx = z.core.$RefinementCtx<string>;

function checkStorable(value: string, ctx: Ctx): void {
  if (!isStorable(value)) ctx.addIssue({ code: 'custom', message: UNSTORABLE_MESSAGE });
}

/** C0 and C1 control characters (tab, line feed, escape...): no part of an address written on a label line. */
const CONTROL = /[\u0001-\u001f\u007f-\u009f]/;
/** Bidirectional embeddings, overrides and isolates: they reorder what a reader sees (`Evilweg` shown reversed). */
const BIDI_OVERRIDE = /[\u202a-\u202e\u2066-\u2069]/;
export const CONTROL_MESSAGE = 'Contains a control character (tab, line break, escape or another non-printing character)';
export const BIDI_MESSAGE = 'Contains a bidirectional override (U+202A-U+202E, U+2066-U+2069), which changes how the text is shown';
export const BLANK_MESSAGE = 'Contains only whitespace: send the address to look up';

/**
 * Why a value cannot be printed as it is (an issue's message), or undefined when it can: customer
 * text reaches labels, the console and the operator's terminal (`addressd gaps`), where an escape
 * sequence would act instead of being shown (issue 36).
 */
export function unprintableMessage(value: string): string | undefined {
  if (CONTROL.test(value)) return CONTROL_MESSAGE;
  if (BIDI_OVERRIDE.test(value)) return BIDI_MESSAGE;
  return undefined;
}

function checkPrintable(value: string, ctx: Ctx): void {
  const message = unprintableMessage(value);
  if (message) ctx.addIssue({ code: 'custom', message });
}

/**
 * A string bounded in characters, as SPEC counts them ("Length bounds are character counts"):
 * z.string().max() counts UTF-16 code units, so one emoji or rare CJK character would count
 * twice. The issues keep Zod's own shape (too_small / too_big with minimum / maximum), and the
 * document states the bounds as JSON Schema's minLength / maxLength, which count characters too.
 * Every such string refuses control characters and bidirectional overrides (an issue at its path).
 * `storable`: the value is written to the database (query, components, source), so a character
 * it cannot hold is a 400 issue at this field's path, alike on SQLite and PostgreSQL.
 * `notBlank`: a query, where only whitespace is an issue too.
 */
export function text(min: number, max: number, options: { storable?: boolean; notBlank?: boolean } = {}) {
  return z
    .string()
    .superRefine((value, ctx) => {
      // Only strings with surrogate pairs differ from .length; counting them costs a pass.
      const n = /[\uD800-\uDBFF]/.test(value) ? [...value].length : value.length;
      if (n < min) {
        ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, message: `Too small: expected string to have >=${min} characters` });
      }
      if (n > max) {
        ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, message: `Too big: expected string to have <=${max} characters` });
      }
      if (options.storable) checkStorable(value, ctx);
      // Spaces alone are no address: refused like an empty query, by the API and the CLI alike,
      // instead of a lookup that can only answer `invalid` (a tab among them says nothing more).
      if (options.notBlank && n >= min && value.trim() === '') ctx.addIssue({ code: 'custom', message: BLANK_MESSAGE });
      else checkPrintable(value, ctx);
    })
    .openapi({ minLength: min, maxLength: max });
}

/** An unbounded string the database stores or searches with (a filter, a form field). */
export function storableString() {
  return z.string().superRefine(checkStorable);
}

/** An unbounded string the database stores and a terminal or page prints (a country code, a filter). */
export function printableString() {
  return z.string().superRefine((value, ctx) => {
    checkStorable(value, ctx);
    checkPrintable(value, ctx);
  });
}
