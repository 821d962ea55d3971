import { z } from '@hono/zod-openapi';
import { text } from './text.js';
import { AddressComponents, CountryCode, GeoPoint } from './address.js';
import { Language, SourceTag } from './validate.js';

export const AutocompleteRequest = z
  .object({
    query: text(1, 200, { storable: true, notBlank: true }),
    country: CountryCode.optional(),
    language: Language.optional(),
    limit: z.number().int().min(1).max(10).default(5),
    sessionToken: text(0, 64).optional(),
    source: SourceTag.optional(),
  })
  .openapi('AutocompleteRequest', { example: { query: 'Damrak 1', country: 'NL', limit: 5 } });
export type AutocompleteRequest = z.infer<typeof AutocompleteRequest>;

export const Suggestion = z
  .object({
    label: z.string(),
    components: AddressComponents,
    location: GeoPoint.optional(),
    provider: z.string(),
  })
  .openapi('Suggestion');
export type Suggestion = z.infer<typeof Suggestion>;

export const AutocompleteResponse = z
  .object({
    suggestions: z.array(Suggestion),
    sessionToken: z.string().nullable(),
    cached: z.boolean(),
  })
  .openapi('AutocompleteResponse');
export type AutocompleteResponse = z.infer<typeof AutocompleteResponse>;

export const WidgetSuggestion = z
  .object({
    id: z.string().startsWith('svc_s_'),
    label: z.string(),
    provider: z.string(),
    address: AddressComponents,
  })
  .openapi('WidgetSuggestion');
export type WidgetSuggestion = z.infer<typeof WidgetSuggestion>;

export const WidgetAutocompleteResponse = z
  .object({
    suggestions: z.array(WidgetSuggestion),
    sessionToken: z.string().nullable(),
    cached: z.boolean(),
  })
  .openapi('WidgetAutocompleteResponse');
export type WidgetAutocompleteResponse = z.infer<typeof WidgetAutocompleteResponse>;
