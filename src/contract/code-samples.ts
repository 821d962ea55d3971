import { z } from '@hono/zod-openapi';

/**
 * Request examples for every operation of the OpenAPI document, as `x-codeSamples` (the
 * extension Redoc and most renderers show next to an operation): curl and JavaScript fetch,
 * built from each route's method, path, credential and request-body example.
 */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const Parameter = z.object({ name: z.string(), in: z.string(), example: z.unknown().optional(), schema: z.object({ example: z.unknown().optional() }).optional() });
const Operation = z.object({
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
  parameters: z.array(z.unknown()).optional(),
  requestBody: z
    .object({ content: z.record(z.string(), z.object({ schema: z.looseObject({ $ref: z.string().optional(), example: z.unknown().optional() }) })) })
    .optional(),
});
const Schemas = z.record(z.string(), z.looseObject({ example: z.unknown().optional() }));

const Paths = z.record(z.string(), z.record(z.string(), z.unknown()));
const Components = z.object({ schemas: z.unknown().optional() });

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'] as const;

/** Placeholders a reader replaces; never real credentials. */
const CREDENTIALS: Record<string, { header: string; value: string }[]> = {
  secretKey: [{ header: 'Authorization', value: 'Bearer $API_KEY' }],
  publishableToken: [
    { header: 'Authorization', value: 'Bearer $PUBLISHABLE_TOKEN' },
    { header: 'Origin', value: 'https://shop.example.com' },
  ],
};

/** Adds `x-codeSamples` to every operation (in place) and returns the document. */
export function addCodeSamples<T extends { paths?: unknown; components?: unknown }>(document: T, baseUrl: string): T {
  const schemas = Schemas.safeParse(Components.safeParse(document.components).data?.schemas ?? {});
  // The records are parsed copies, but each operation object is the document's own: edited in place.
  for (const [path, item] of Object.entries(Paths.safeParse(document.paths).data ?? {})) {
    for (const method of METHODS) {
      const raw = item[method];
      const op = Operation.safeParse(raw);
      if (!op.success || typeof raw !== 'object' || raw === null) continue;
      const headers = headersOf(op.data);
      const body = bodyExample(op.data, schemas.success ? schemas.data : {});
      if (body !== undefined) headers.push({ header: 'Content-Type', value: 'application/json' });
      const url = `${baseUrl.replace(/\/$/, '')}${path}`;
      (raw as Record<string, unknown>)['x-codeSamples'] = [
        { lang: 'Shell', label: 'curl', source: curl(method, url, headers, body) },
        { lang: 'JavaScript', label: 'fetch', source: fetchSample(method, url, headers, body) },
      ] satisfies CodeSample[];
    }
  }
  return document;
}

function headersOf(op: z.infer<typeof Operation>): { header: string; value: string }[] {
  const headers = (op.security ?? []).flatMap((requirement) => Object.keys(requirement).flatMap((name) => CREDENTIALS[name] ?? []));
  for (const p of op.parameters ?? []) {
    const param = Parameter.safeParse(p);
    if (!param.success || param.data.in !== 'header') continue;
    const name = headerCase(param.data.name);
    if (headers.some((h) => h.header === name)) continue;
    const example = param.data.example ?? param.data.schema?.example ?? (name === 'Origin' ? 'https://shop.example.com' : undefined);
    if (example !== undefined) headers.push({ header: name, value: String(example) });
  }
  return headers;
}

/** `access-control-request-method` → `Access-Control-Request-Method`, as people write headers. */
const headerCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

function bodyExample(op: z.infer<typeof Operation>, schemas: z.infer<typeof Schemas>): unknown {
  const schema = op.requestBody?.content['application/json']?.schema;
  if (!schema) return undefined;
  if (schema.example !== undefined) return schema.example;
  const name = schema.$ref?.split('/').pop();
  return name ? schemas[name]?.example : undefined;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function curl(method: string, url: string, headers: { header: string; value: string }[], body: unknown): string {
  const lines = [method === 'get' ? `curl ${shellQuote(url)}` : `curl -X ${method.toUpperCase()} ${shellQuote(url)}`];
  // $API_KEY stays unquoted-expandable: double quotes let the shell fill in the variable.
  for (const h of headers) lines.push(`  -H "${h.header}: ${h.value}"`);
  if (body !== undefined) lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

function fetchSample(method: string, url: string, headers: { header: string; value: string }[], body: unknown): string {
  const js = (h: { header: string; value: string }) =>
    h.value.includes('$') ? `\`${h.value.replace(/\$([A-Z_]+)/g, '${$1}')}\`` : JSON.stringify(h.value);
  const lines = [`const response = await fetch(${JSON.stringify(url)}, {`, `  method: ${JSON.stringify(method.toUpperCase())},`];
  if (headers.length > 0) {
    lines.push('  headers: {');
    for (const h of headers) lines.push(`    ${JSON.stringify(h.header)}: ${js(h)},`);
    lines.push('  },');
  }
  if (body !== undefined) lines.push(`  body: JSON.stringify(${JSON.stringify(body)}),`);
  lines.push('});');
  if (method !== 'options') lines.push('console.log(response.status, await response.json());');
  else lines.push('console.log(response.status, response.headers.get("Access-Control-Allow-Origin"));');
  return lines.join('\n');
}
