import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

describe('/openapi.json', () => {
  let server: TestServer;
  let doc: Record<string, any>;
  beforeAll(async () => {
    server = await startTestServer();
    doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, any>;
  });
  afterAll(async () => server.close());

  it('is valid OpenAPI 3.1, version 1.0.0', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('holds every SPEC endpoint', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual(
      [
        'GET /healthz',
        'GET /readyz',
        'POST /v1/validate',
        'POST /v1/validate/batch',
        'POST /v1/validate/feedback',
        'POST /v1/autocomplete',
        'POST /v1/widget/autocomplete',
        'OPTIONS /v1/widget/autocomplete',
        'POST /v1/reverse',
        'POST /v1/widget/reverse',
        'OPTIONS /v1/widget/reverse',
        'GET /v1/usage',
        'POST /demo/validate',
      ].sort(),
    );
  });

  it('holds every SPEC schema', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'AddressComponents', 'ValidateRequest', 'ValidateResponse', 'ResolvedAddress', 'Verdict', 'Reason',
      'ComponentVerdict', 'ConsensusStatus', 'ComponentVerdicts', 'GeoPoint', 'TraceStep', 'Candidate',
      'ConsensusReport', 'ProviderDisagreement', 'ConsensusDifference', 'AutocompleteRequest', 'Suggestion',
      'AutocompleteResponse', 'WidgetSuggestion', 'WidgetAutocompleteResponse', 'UsageResponse',
      'DemoValidateResponse', 'DemoRateLimitError', 'Error', 'ValidationError', 'PlanId', 'Environment', 'DemoLimitWindow',
      'ReadyResponse', 'ReverseRequest', 'ReverseResponse', 'ReverseSuggestion', 'WidgetReverseResponse',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(doc.components.schemas.Verdict.enum).toEqual(['valid', 'correctable', 'invalid']);
    expect(doc.components.schemas.TraceStatus.enum).toHaveLength(9);
  });

  it('states the required fields and bounds SPEC gives', () => {
    const schemas = doc.components.schemas;
    const required = (name: string) => [...(schemas[name].required ?? [])].sort();
    // Issue 27's answer fields are always present; responseId only where feedback can follow (not the demo).
    const answer = ['action', 'alternatives', 'granularity', 'unresolved'];
    expect(required('ValidateResponse')).toEqual([...answer, 'address', 'cached', 'components', 'confidence', 'consensus', 'provider', 'reasons', 'responseId', 'verdict'].sort());
    expect(required('DemoValidateResponse')).toEqual([...answer, 'address', 'components', 'confidence', 'consensus', 'provider', 'reasons', 'verdict'].sort());
    expect(schemas.DemoValidateResponse.properties.cached).toBeUndefined();
    expect(required('ConsensusReport')).toEqual(
      ['baseConfidence', 'confidenceDelta', 'conflictingProviders', 'disagreements', 'score', 'status', 'supportingProviders'],
    );
    expect(required('UsageResponse')).toEqual(
      ['creditsUsedThisMonth', 'daily', 'environment', 'extraCredits', 'feedback', 'filteredBySource', 'plan', 'quota', 'recent', 'sources', 'summary'],
    );
    expect(required('DemoRateLimitError')).toEqual(['freeMonthlyCredits', 'limits', 'message', 'retryAfterSeconds']);
    expect(required('ValidationError')).toEqual(['issues', 'message']);
    expect(required('AutocompleteRequest')).toEqual(['query']);
    // Issue 34: `inferred` always present (empty when nothing was derived), so integrators see one shape.
    expect(required('ResolvedAddress')).toEqual(['formatted', 'inferred', 'lat', 'lines', 'lng']);
    // ValidateRequest: at least one of query or components.
    expect(schemas.ValidateRequest.anyOf).toEqual([{ required: ['query'] }, { required: ['components'] }]);
    expect(schemas.ValidateRequest.properties.query).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(schemas.AddressComponents.properties.houseNumber).toMatchObject({ minLength: 1, maxLength: 20 });
    expect(schemas.AutocompleteRequest.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 10, default: 5 });
    expect(schemas.AutocompleteRequest.properties.sessionToken).toMatchObject({ maxLength: 64 });
    expect(schemas.ConsensusReport.properties.confidenceDelta).toMatchObject({ minimum: -100, maximum: 100 });
  });

  it('shows an example of every field issue 27 added to the validate answer', () => {
    const schemas = doc.components.schemas;
    // The example where the generator puts it: on the field, beside a $ref in allOf, or on the named schema.
    const example = (schema: Record<string, any>): unknown =>
      schema.example ?? schema.allOf?.map(example).find((e: unknown) => e !== undefined) ?? (schema.$ref ? schemas[schema.$ref.split('/').pop()].example : undefined);
    const response = schemas.ValidateResponse.properties;
    expect(example(schemas.ResolvedAddress.properties.unit)).toBe('Apt 3B');
    expect(example(schemas.ResolvedAddress.properties.lines)).toEqual(['1932 Eastern Avenue Apt 3B', 'Baltimore, MD 21231']);
    expect(example(schemas.ResolvedAddress.properties.formatted)).toBe('1932 Eastern Avenue Apt 3B, Baltimore, MD 21231');
    expect(example(schemas.AddressComponents.properties.unit)).toBe('Apt 3B');
    expect(example(schemas.ComponentVerdicts.properties.unit)).toBe('match');
    expect(example(response.granularity)).toEqual({ input: 'unit', validated: 'house', geocode: 'house' });
    expect(example(response.action)).toBe('accept');
    expect(example(response.unresolved)).toEqual(['c/o Müller']);
    expect((example(response.alternatives.items) as { address: { lines: string[] } }).address.lines).toEqual(['Hauptstraße 5', '67433 Neustadt an der Weinstraße']);
    expect(schemas.NextAction.enum).toEqual(['accept', 'confirm', 'fix', 'add_unit']);
    expect(schemas.Granularity.enum).toEqual(['unit', 'house', 'interpolated', 'street', 'postcode', 'place', 'region', 'country', 'none']);
    expect(response.alternatives).toMatchObject({ type: 'array', maxItems: 3 });
    expect(schemas.AddressComponents.properties.unit).toMatchObject({ minLength: 1, maxLength: 40 });
  });

  it('documents the headers SPEC requires', () => {
    const widgetParams = doc.paths['/v1/widget/autocomplete'].post.parameters as { name: string; in: string; required: boolean }[];
    expect(widgetParams).toContainEqual(expect.objectContaining({ name: 'origin', in: 'header', required: true }));
    const preflight = doc.paths['/v1/widget/autocomplete'].options.parameters as { name: string; required: boolean }[];
    expect(preflight.map((p) => [p.name, p.required])).toEqual([
      ['origin', true],
      ['access-control-request-method', true],
    ]);
    const limited = doc.paths['/demo/validate'].post.responses['429'];
    expect(limited.headers['Retry-After']).toMatchObject({ required: true, schema: { type: 'integer' } });
    for (const path of ['/v1/validate', '/v1/autocomplete']) {
      expect(doc.paths[path].post.parameters).toContainEqual(expect.objectContaining({ name: 'source', in: 'query', required: false }));
    }
  });

  it('describes validation feedback (issue 29): the endpoint, its answers and the fields, with examples', () => {
    const op = doc.paths['/v1/validate/feedback'].post;
    expect(op.security).toEqual([{ secretKey: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(['204', '400', '401', '404', '409', '429', '503']);
    expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidateFeedbackRequest' });
    const schemas = doc.components.schemas;
    expect([...schemas.ValidateFeedbackRequest.required].sort()).toEqual(['conclusion', 'responseId']);
    expect(schemas.ValidateFeedbackRequest.example).toMatchObject({ conclusion: 'validated_used' });
    expect(schemas.FeedbackConclusion.enum).toEqual(['validated_used', 'user_used', 'unvalidated_used', 'unused']);
    expect(schemas.ValidateResponse.properties.responseId).toMatchObject({ type: 'string', example: expect.stringMatching(/^rsp_/) });
    expect(schemas.ValidateRequest.properties.previousResponseId).toMatchObject({ type: 'string', description: expect.stringContaining('chain') });
    expect(schemas.UsageResponse.properties.feedback).toEqual({ $ref: '#/components/schemas/FeedbackCounts' });
    expect(Object.keys(schemas.FeedbackCounts.example).sort()).toEqual(['unused', 'unvalidated_used', 'user_used', 'validated_used']);
    expect(op['x-codeSamples'][0].source).toContain('/v1/validate/feedback');
  });

  it('declares both credential kinds', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['publishableToken', 'secretKey']);
    for (const [method, path] of [['post', '/v1/validate'], ['post', '/v1/autocomplete'], ['get', '/v1/usage']] as const) {
      expect(doc.paths[path][method].security, path).toEqual([{ secretKey: [] }]);
    }
    for (const [method, path] of [['get', '/healthz'], ['post', '/demo/validate'], ['options', '/v1/widget/autocomplete']] as const) {
      expect(doc.paths[path][method].security, path).toBeUndefined();
    }
    expect(doc.paths['/v1/widget/autocomplete'].post.security).toEqual([{ publishableToken: [] }]);
  });

  it('writes its request examples for the port it serves on when no public URL is set', async () => {
    expect(doc.servers).toBeUndefined();
    const port = server.services.config.PORT;
    const samples = doc.paths['/v1/validate'].post['x-codeSamples'] as { lang: string; source: string }[];
    expect(samples.map((s) => s.lang).sort()).toEqual(['JavaScript', 'Shell']);
    for (const sample of samples) expect(sample.source).toContain(`http://localhost:${port}/v1/validate`);
  });
});
