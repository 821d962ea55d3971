import { rng } from '../local-generate.js';
import { FREQUENCIES } from './country.js';
import type { Generated } from './generate.js';
import { type Latency, post, timed } from './queries.js';

const EARTH_RADIUS_M = 6_371_008.8;

/**
 * Reverse look-up over HTTP (issue 35), one at a time: for every sampled address a position 5-80 m
 * from it in a random direction (a phone's fix beside the house), `POST /v1/reverse` with the
 * defaults' radius (200 m) and limit 5; right when the address is among the answers. Every
 * position is asked once, so no cache answers it.
 */
export async function runReverse(url: string, key: string, generated: Generated): Promise<Latency> {
  const rand = rng(35);
  const samples = FREQUENCIES.flatMap((f) => generated.samples[f]);
  const calls = samples.map((a) => {
    const distance = 5 + rand() * 75;
    const bearing = rand() * 2 * Math.PI;
    const lat = a.lat + ((distance * Math.cos(bearing)) / EARTH_RADIUS_M) * (180 / Math.PI);
    const lng = a.lng + ((distance * Math.sin(bearing)) / (EARTH_RADIUS_M * Math.cos((a.lat * Math.PI) / 180))) * (180 / Math.PI);
    return async () => {
      const res = await post(url, key, '/v1/reverse', { lat, lng, radiusMeters: 200, limit: 5 });
      if (res.status !== 200) throw new Error(`reverse ${lat},${lng}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
      const found = (res.json as { suggestions: { components: { street?: string; houseNumber?: string } }[] }).suggestions;
      return found.some((s) => s.components.street?.toLowerCase() === a.street.toLowerCase() && s.components.houseNumber === a.number);
    };
  });
  // Warm-up on positions no measured call repeats (the first calls pay for page reads and JIT).
  await timed(samples.slice(0, 20).map((a) => async () => (await post(url, key, '/v1/reverse', { lat: a.lat + 0.01, lng: a.lng, limit: 5 })).status === 200));
  return timed(calls);
}
