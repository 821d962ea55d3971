import { z } from '@hono/zod-openapi';
import { Suggestion, SuggestionType, WidgetSuggestion } from './autocomplete.js';
import { Language, SourceTag } from './validate.js';
import { requestObject } from './request-object.js';

/** Reverse look-up defaults (issue 35): 5 addresses within 200 m; at most 10 within 5 km. */
export const REVERSE_DEFAULT_LIMIT = 5;
export const REVERSE_MAX_LIMIT = 10;
export const REVERSE_DEFAULT_RADIUS_M = 200;
export const REVERSE_MAX_RADIUS_M = 5000;

export const ReverseRequest = requestObject({
    lat: z.number().min(-90).max(90).openapi({ description: 'Latitude, WGS 84 degrees (-90 to 90); used to 5 decimal places (about 1 m)', example: 52.37317 }),
    lng: z.number().min(-180).max(180).openapi({ description: 'Longitude, WGS 84 degrees (-180 to 180); used to 5 decimal places (about 1 m)', example: 4.89297 }),
    limit: z.number().int().min(1).max(REVERSE_MAX_LIMIT).default(REVERSE_DEFAULT_LIMIT).openapi({ description: 'Most addresses returned' }),
    radiusMeters: z
      .number()
      .min(1)
      .max(REVERSE_MAX_RADIUS_M)
      .default(REVERSE_DEFAULT_RADIUS_M)
      .openapi({ description: 'Only addresses at most this far from the position, in metres' }),
    language: Language.optional(),
    source: SourceTag.optional(),
  })
  .openapi('ReverseRequest', { example: { lat: 52.37317, lng: 4.89297, limit: 5, radiusMeters: 200 } });
export type ReverseRequest = z.infer<typeof ReverseRequest>;

const distance = z.number().min(0).openapi({ description: 'Great-circle distance from the position to the address, in whole metres', example: 12 });
const addressType = SuggestionType.openapi({ description: 'Always `address`: a reverse look-up answers houses', example: 'address' });

export const ReverseSuggestion = Suggestion.extend({ type: addressType, distanceMeters: distance }).openapi('ReverseSuggestion', {
  example: {
    label: 'Damrak 1, 1012 LG Amsterdam',
    components: { street: 'Damrak', houseNumber: '1', postcode: '1012 LG', city: 'Amsterdam', country: 'NL' },
    location: { lat: 52.37317, lng: 4.89297 },
    provider: 'local',
    type: 'address',
    matches: [],
    distanceMeters: 0,
  },
});
export type ReverseSuggestion = z.infer<typeof ReverseSuggestion>;

export const ReverseResponse = z
  .object({ suggestions: z.array(ReverseSuggestion).openapi({ description: 'Nearest first; empty where no address lies within the radius' }), cached: z.boolean() })
  .openapi('ReverseResponse');
export type ReverseResponse = z.infer<typeof ReverseResponse>;

export const WidgetReverseSuggestion = WidgetSuggestion.extend({ type: addressType, distanceMeters: distance }).openapi('WidgetReverseSuggestion');
export type WidgetReverseSuggestion = z.infer<typeof WidgetReverseSuggestion>;

export const WidgetReverseResponse = z.object({ suggestions: z.array(WidgetReverseSuggestion), cached: z.boolean() }).openapi('WidgetReverseResponse');
export type WidgetReverseResponse = z.infer<typeof WidgetReverseResponse>;
