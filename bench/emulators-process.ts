import { startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../test/emulators/index.js';

/**
 * Child process for the HTTP bench: the provider emulators on their own CPU, URLs on stdout.
 * argv: [delayMs] — every answer then leaves a fixed delayMs after its request arrived, so a
 * validate's latency minus delayMs is our own overhead.
 */
const delayMs = Number(process.argv[2] ?? 0);
const emulators = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
if (delayMs > 0) for (const emulator of emulators) emulator.setFault({ mode: 'slow', delayMs });
// The emulators log every request for tests to inspect; a bench run would only grow that list.
setInterval(() => {
  for (const emulator of emulators) emulator.requests.length = 0;
}, 1000).unref();
const [pdok, photon, nominatim] = emulators;
process.stdout.write(`${JSON.stringify({ pdok: pdok!.url, photon: photon!.url, nominatim: nominatim!.url })}\n`);
process.on('SIGTERM', () => {
  void Promise.all(emulators.map((e) => e.close())).then(() => process.exit(0));
});
