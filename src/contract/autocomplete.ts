import { z } from '@hono/zod-openapi';
import { text } from './text.js';
import { AddressComponents, CountryCode, GeoPoint } from './address.js';
import { Language, SourceTag } from './validate.js';
import { Near } from './near.js';
import { requestObject } from './request-object.js';

/** The kind of place a suggestion is (issue 35): a house, a whole street, a postcode area or a town. */
export const SuggestionType = z.enum(['address', 'street', 'postcode', 'locality']).openapi('SuggestionType');
export type SuggestionType = z.infer<typeof SuggestionType>;

/** A part of a suggestion's label the typed text matched, in UTF-16 code units (as Google's `matchedSubstrings`). */
export const TextMatch = z
  .object({ offset: z.number().int().min(0), length: z.number().int().min(1) })
  .openapi('TextMatch', { example: { offset: 0, length: 9 } });
export type TextMatch = z.infer<typeof TextMatch>;

/** Any non-empty subset of the kinds, each at most once; absent means all. */
export const SuggestionTypes = z
  .array(SuggestionType)
  .min(1, { error: 'Name at least one type, or leave `types` out for all' })
  .max(SuggestionType.options.length)
  .refine((list) => new Set(list).size === list.length, { error: 'Each type at most once' })
  .openapi({ description: 'Kinds of result wanted (any non-empty subset); all when absent', example: ['street', 'postcode'] });

const suggestionType = SuggestionType.openapi({
  description: '`address` a house, `street` a whole street, `postcode` a postcode area, `locality` a town or village',
});
const suggestionMatches = z.array(TextMatch).openapi({
  description:
    "The parts of `label` the typed text matched, in UTF-16 code units (as Google's `matchedSubstrings`), in label order; typed words match label words by prefix after folding case, diacritics and abbreviations",
  example: [{ offset: 0, length: 6 }],
});

export const AutocompleteRequest = requestObject({
    query: text(1, 200, { storable: true, notBlank: true }),
    country: CountryCode.optional(),
    language: Language.optional(),
    limit: z.number().int().min(1).max(10).default(5),
    sessionToken: text(0, 64).optional(),
    source: SourceTag.optional(),
    near: Near.optional(),
    types: SuggestionTypes.optional(),
  })
  .openapi('AutocompleteRequest', { example: { query: 'Damrak 1', country: 'NL', limit: 5, near: { lat: 52.37, lng: 4.89 } } });
export type AutocompleteRequest = z.infer<typeof AutocompleteRequest>;

/**
 * Next step for a chosen suggestion (issue 27): `add_unit` when the data lists two or more units
 * for the house and none was typed, so the form asks for the flat before the order is placed.
 */
export const SuggestionAction = z
  .enum(['add_unit'])
  .openapi('SuggestionAction', {
    description:
      'Present only when the form should ask for more. `add_unit`: the data lists two or more units (flats, suites) for this house and none was typed; ask for the unit.',
    example: 'add_unit',
  });
export type SuggestionAction = z.infer<typeof SuggestionAction>;

export const Suggestion = z
  .object({
    label: z.string().openapi({ description: 'The postal address on one line, in the country\'s order, with the typed unit' }),
    components: AddressComponents,
    location: GeoPoint.optional(),
    provider: z.string(),
    type: suggestionType,
    matches: suggestionMatches,
    action: SuggestionAction.optional(),
  })
  .openapi('Suggestion', {
    example: {
      label: '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231',
      components: { street: 'Eastern Avenue', houseNumber: '1932', unit: 'Apt 3B', postcode: '21231', city: 'Baltimore', state: 'Maryland', country: 'US' },
      location: { lat: 39.2857, lng: -76.5905 },
      provider: 'local',
      type: 'address',
      matches: [{ offset: 0, length: 4 }, { offset: 5, length: 7 }],
    },
  });
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
    type: suggestionType,
    matches: suggestionMatches,
    action: SuggestionAction.optional(),
  })
  .openapi('WidgetSuggestion', {
    example: {
      id: 'svc_s_…',
      label: 'Baaderstraße 22, 80469 München',
      provider: 'local',
      address: { street: 'Baaderstraße', houseNumber: '22', postcode: '80469', city: 'München', country: 'DE' },
      type: 'address',
      matches: [{ offset: 0, length: 6 }],
      action: 'add_unit',
    },
  });
export type WidgetSuggestion = z.infer<typeof WidgetSuggestion>;

export const WidgetAutocompleteResponse = z
  .object({
    suggestions: z.array(WidgetSuggestion),
    sessionToken: z.string().nullable(),
    cached: z.boolean(),
  })
  .openapi('WidgetAutocompleteResponse');
export type WidgetAutocompleteResponse = z.infer<typeof WidgetAutocompleteResponse>;
