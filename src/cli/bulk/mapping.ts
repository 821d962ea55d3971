import { InvalidArgumentError } from 'commander';
import type { AddressComponents } from '../../contract/address.js';
import { canonicalCountry, countryFromName, isCountryCode } from '../../address/countries.js';
import { ValidateRequest } from '../../contract/validate.js';
import { BulkInputError } from './input.js';

export type ComponentKey = keyof AddressComponents;
const COMPONENT_KEYS: readonly ComponentKey[] = ['street', 'houseNumber', 'postcode', 'city', 'state', 'country', 'unit'];

/**
 * Where a row's address is: one free-text column (with the row's country in a column of its own,
 * when the file has one), or a column per component.
 */
export type ColumnMapping = { query: string; country?: string } | { components: Partial<Record<ComponentKey, string>> };

/** `--columns street=Straat,houseNumber=Nr,postcode=PC,city=Plaats` → component → column name. */
export function parseColumnsArg(value: string): Partial<Record<ComponentKey, string>> {
  const mapping: Partial<Record<ComponentKey, string>> = {};
  for (const pair of value.split(',')) {
    const [key, column] = pair.split('=').map((s) => s.trim());
    if (!key || !column) throw new InvalidArgumentError(`"${pair}" is not component=column`);
    if (!(COMPONENT_KEYS as readonly string[]).includes(key)) {
      throw new InvalidArgumentError(`unknown component "${key}" (one of ${COMPONENT_KEYS.join(', ')})`);
    }
    mapping[key as ComponentKey] = column;
  }
  return mapping;
}

/** Header names people use, folded (lower case, no spaces, dashes or underscores). */
const QUERY_NAMES = ['query', 'address', 'fulladdress', 'addressline', 'adres', 'adresse', 'anschrift'];
const COMPONENT_NAMES: Record<ComponentKey, string[]> = {
  street: ['street', 'streetname', 'straat', 'straatnaam', 'strasse', 'straße', 'rue'],
  houseNumber: ['housenumber', 'housenr', 'number', 'huisnummer', 'hausnummer', 'nr', 'no'],
  postcode: ['postcode', 'postalcode', 'zip', 'zipcode', 'plz', 'cp'],
  city: ['city', 'town', 'place', 'plaats', 'woonplaats', 'ort', 'stadt', 'ville'],
  state: ['state', 'province', 'provincie', 'region', 'county'],
  country: ['country', 'countrycode', 'land'],
  unit: ['unit', 'apartment', 'apt', 'suite', 'flat', 'addressline2', 'address2', 'wohnung'],
};
const fold = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The mapping for a file: the one given, checked against its header, or one found from the header
 * names (a query-like column wins; else component columns, needing a street or a postcode).
 */
export function resolveMapping(columns: readonly string[], path: string, given?: ColumnMapping): ColumnMapping {
  const missing = (name: string) =>
    new BulkInputError(
      columns.length === 1
        ? `${path}: no column "${name}": the header is one column "${columns[0]}" (columns are separated by , ; tab or |)`
        : `${path}: no column "${name}" (columns: ${columns.join(', ')})`,
    );
  const find = (names: readonly string[]) => columns.find((c) => names.includes(fold(c)));
  // A mixed-country list: each row's country from its own column, found by name like the others.
  const withCountry = (query: string): ColumnMapping => {
    const country = find(COMPONENT_NAMES.country);
    return country && country !== query ? { query, country } : { query };
  };
  if (given) {
    for (const name of 'query' in given ? [given.query, ...(given.country ? [given.country] : [])] : Object.values(given.components)) {
      if (!columns.includes(name)) throw missing(name);
    }
    return 'query' in given && !given.country ? withCountry(given.query) : given;
  }
  const query = find(QUERY_NAMES);
  if (query) return withCountry(query);
  const components: Partial<Record<ComponentKey, string>> = {};
  for (const key of COMPONENT_KEYS) {
    const column = find(COMPONENT_NAMES[key]);
    if (column) components[key] = column;
  }
  if (components.street || components.postcode) return { components };
  throw new BulkInputError(
    columns.length === 1
      ? `${path}: the header is one column "${columns[0]}": separate columns with , ; tab or |, or name the address column with --query-column`
      : `${path}: no address column found (columns: ${columns.join(', ')}): name it with --query-column NAME or --columns street=…,houseNumber=…,postcode=…,city=…`,
  );
}

export type RowRequest = { ok: true; request: ValidateRequest } | { ok: false; error: string };

/** A row's error when no address could be read from it. */
export const NO_ADDRESS = 'no address in this row';

/** A row's error for a country cell that is neither a code nor a name (issue 28 §8: not "no address"). */
export function unknownCountry(text: string, column: string): string {
  return `unknown country "${text.slice(0, 40)}" in column ${column} (give an ISO 3166-1 alpha-2 code such as NL, or a country name)`;
}

export const isUnknownCountry = (error: string): boolean => error.startsWith('unknown country "');

/** A country cell as an ISO code: a code (`nl`, `UK`) or a name in a common language (`Nederland`, `Germany`). */
export function countryCell(value: string): string | undefined {
  if (/^[A-Za-z]{2}$/.test(value) && isCountryCode(value)) return canonicalCountry(value);
  return countryFromName(value);
}

/**
 * One row → the ValidateRequest the API would get; a row it cannot make one of says why. A row's
 * own country (its country column) wins over `country` (--country), which fills rows without one.
 */
export function rowRequest(columns: readonly string[], row: readonly string[], mapping: ColumnMapping, country?: string): RowRequest {
  // A spreadsheet cell may hold its address on several lines: those breaks and tabs separate parts,
  // where the API (issue 36) refuses control characters in any text.
  const value = (name: string, lineBreak = ' ') => (row[columns.indexOf(name)] ?? '').trim().replace(/\s*[\r\n]+\s*/g, lineBreak).replace(/\t/g, ' ');
  const body: Record<string, unknown> = country ? { country } : {};
  const ownCountry = (column: string): string | RowRequest => {
    const text = value(column);
    if (!text) return country ?? '';
    return countryCell(text) ?? { ok: false, error: unknownCountry(text, column) };
  };
  if ('query' in mapping) {
    const query = value(mapping.query, ', ');
    if (query) body.query = query;
    if (mapping.country) {
      const found = ownCountry(mapping.country);
      if (typeof found !== 'string') return found;
      if (found) body.country = found;
    }
  } else {
    const components: Record<string, string> = {};
    for (const [key, column] of Object.entries(mapping.components)) {
      if (key === 'country') {
        const found = ownCountry(column);
        if (typeof found !== 'string') return found;
        if (found) components.country = found;
        continue;
      }
      const v = value(column);
      if (v) components[key] = v;
    }
    body.components = components;
  }
  const parsed = ValidateRequest.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue?.code === 'custom' && issue.path.length === 0) return { ok: false, error: NO_ADDRESS };
  return { ok: false, error: `${issue?.path.join('.') || 'row'}: ${issue?.message ?? 'invalid'}` };
}
