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
        'POST /v1/validate',
        'POST /v1/autocomplete',
        'POST /v1/widget/autocomplete',
        'OPTIONS /v1/widget/autocomplete',
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
    ]) {
      expect(names, name).toContain(name);
    }
    expect(doc.components.schemas.Verdict.enum).toEqual(['valid', 'correctable', 'invalid']);
    expect(doc.components.schemas.TraceStatus.enum).toHaveLength(9);
  });

  it('declares both credential kinds', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['publishableToken', 'secretKey']);
    expect(doc.paths['/v1/validate'].post.security).toEqual([{ secretKey: [] }]);
    expect(doc.paths['/v1/widget/autocomplete'].post.security).toEqual([{ publishableToken: [] }]);
  });
});
