import { z } from 'zod';

/**
 * Nominatim `/search?format=jsonv2&addressdetails=1` wire format: an array of places.
 * Coordinates come as decimal strings; older instances send ids as strings and `class`
 * instead of `category`. Only what we map is declared; the rest passes into `raw`.
 */
const coordinate = z.union([z.string(), z.number()]).refine((v) => v !== '' && Number.isFinite(Number(v)), 'expected a decimal coordinate');

export const NominatimPlace = z.looseObject({
  place_id: z.union([z.number(), z.string()]),
  lat: coordinate,
  lon: coordinate,
  display_name: z.string(),
  category: z.string().optional(),
  class: z.string().optional(),
  type: z.string().optional(),
  place_rank: z.number().int().optional(),
  importance: z.number().optional(),
  addresstype: z.string().optional(),
  name: z.string().nullable().optional(),
  address: z.record(z.string(), z.string()).optional(),
});
export type NominatimPlace = z.infer<typeof NominatimPlace>;

export const NominatimSearchResponse = z.array(NominatimPlace);
