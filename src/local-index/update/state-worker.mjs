// Worker thread entry for reading an OSM extract's update state (see state-thread.ts). Plain
// JavaScript, so it loads in any process: beside the TypeScript sources it registers tsx the way
// bin/addressd.js does and runs state-worker.ts; in dist/ it runs the compiled state-worker.js.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./state-worker.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./state-worker.ts');
} else {
  await import('./state-worker.js');
}
