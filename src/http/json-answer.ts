import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import { responseJson } from '../engine/shared-answer-json.js';

/**
 * `c.json(answer, 200)`, the same text and Content-Type, with an answer's shared part written once
 * (engine/shared-answer-json.ts). Typed as c.json's answer: the text is `JSON.stringify(answer)`.
 */
export function jsonAnswer<T extends object>(c: Context, answer: T): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  const res: Response = c.body(responseJson(answer), 200, { 'Content-Type': 'application/json' });
  return res as Response & TypedResponse<JSONParsed<T>, 200, 'json'>;
}
