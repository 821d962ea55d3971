import { z } from '@hono/zod-openapi';
import { printableString, text } from './text.js';
import { ComponentVerdict } from './enums.js';
import { requestObject } from './request-object.js';
import { countryFromName } from '../address/countries.js';

/**
 * A country name where a code belongs (`Netherlands`) is the likeliest mistake: the issue says a
 * two-letter code is expected and names the code of that country when it knows the name.
 */
function countryCodeMessage(input: unknown): string {
  const suggestion = typeof input === 'string' ? countryFromName(input) : undefined;
  return `Expected an ISO 3166-1 alpha-2 country code (two letters, such as "NL")${suggestion ? `: for "${input as string}" send "${suggestion}"` : ''}`;
}

export const CountryCode = printableString()
  .length(2, { error: (issue) => countryCodeMessage(issue.input) })
  .openapi({ description: 'ISO 3166-1 alpha-2', example: 'NL' });

/** The longest value each text component takes, in characters: the API's bounds, and an import's (issue 36: a longer value is skipped as `too_long`). */
export const COMPONENT_MAX = { street: 200, houseNumber: 20, postcode: 20, city: 100, state: 100, unit: 40 } as const;

export const AddressComponents = requestObject({
    street: text(1, COMPONENT_MAX.street, { storable: true }).optional(),
    houseNumber: text(1, COMPONENT_MAX.houseNumber, { storable: true }).optional().openapi({ description: 'Includes any suffix (2B, 2/B)' }),
    postcode: text(1, COMPONENT_MAX.postcode, { storable: true }).optional(),
    city: text(1, COMPONENT_MAX.city, { storable: true }).optional(),
    state: text(1, COMPONENT_MAX.state, { storable: true }).optional(),
    country: CountryCode.optional(),
    unit: text(1, COMPONENT_MAX.unit, { storable: true })
      .optional()
      .openapi({ description: 'Flat, apartment, suite, floor or door within the house (Apt 3B, Flat 3, Whg. 5, 2º Esq.); never compared with the house', example: 'Apt 3B' }),
  })
  .openapi('AddressComponents');
export type AddressComponents = z.infer<typeof AddressComponents>;
/** The fields scoring and consensus compare: a unit never changes the verdict of its house. */
export const COMPONENT_FIELDS = ['street', 'houseNumber', 'postcode', 'city', 'state', 'country'] as const;
export type ComponentField = (typeof COMPONENT_FIELDS)[number];

export const GeoPoint = z.object({ lat: z.number(), lng: z.number() }).openapi('GeoPoint');

/** Components the data did not state but the service derived (issue 34): a town from the area around the house, a postcode from its neighbours. */
export const InferredComponent = z.enum(['city', 'postcode', 'state']).openapi('InferredComponent');
export type InferredComponent = z.infer<typeof InferredComponent>;
export type GeoPoint = z.infer<typeof GeoPoint>;

export const ResolvedAddress = z
  .object({
    street: z.string().optional(),
    houseNumber: z.string().optional(),
    unit: z.string().optional().openapi({ description: 'The unit the input gave, as the country writes it', example: 'Apt 3B' }),
    postcode: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    country: z.string().optional(),
    lat: z.number(),
    lng: z.number(),
    lines: z.array(z.string()).openapi({
      description: "The postal address in the country's order, unit included; the country line only when the request's country differs",
      example: ['1932 Eastern Avenue Apt 3B', 'Baltimore, MD 21231'],
    }),
    formatted: z.string().openapi({ description: 'The postal lines on one line', example: '1932 Eastern Avenue Apt 3B, Baltimore, MD 21231' }),
    inferred: z
      .array(InferredComponent)
      .openapi({ description: 'Components the data did not state but the service derived (town from the surrounding area, postcode from neighbouring addresses); never a typed value the data confirms. Always present: empty when nothing was derived', example: ['postcode'] }),
  })
  .openapi('ResolvedAddress');
export type ResolvedAddress = z.infer<typeof ResolvedAddress>;

/** Keys present only for checked components (SPEC "ComponentVerdicts"). */
export const ComponentVerdicts = z
  .object({
    street: ComponentVerdict.optional(),
    houseNumber: ComponentVerdict.optional(),
    postcode: ComponentVerdict.optional(),
    city: ComponentVerdict.optional(),
    country: ComponentVerdict.optional(),
    /** Checked only where the data lists the house's units; never part of VERDICT_FIELDS (a unit never moves the house's score). */
    unit: ComponentVerdict.optional().openapi({ example: 'match' }),
  })
  .openapi('ComponentVerdicts');
export type ComponentVerdicts = z.infer<typeof ComponentVerdicts>;
export const VERDICT_FIELDS = ['street', 'houseNumber', 'postcode', 'city', 'country'] as const;
export type VerdictField = (typeof VERDICT_FIELDS)[number];
