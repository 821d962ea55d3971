import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * One address the emulators know. `houseNumber` carries any suffix (`12B`, `231-3`). `city` is
 * the town people write; the optional place levels around it shape the providers' answers:
 * `locality` a village or hamlet inside it (`localityType`, OSM's key), `municipality` a larger
 * unit it belongs to (the Dutch gemeente Veere of the woonplaats Westkapelle), `county`, and
 * `cityType` the OSM key of the town itself (`village` for every place in Liechtenstein).
 */
export const EmulatorAddress = z.object({
  id: z.string().min(1),
  street: z.string().min(1),
  houseNumber: z.string().min(1),
  postcode: z.string().min(1),
  city: z.string().min(1),
  cityType: z.enum(['city', 'town', 'village']).optional(),
  locality: z.string().min(1).optional(),
  localityType: z.enum(['village', 'hamlet', 'suburb']).optional(),
  municipality: z.string().min(1).optional(),
  county: z.string().min(1).optional(),
  state: z.string().min(1).optional(),
  country: z.string().length(2),
  lat: z.number(),
  lng: z.number(),
});
export type EmulatorAddress = z.infer<typeof EmulatorAddress>;

const FIXTURES = new URL('./fixtures/', import.meta.url);

/** Reads a fixture file that lives next to the emulators (never ../shared). */
export function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

/** Real-looking addresses across NL, DE, FR, GB and US (fixtures/dataset.json). */
export const DEFAULT_DATASET: EmulatorAddress[] = z.array(EmulatorAddress).parse(JSON.parse(readFixture('dataset.json')));

/**
 * Addresses whose providers name several place levels (fixtures/place-levels.json): Liechtenstein
 * villages inside municipalities of the same OSM key, and a Dutch woonplaats in a larger gemeente.
 */
export const PLACE_LEVELS_DATASET: EmulatorAddress[] = z.array(EmulatorAddress).parse(JSON.parse(readFixture('place-levels.json')));
