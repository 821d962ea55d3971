import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** One address the emulators know. `houseNumber` carries any suffix (`12B`, `231-3`). */
export const EmulatorAddress = z.object({
  id: z.string().min(1),
  street: z.string().min(1),
  houseNumber: z.string().min(1),
  postcode: z.string().min(1),
  city: z.string().min(1),
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
