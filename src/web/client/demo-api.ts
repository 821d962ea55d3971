import type { DemoRateLimitError } from '../../contract/errors.js';
import type { DemoValidateResponse } from '../../contract/validate.js';

export type DemoResult =
  /** `recorded`: a sample's written-down answer, not a lookup on this server (X-Addressd-Demo-Answer). */
  | { kind: 'answer'; response: DemoValidateResponse; recorded: boolean }
  | { kind: 'limited'; error: DemoRateLimitError }
  | { kind: 'rejected'; message: string }
  | { kind: 'failed' };

const VERDICTS = new Set(['valid', 'correctable', 'invalid']);

/** A light shape check: enough that rendering never trips over a proxy's error page. */
function isAnswer(body: unknown): body is DemoValidateResponse {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return VERDICTS.has(String(b.verdict)) && typeof b.confidence === 'number' && Array.isArray(b.reasons) && typeof b.consensus === 'object';
}

function isLimit(body: unknown): body is DemoRateLimitError {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return Array.isArray(b.limits) && typeof b.retryAfterSeconds === 'number' && typeof b.freeMonthlyCredits === 'number';
}

/** POST /demo/validate; never throws, every outcome is a state the page can show. */
export async function validateDemo(query: string, signal: AbortSignal): Promise<DemoResult> {
  let res: Response;
  let body: unknown;
  try {
    res = await fetch('/demo/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
      signal,
    });
    body = await res.json();
  } catch {
    return { kind: 'failed' };
  }
  if (res.status === 200 && isAnswer(body)) {
    return { kind: 'answer', response: body, recorded: res.headers.get('x-addressd-demo-answer') === 'recorded-example' };
  }
  if (res.status === 429 && isLimit(body)) return { kind: 'limited', error: body };
  if (res.status === 400 && typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return { kind: 'rejected', message: body.message };
  }
  return { kind: 'failed' };
}
