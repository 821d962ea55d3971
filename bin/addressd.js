#!/usr/bin/env -S node --max-semi-space-size=64
// Installed CLI entry: runs the TypeScript sources through tsx (a runtime dependency).
// A larger young generation (also in the `cli` npm script): an import allocates short-lived
// rows by the million, and V8's default 16 MiB semi-space spends a fifth of it collecting them.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
