import type { AddressComponents } from '../contract/address.js';
import type { ValidateRequest } from '../contract/validate.js';
import { parseAddress } from '../address/parse.js';
import type { GeocodeQuery } from '../providers/provider.js';

export interface ValidateInput {
  /** What the user supplied, component by component: explicit components win over parsed text. */
  input: AddressComponents;
  country?: string;
  query: GeocodeQuery;
  /** One line for the usage report. */
  summary: string;
}

/** Reads the request into components: parses free text, lets explicit components override it. */
export function readValidateInput(request: ValidateRequest): ValidateInput {
  const hintCountry = (request.country ?? request.components?.country)?.toUpperCase();
  const parsed = request.query ? parseAddress(request.query, hintCountry ? { country: hintCountry } : {}) : {};
  const given = Object.fromEntries(
    Object.entries(request.components ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as AddressComponents;
  const country = (request.country ?? given.country ?? parsed.country)?.toUpperCase();
  const input: AddressComponents = { ...parsed, ...given, ...(country ? { country } : {}) };
  const summary =
    request.query ??
    [input.street && [input.street, input.houseNumber].filter(Boolean).join(' '), input.postcode, input.city, input.country]
      .filter(Boolean)
      .join(', ');
  return {
    input,
    ...(country ? { country } : {}),
    query: {
      ...(request.query ? { query: request.query } : {}),
      components: input,
      ...(country ? { country } : {}),
      ...(request.language ? { language: request.language } : {}),
    },
    summary: summary.slice(0, 500),
  };
}
