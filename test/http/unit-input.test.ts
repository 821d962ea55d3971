import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_MESSAGE } from '../../src/contract/text.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 27: `components.unit` is a component like the others: 1-40 characters, and (printed on one
 * line of a label) no control characters; anything else is a 400 ValidationError at its path.
 */
describe('components.unit on /v1/validate', () => {
  let server: TestServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    auth = { authorization: `Bearer ${(await server.createAccount({ plan: 'starter' })).key}` };
  });
  afterAll(async () => server?.close());

  const body = (unit: string) => ({ components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL', unit } });

  it.each([
    ['41 characters', 'A'.repeat(41), { code: 'too_big', origin: 'string', maximum: 40, inclusive: true, path: ['components', 'unit'], message: 'Too big: expected string to have <=40 characters' }],
    ['empty', '', { code: 'too_small', origin: 'string', minimum: 1, inclusive: true, path: ['components', 'unit'], message: 'Too small: expected string to have >=1 characters' }],
    ['a line break', 'Apt 3\nB', { code: 'custom', path: ['components', 'unit'], message: CONTROL_MESSAGE }],
    ['a tab', 'Apt\t3B', { code: 'custom', path: ['components', 'unit'], message: CONTROL_MESSAGE }],
    ['an escape', 'Apt 3B\u001b[31m', { code: 'custom', path: ['components', 'unit'], message: CONTROL_MESSAGE }],
  ])('%s is a 400 on components.unit', async (_name, unit, issue) => {
    const res = await server.post('/v1/validate', body(unit), auth);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Validation failed', issues: [issue] });
  });

  it('the same in a batch item, the other items answered', async () => {
    const res = await server.post('/v1/validate/batch', { items: [body('Apt 3B'), body('B'.repeat(41))] }, auth);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: { status?: number; error?: { issues: { path: unknown[] }[] } }[] };
    expect(results[0]?.status).toBeUndefined();
    expect(results[1]).toMatchObject({ status: 400, error: { message: 'Validation failed', issues: [{ path: ['components', 'unit'] }] } });
  });

  it('40 printable characters are a unit', async () => {
    const res = await server.post('/v1/validate', body('Stiege 2 Top 4 '.padEnd(40, 'x')), auth);
    expect(res.status).toBe(200);
  });
});
