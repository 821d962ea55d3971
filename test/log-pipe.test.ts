import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './support/backends.js';
import { type ChildService, startChildService } from './support/child-server.js';

/**
 * Issue 20 §3: `npm start` logging into a pipe (`… | cat`, a log shipper). A reader that stops
 * reading, or goes away, must neither block serving nor keep SIGTERM from ending the process.
 */
describe('the JSON log on a pipe whose reader misbehaves', () => {
  let sandbox: Sandbox;
  const children: ChildService[] = [];
  const start = () => {
    // Grace = PROVIDER_TIMEOUT_MS + 5 s; the probe and providers point at a closed port (no network).
    const service = startChildService({ ...sandbox.env, PROVIDERS: 'pdok', PDOK_URL: 'http://127.0.0.1:9', PROVIDER_TIMEOUT_MS: '1000', LOG_LEVEL: 'info' });
    children.push(service);
    return service;
  };

  beforeAll(async () => {
    sandbox = await createSandbox('sqlite');
  });
  afterEach(() => {
    for (const c of children.splice(0)) c.kill();
  });
  afterAll(async () => sandbox.cleanup());

  /** `count` requests to /healthz, `width` at a time; each writes one access-log line. */
  async function hammer(origin: string, count: number, width = 16): Promise<number[]> {
    const agent = new Agent({ connections: width });
    const statuses: number[] = [];
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: width }, async () => {
          while (next < count) {
            next += 1;
            const res = await request(`${origin}/healthz`, { dispatcher: agent });
            await res.body.text();
            statuses.push(res.statusCode);
          }
        }),
      );
    } finally {
      await agent.close();
    }
    return statuses;
  }

  it('a reader that stops reading: requests keep being answered past a full pipe, and SIGTERM still ends the process', async () => {
    const service = start();
    const origin = `http://127.0.0.1:${await service.port()}`;
    // From here nothing reads the child's stdout: the pipe (64 KiB) fills after a few hundred lines.
    service.child.stdout.pause();
    const statuses = await hammer(origin, 1500);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1500);
    service.child.kill('SIGTERM');
    expect([0, 1]).toContain(await service.exited);
  }, 120_000);

  it('a reader that goes away (EPIPE): serving goes on, and SIGTERM ends the process', async () => {
    const service = start();
    const origin = `http://127.0.0.1:${await service.port()}`;
    service.child.stdout.destroy();
    const statuses = await hammer(origin, 200);
    expect(statuses.filter((s) => s === 200)).toHaveLength(200);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 120_000);
});
