import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { ProviderError } from './provider.js';

/**
 * The one outbound HTTP executor of the provider adapters: a shared keep-alive undici Agent,
 * our User-Agent on every call, and every way a response can be unusable turned into a
 * ProviderError (status, content type, JSON, wire schema). Timeouts and the circuit breaker
 * live in the engine's ProviderRunner, which hands us the AbortSignal.
 */
export interface HttpClientOptions {
  userAgent: string;
  /** Tests inject a MockAgent; otherwise one keep-alive Agent is created and owned here. */
  dispatcher?: Dispatcher;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
/** Provider payloads are small; anything larger is not a geocoding answer. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class HttpClient {
  readonly userAgent: string;
  private readonly dispatcher: Dispatcher;
  private readonly owned: boolean;

  constructor(opts: HttpClientOptions) {
    this.userAgent = opts.userAgent;
    this.owned = opts.dispatcher === undefined;
    this.dispatcher = opts.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  }

  /** GET `url`, expect JSON and parse it with `schema`; throws ProviderError for anything else. */
  async getJson<S extends z.ZodType>(url: URL, schema: S, signal: AbortSignal): Promise<z.output<S>> {
    const text = await this.getText(url, signal);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new ProviderError('malformed JSON in response body', 'malformed');
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : '(root)';
      throw new ProviderError(`unexpected response shape at ${where}: ${issue?.message ?? 'invalid'}`, 'malformed');
    }
    return parsed.data;
  }

  private async getText(url: URL, signal: AbortSignal): Promise<string> {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: this.dispatcher,
        signal,
        headers: { 'user-agent': this.userAgent, accept: 'application/json' },
      });
    } catch (error) {
      throw networkError(error, signal);
    }
    const { statusCode, headers, body } = response;
    if (statusCode < 200 || statusCode > 299) {
      await body.dump().catch(() => undefined);
      throw new ProviderError(`HTTP ${statusCode}`, 'http');
    }
    const contentType = String(headers['content-type'] ?? '');
    if (!JSON_TYPE.test(contentType)) {
      await body.dump().catch(() => undefined);
      throw new ProviderError(`unexpected content type ${contentType || '(none)'}`, 'malformed');
    }
    if (Number(headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      await body.dump().catch(() => undefined);
      throw new ProviderError('response body too large', 'malformed');
    }
    try {
      return await body.text();
    } catch (error) {
      throw networkError(error, signal);
    }
  }

  /**
   * Whether `url` answers over HTTP at all (any status counts: the server is there), for the
   * start-up probe. Resolves to the status code; rejects with a ProviderError otherwise.
   */
  async reach(url: URL, signal: AbortSignal): Promise<number> {
    try {
      const { statusCode, body } = await request(url, { method: 'GET', dispatcher: this.dispatcher, signal, headers: { 'user-agent': this.userAgent } });
      await body.dump().catch(() => undefined);
      return statusCode;
    } catch (error) {
      throw networkError(error, signal);
    }
  }

  async close(): Promise<void> {
    if (this.owned) await this.dispatcher.close();
  }
}

/** A cancelled call rethrows the abort as is (the runner tells timeout from caller abort). */
function networkError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return error;
  const cause = error instanceof Error ? ((error as Error & { code?: string }).code ?? error.message) : String(error);
  return new ProviderError(`network error: ${cause}`, 'network');
}
