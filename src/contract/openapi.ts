import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { addCodeSamples } from './code-samples.js';

/**
 * The OpenAPI 3.1 document, generated from the routes' Zod schemas (version 1.0.0 per SPEC).
 * `servers` only when the public URL is configured; the request examples always need a base.
 */
export function openApiDocument<E extends Env>(app: OpenAPIHono<E>, samplesBase: string, serverUrl?: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'secretKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Secret API key `ak_live_…` or `ak_test_…` (servers only)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'publishableToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Publishable token `svc_pk_live_…` or `svc_pk_test_…`, bound to an HTTPS origin allowlist',
  });
  const document = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Address validation and autocomplete',
      version: '1.0.0',
      description:
        'Validates and autocompletes postal addresses across several geocoding providers, with one confidence (0-100), one verdict and an explanation of every verdict.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
  });
  // Request examples for every endpoint (curl, fetch), shown by the /docs renderer.
  return addCodeSamples(document, samplesBase);
}
