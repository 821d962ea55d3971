// Worker thread entry for the reading half of an import (see worker-chunks.ts). Plain JavaScript,
// so it loads in any process; it registers tsx the way bin/addressd.js does, then runs the
// TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('./read-worker.ts');
