import { z } from 'zod';

/**
 * Photon `/api` wire format: a GeoJSON FeatureCollection of Point features whose properties
 * carry OSM address parts. Numbers and strings are both seen for housenumber/postcode in the
 * wild, so both are accepted and turned into strings.
 */
const text = z.union([z.string(), z.number()]).transform(String);

export const PhotonProperties = z.looseObject({
  name: z.string().optional(),
  street: z.string().optional(),
  housenumber: text.optional(),
  postcode: text.optional(),
  city: z.string().optional(),
  district: z.string().optional(),
  locality: z.string().optional(),
  county: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  countrycode: z.string().optional(),
  type: z.string().optional(),
  osm_id: z.number().optional(),
  osm_type: z.string().optional(),
  osm_key: z.string().optional(),
  osm_value: z.string().optional(),
});
export type PhotonProperties = z.infer<typeof PhotonProperties>;

export const PhotonFeature = z.looseObject({
  type: z.literal('Feature'),
  geometry: z.looseObject({ type: z.literal('Point'), coordinates: z.array(z.number()).min(2) }),
  properties: PhotonProperties,
});
export type PhotonFeature = z.infer<typeof PhotonFeature>;

export const PhotonResponse = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(PhotonFeature),
});
export type PhotonResponse = z.infer<typeof PhotonResponse>;
