// Worker thread entry for the reading half of an import (see worker-chunks.ts). Plain JavaScript,
// so it loads in any process. Beside the TypeScript sources it registers tsx the way
// bin/addressd.js does and runs read-worker.ts; in dist/ (`npm run build`) it runs the compiled
// read-worker.js directly.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./read-worker.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./read-worker.ts');
} else {
  await import('./read-worker.js');
}
