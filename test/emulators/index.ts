/**
 * Provider emulators for tests: one tiny HTTP server per provider on 127.0.0.1 (port 0),
 * answering in that provider's real wire format from the fixtures in ./fixtures.
 * API documented in README.md; keep it stable, other test suites depend on it.
 */
export { DEFAULT_DATASET, EmulatorAddress, PLACE_LEVELS_DATASET } from './dataset.js';
export type { Emulator, Fault, RecordedRequest } from './server.js';
export { type PdokEmulatorOptions, startPdokEmulator } from './pdok.js';
export { startPhotonEmulator } from './photon.js';
export { startNominatimEmulator } from './nominatim.js';
