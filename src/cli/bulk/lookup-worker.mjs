// Worker thread entry of a bulk run's lookups (see lookup-pool.ts). Plain JavaScript, so it loads
// in any process: beside the TypeScript sources it registers tsx the way bin/addressd.js does and
// runs lookup-worker.ts; in dist/ (`npm run build`) it runs the compiled lookup-worker.js directly.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./lookup-worker.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./lookup-worker.ts');
} else {
  await import('./lookup-worker.js');
}
