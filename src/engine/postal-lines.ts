// A CommonJS package: Node's ESM loader gives it as a default export only.
import addressFormatter from '@fragaria/address-formatter';

/**
 * PLACEHOLDER for branch `answer`, which owns this file (shared interface of issue 27): the postal
 * lines in the country's order from OpenCage's templates, the unit on the street line, the country
 * line only when the request's country differs. The real module replaces it whole at merge.
 */
export function postalLines(
  address: { street?: string; houseNumber?: string; unit?: string; postcode?: string; city?: string; state?: string; country?: string },
  requestCountry?: string,
): { lines: string[]; formatted: string } {
  const country = address.country?.toUpperCase();
  const lines = addressFormatter.format(
    {
      ...(address.street ? { road: address.street } : {}),
      ...(address.houseNumber ? { houseNumber: address.houseNumber } : {}),
      ...(address.postcode ? { postcode: address.postcode } : {}),
      ...(address.city ? { city: address.city } : {}),
      ...(address.state ? { state: address.state } : {}),
      ...(country ? { countryCode: country } : {}),
    },
    { output: 'array', appendCountry: false },
  );
  if (address.unit && lines.length) lines[0] = `${lines[0]} ${address.unit}`;
  if (country && country !== requestCountry?.toUpperCase()) lines.push(country);
  return { lines, formatted: lines.join(', ') };
}
