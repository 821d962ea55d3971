import { haversineMeters } from '../../src/lib/sphere.js';
import type { EmulatorAddress } from './dataset.js';
import { type Entity, entitiesOf } from './search.js';

/**
 * The emulators' reverse look-up: the dataset's address points nearest to a position, as the
 * providers' `/reverse` endpoints answer (nearest first, within their radius), each emulator
 * rendering them in its own wire format (photon.ts, nominatim.ts, pdok.ts).
 */
export interface Near {
  entity: Entity;
  distanceM: number;
}

/** A coordinate parameter as the providers read it: a decimal number in range, else a 400. */
export function coordinate(value: string | null, max: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= max ? n : undefined;
}

export function nearestAddresses(dataset: EmulatorAddress[], lat: number, lng: number, radiusM: number, limit: number): Near[] {
  return entitiesOf(dataset)
    .filter((e) => e.kind === 'address')
    .map((entity) => ({ entity, distanceM: haversineMeters({ lat, lng }, entity) }))
    .filter((n) => n.distanceM <= radiusM)
    .sort((a, b) => a.distanceM - b.distanceM)
    .slice(0, limit);
}
