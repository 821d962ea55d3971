import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutocompleteRequest } from '../../src/contract/autocomplete.js';
import { closestField } from '../../src/contract/request-object.js';
import type { SuggestRequest } from '../../src/widget/api-client.js';
import { Messages } from '../../src/http/errors.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 36, the integrator's errors: a field the API does not know (`"contry": "LI"`) is a 400
 * naming it and the closest known field on every JSON endpoint, where it used to be dropped (and
 * the default country applied); a publishable token on a secret-key endpoint says what it is for.
 */
const ORIGIN = 'https://shop.example';

/** The widget's request type may only hold fields the schema declares (checked by tsc): an undeclared one would now be a 400 on every keystroke. */
type WidgetOnlyFields = Exclude<keyof SuggestRequest, keyof AutocompleteRequest>;
const widgetSendsDeclaredFieldsOnly: [WidgetOnlyFields] extends [never] ? true : never = true;

describe('closestField', () => {
  it('(the widget sends declared fields only: a compile-time check)', () => expect(widgetSendsDeclaredFieldsOnly).toBe(true));
  const known = ['query', 'components', 'country', 'language', 'source', 'debug', 'previousResponseId'];
  it.each([
    ['contry', 'country'],
    ['Country', 'country'],
    ['previous_response_id', 'previousResponseId'],
    ['qeury', 'query'],
    ['address', 'query'],
    ['lang', 'language'],
    ['foo', undefined],
    ['street', undefined],
  ])('%s → %s', (unknown, expected) => {
    expect(closestField(unknown, known)).toBe(expected);
  });
  it('component aliases: zip, town, house_number', () => {
    const components = ['street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'unit'];
    expect(['zip', 'town', 'house_number', 'stret'].map((k) => closestField(k, components))).toEqual(['postcode', 'city', 'houseNumber', 'street']);
  });
});

describe('unknown fields and wrong credentials', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ providers: 'pdok' });
    const account = await server.createAccount({ plan: 'starter' });
    auth = { authorization: `Bearer ${account.key}` };
    token = (await server.createToken(account.accountId, [ORIGIN])).token;
  });
  afterAll(async () => server?.close());

  const unknownField = (path: (string | number)[], key: string, message: string) => ({
    message: 'Validation failed',
    issues: [{ code: 'unrecognized_keys', keys: [key], path, message }],
  });

  it.each([
    ['/v1/validate', { query: 'Damrak 1, Amsterdam', contry: 'LI' }, [], 'contry', 'Unknown field "contry": did you mean "country"?'],
    ['/v1/validate', { components: { street: 'Damrak', houseNumber: '1', zip: '1012 LG' } }, ['components'], 'zip', 'Unknown field "zip": did you mean "postcode"?'],
    ['/v1/autocomplete', { query: 'Damrak', limt: 3 }, [], 'limt', 'Unknown field "limt": did you mean "limit"?'],
    ['/v1/validate/batch', { items: [{ query: 'Damrak 1' }], sorce: 'crm' }, [], 'sorce', 'Unknown field "sorce": did you mean "source"?'],
    ['/v1/validate/feedback', { responseId: 'rsp_x', conclusion: 'unused', response_id: 'rsp_x' }, [], 'response_id', 'Unknown field "response_id": did you mean "responseId"?'],
  ])('%s: %j is a 400 naming the field and the closest known one', async (path, body, issuePath, key, message) => {
    const res = await server.post(path, body, auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(unknownField(issuePath, key, message));
  });

  it('a field unlike any known one lists the fields of that object', async () => {
    const res = await server.post('/v1/validate', { query: 'Damrak 1', shipping: true }, auth);
    expect(res.status).toBe(400);
    const { issues } = (await res.json()) as { issues: { message: string }[] };
    expect(issues[0]?.message).toBe('Unknown field "shipping": the fields here are "query", "components", "country", "language", "source", "debug", "near", "previousResponseId"');
  });

  it('a batch item with an unknown field is its own 400; the others are answered', async () => {
    const res = await server.post('/v1/validate/batch', { items: [{ query: 'Damrak 1, Amsterdam', country: 'NL' }, { query: 'Damrak 1', contry: 'NL' }] }, auth);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { verdict?: string; status?: number; error?: unknown }[] };
    expect(results[0]?.verdict).toBeDefined();
    expect(results[1]).toEqual({ status: 400, error: unknownField([], 'contry', 'Unknown field "contry": did you mean "country"?') });
  });

  it('the widget endpoint too', async () => {
    const res = await server.post('/v1/widget/autocomplete', { query: 'Damrak', contry: 'NL' }, { authorization: `Bearer ${token}`, origin: ORIGIN });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(unknownField([], 'contry', 'Unknown field "contry": did you mean "country"?'));
  });

  it('the demo, in its own {message} shape', async () => {
    const res = await server.post('/demo/validate', { query: 'Damrak 1, Amsterdam', contry: 'NL' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Unknown field "contry": the fields here are "query"' });
  });

  it('nothing was looked up for a refused body: the default country never applied', async () => {
    const before = server.emulators.pdok.requests.length;
    await server.post('/v1/validate', { query: 'Damrak 1, Amsterdam', contry: 'LI' }, auth);
    expect(server.emulators.pdok.requests.length).toBe(before);
  });

  it.each(['/v1/validate', '/v1/validate/batch', '/v1/autocomplete', '/v1/validate/feedback'])(
    'a publishable token on %s is a 401 saying tokens are for the widget endpoints',
    async (path) => {
      const res = await server.post(path, { query: 'Damrak 1' }, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: Messages.publishableOnSecretEndpoint });
    },
  );

  it('GET /v1/usage with a publishable token alike', async () => {
    const res = await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: Messages.publishableOnSecretEndpoint });
  });

  it('every request body of the OpenAPI document refuses undeclared fields (additionalProperties: false)', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Schema }> } }>>;
      components: { schemas: Record<string, Schema> };
    };
    type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; additionalProperties?: unknown; items?: Schema; anyOf?: Schema[] };
    const open: string[] = [];
    const seen = new Set<Schema>();
    const visit = (schema: Schema | undefined, where: string): void => {
      if (!schema || seen.has(schema)) return;
      seen.add(schema);
      if (schema.$ref) return visit(doc.components.schemas[schema.$ref.split('/').pop()!], schema.$ref);
      if (schema.type === 'object' && schema.additionalProperties !== false) open.push(where);
      for (const [name, property] of Object.entries(schema.properties ?? {})) visit(property, `${where}.${name}`);
      visit(schema.items, `${where}[]`);
      for (const option of schema.anyOf ?? []) visit(option, where);
    };
    let bodies = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies += 1;
        visit(schema, `${method.toUpperCase()} ${path}`);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(6);
    expect(open).toEqual([]);
  });
});
