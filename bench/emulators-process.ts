import { startNominatimEmulator, startPdokEmulator, startPhotonEmulator } from '../test/emulators/index.js';

/** Child process for the HTTP bench: the provider emulators on their own CPU, URLs on stdout. */
const [pdok, photon, nominatim] = await Promise.all([startPdokEmulator(), startPhotonEmulator(), startNominatimEmulator()]);
process.stdout.write(`${JSON.stringify({ pdok: pdok.url, photon: photon.url, nominatim: nominatim.url })}\n`);
process.on('SIGTERM', () => {
  void Promise.all([pdok.close(), photon.close(), nominatim.close()]).then(() => process.exit(0));
});
