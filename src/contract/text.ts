import { z } from '@hono/zod-openapi';

/**
 * A string bounded in characters, as SPEC counts them ("Length bounds are character counts"):
 * z.string().max() counts UTF-16 code units, so one emoji or rare CJK character would count
 * twice. The issues keep Zod's own shape (too_small / too_big with minimum / maximum), and the
 * document states the bounds as JSON Schema's minLength / maxLength, which count characters too.
 */
export function text(min: number, max: number) {
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
    })
    .openapi({ minLength: min, maxLength: max });
}
