import { Redis } from 'ioredis';

/** Deletes a test run's keys (its own prefix) from the shared Redis: never a FLUSH, other suites share it. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const admin = new Redis(url);
  const keys: string[] = [];
  for await (const batch of admin.scanStream({ match: `${prefix}*`, count: 500 })) keys.push(...(batch as string[]));
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
}
