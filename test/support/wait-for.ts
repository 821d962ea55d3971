import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves once `condition` holds, checking every few milliseconds: for state another process
 * changes (a reconnecting client, a child's database writes), where no event reaches the test.
 * Fails with `what` after `timeoutMs`; it never passes on time alone.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(20);
  }
}
