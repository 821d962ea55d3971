import { z } from '@hono/zod-openapi';
import { requestObject } from './request-object.js';

/**
 * The customer's position (issue 35): WGS84 degrees, ranges checked so a swapped or projected
 * pair (RD, Web Mercator metres) is a clear 400 at `near.lat` / `near.lng`, not a silent miss.
 */
export const Near = requestObject({
    lat: z
      .number({ error: 'Expected a latitude in degrees (a number)' })
      .min(-90, { error: 'Latitude must be between -90 and 90' })
      .max(90, { error: 'Latitude must be between -90 and 90' }),
    lng: z
      .number({ error: 'Expected a longitude in degrees (a number)' })
      .min(-180, { error: 'Longitude must be between -180 and 180' })
      .max(180, { error: 'Longitude must be between -180 and 180' }),
  })
  .openapi('Near', {
    description:
      "The customer's position (WGS84 degrees), passed on to providers that take one. Autocomplete blends it with how well the text matches (strong within a few km, no effect beyond about 100 km); validate picks the nearer of candidates that fit equally well and lists the alternatives nearest first. It never changes a verdict or a confidence.",
    example: { lat: 52.37, lng: 4.89 },
  });
export type Near = z.infer<typeof Near>;
