import addressFormatter from '@fragaria/address-formatter';
import { LRUCache } from 'lru-cache';
import type { AddressComponents } from '../contract/address.js';
import { Kept } from '../lib/kept.js';
import { opaqueValue, safeText } from './postal-tokens.js';

export interface PostalLines {
  /** The postal address in the country's own order, unit included. */
  lines: string[];
  /** The lines on one line, joined with `, `. */
  formatted: string;
}

/**
 * Where a country's post puts the unit. OpenCage's templates have no unit slot, so this one table
 * places it relative to the street line the formatter wrote:
 * - `suffix`: on the street line after the number (USPS `1932 Eastern Avenue Apt 3B`; Canada Post,
 *   Australia Post, PostNL `3hg`, Swedish `lgh 1102`, Italian `int. 3` alike);
 * - `comma`: on the street line after a comma (Austrian Post `Landstrasse 340, Top 3`, CTT/Correos
 *   `Rua da Alfândega 10, 2º Esq.`, PostNord DK `Strøget 1, 2. tv`); the default;
 * - `before`: a line of its own above the street line (Royal Mail and An Post sub-building
 *   `Flat 3`; DIN 5008's "Zusatz" line `Whg. 5`, as in DE and CH; La Poste's line 2 `Appartement 12`).
 */
type UnitPlacement = 'suffix' | 'comma' | 'before';
const UNIT_PLACEMENT: Readonly<Record<string, UnitPlacement>> = {
  US: 'suffix',
  CA: 'suffix',
  AU: 'suffix',
  NZ: 'suffix',
  PR: 'suffix',
  NL: 'suffix',
  SE: 'suffix',
  IT: 'suffix',
  GB: 'before',
  IE: 'before',
  DE: 'before',
  CH: 'before',
  FR: 'before',
  MC: 'before',
  BE: 'before',
  LU: 'before',
};

const SLASH_DOOR_POST = new Set(['AT', 'LI']);
const BARE_DOOR = /^\d{1,4}[a-z]?(?:\/\d{1,4}[a-z]?)*$/i;

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code; // not a region code Intl knows: the code is still the best name we have
  }
}

function placeUnit(lines: string[], unit: string, street: string | undefined, country: string | undefined): string[] {
  const at = street ? lines.findIndex((line) => line.includes(street)) : -1;
  // No street line to attach to (a place-level address): the unit leads, as the addressee's part.
  if (at < 0) return [unit, ...lines];
  const placement = UNIT_PLACEMENT[country ?? ''] ?? 'comma';
  // Austria and Liechtenstein write a bare door after the number and a slash (`Landstrasse 340/3`, `12/3/5`).
  if (SLASH_DOOR_POST.has(country ?? '') && BARE_DOOR.test(unit) && /\d[a-z]?$/i.test(lines[at]!)) {
    return [...lines.slice(0, at), `${lines[at]}/${unit}`, ...lines.slice(at + 1)];
  }
  if (placement === 'before') return [...lines.slice(0, at), unit, ...lines.slice(at)];
  const joined = placement === 'suffix' ? `${lines[at]} ${unit}` : `${lines[at]}, ${unit}`;
  return [...lines.slice(0, at), joined, ...lines.slice(at + 1)];
}

/**
 * The postal lines of an address, built on OpenCage's templates (`@fragaria/address-formatter`).
 * The country line is written only when the request's country differs from the address's: a
 * domestic label never names its own country.
 */
export function postalLines(address: AddressComponents, requestCountry?: string): PostalLines {
  const country = address.country?.toUpperCase();
  const withCountry = country !== undefined && requestCountry !== undefined && requestCountry.toUpperCase() !== country;
  const written = formatterLines(address, country, withCountry);
  const lines = address.unit ? placeUnit(written, address.unit, address.street, country) : written;
  return { lines, formatted: lines.join(', ') };
}

/**
 * The formatter's lines for this country, with the house number, street, postcode and town as
 * tokens: the formatter costs 50-150 µs a call (a dozen regular expressions, twice), and the
 * addresses of one country differ only in those (and the state). Kept per town, a keystroke whose
 * suggestions were in towns not seen yet (most of them, in a country of thousands) paid for the
 * formatter once per town; with the town as a token too, once per country and shape. A plain number
 * (`12`, `7a`) goes through OpenCage's templates as a token would: none of their replacements
 * touches one. Any other number (`37-3`), a street name, a postcode or a town goes through as a
 * token where postal-tokens.ts finds that the templates treat it as they would the token, and the
 * lines made with it are checked there too; else that value is part of the key, and the number is
 * formatted as it is.
 * test/engine/postal-lines.test.ts compares both ways on every corpus country and every template.
 */
const layouts = new LRUCache<string, readonly string[]>({ max: 20_000 });
const NUMBER_TOKEN = '\uE000';
const STREET_TOKEN = '\uE001';
const POSTCODE_TOKEN = '\uE002';
const CITY_TOKEN = '\uE003';
const PLAIN_NUMBER = /^\d{1,6}[a-z]?$/i;

/** What formatterLines decides once per street (street, postcode, town, country): which values go as tokens, and the layout. */
interface StreetLayout {
  streetToken: boolean;
  postcodeToken: boolean;
  cityToken: boolean;
  layout: readonly string[];
  /**
   * Kept layouts only, made on first use: the layout with the street, postcode and town written
   * in, so each house of the street only writes its number (null where one of them holds the
   * number's token: the number must then go in first, as in `write`).
   */
  filled?: readonly string[] | null;
  /** Whether the filled lines of the street itself (no number) are what the formatter writes (`safeText`), once asked. */
  bareSafe?: boolean;
}

/**
 * Per street, for the street itself and for its plain numbers: a plain number equals none of the
 * other values, so neither token decision (postal-tokens.ts `opaqueValue`: a dozen regular
 * expressions each) depends on it, and the houses of one street (a suggestion list's usual shape)
 * share them. Any other number is decided for itself.
 */
const streetLayouts = new Kept<StreetLayout>(20_000);

function formatterLines(address: AddressComponents, country: string | undefined, withCountry: boolean): string[] {
  const hn = address.houseNumber || undefined;
  const { street, postcode, city, state } = address;
  const plain = hn !== undefined && PLAIN_NUMBER.test(hn) && ![street, postcode, city, state].includes(hn);
  let decided: StreetLayout | undefined;
  let numberChecked = false;
  if (plain || hn === undefined) {
    const key = JSON.stringify([street, postcode, city, state, country, withCountry, plain]);
    decided = streetLayouts.get(key, () => streetLayout(address, hn, country, withCountry));
  } else {
    const name = withCountry && country ? countryName(country) : undefined;
    numberChecked = hn !== undefined && opaqueValue(hn, [street, postcode, city, state, country, name], country);
    if (hn !== undefined && !numberChecked) return formatLines(address, hn, country, withCountry);
    decided = streetLayout(address, hn, country, withCountry);
  }
  const { streetToken, postcodeToken, cityToken, layout } = decided;
  if (!streetToken && !postcodeToken && !cityToken && !numberChecked) return hn === undefined ? [...layout] : layout.map((line) => line.replace(NUMBER_TOKEN, hn));
  // A kept layout (a plain number or none, which holds no token): the street's values written in once.
  const filled = numberChecked ? null : decided.filled === undefined ? (decided.filled = fill(decided, address)) : decided.filled;
  let lines: string[];
  if (filled && hn === undefined) {
    decided.bareSafe ??= safeText(filled, country);
    return decided.bareSafe ? [...filled] : formatLines(address, hn, country, withCountry);
  } else if (filled) lines = filled.map((line) => line.split(NUMBER_TOKEN).join(hn!));
  else lines = layout.map((line) => write(decided, address, line, hn));
  // A rule of the country's templates may have had something to rewrite in them: formatted as they are.
  return safeText(lines, country) ? lines : formatLines(address, hn, country, withCountry);
}

/** Every place a token was written gets its value, taken as text (a `$&` in a name is not a pattern): the number first. */
function write(decided: StreetLayout, { street, postcode, city }: AddressComponents, line: string, hn: string | undefined): string {
  let out = hn === undefined ? line : line.split(NUMBER_TOKEN).join(hn);
  if (decided.streetToken) out = out.split(STREET_TOKEN).join(street!);
  if (decided.postcodeToken) out = out.split(POSTCODE_TOKEN).join(postcode!);
  if (decided.cityToken) out = out.split(CITY_TOKEN).join(city!);
  return out;
}

/**
 * The layout with the street, postcode and town written as `write` writes them, the number's token
 * left: the same lines once the number goes in, since a plain number holds no token and, checked
 * here, none of the values holds the number's. Null where one does.
 */
function fill(decided: StreetLayout, address: AddressComponents): readonly string[] | null {
  const values = [decided.streetToken && address.street, decided.postcodeToken && address.postcode, decided.cityToken && address.city];
  if (values.some((v) => typeof v === 'string' && v.includes(NUMBER_TOKEN))) return null;
  return decided.layout.map((line) => write(decided, address, line, undefined));
}

/**
 * Which of the street, postcode and town go through the formatter as tokens, and the formatter's
 * lines with them (kept in `layouts` per country and state where all three do, else per the values
 * that could not).
 */
function streetLayout(address: AddressComponents, hn: string | undefined, country: string | undefined, withCountry: boolean): StreetLayout {
  const { street, postcode, city, state } = address;
  const name = withCountry && country ? countryName(country) : undefined;
  const others = [state, country, name, hn];
  const streetToken = street ? opaqueValue(street, [postcode, city, ...others], country) : false;
  const postcodeToken = postcode ? opaqueValue(postcode, [street, city, ...others], country, true) : false;
  const cityToken = city ? opaqueValue(city, [street, postcode, ...others], country) : false;
  const road = streetToken ? STREET_TOKEN : street;
  const code = postcodeToken ? POSTCODE_TOKEN : postcode;
  const town = cityToken ? CITY_TOKEN : city;
  const key = JSON.stringify([road, code, town, state, country, withCountry, hn !== undefined]);
  let layout = layouts.get(key);
  if (!layout) {
    const tokens = { ...address, ...(road ? { street: road } : {}), ...(code ? { postcode: code } : {}), ...(town ? { city: town } : {}) };
    layouts.set(key, (layout = formatLines(tokens, hn !== undefined ? NUMBER_TOKEN : undefined, country, withCountry)));
  }
  return { streetToken, postcodeToken, cityToken, layout };
}

/** OpenCage's templates through `@fragaria/address-formatter`, trimmed; a domestic address without its country line. */
export function formatLines(address: AddressComponents, houseNumber: string | undefined, country: string | undefined, withCountry: boolean): string[] {
  const formatted = addressFormatter.format(
    {
      ...(address.street ? { road: address.street } : {}),
      ...(houseNumber ? { houseNumber } : {}),
      ...(address.postcode ? { postcode: address.postcode } : {}),
      ...(address.city ? { city: address.city } : {}),
      ...(address.state ? { state: address.state } : {}),
      ...(country ? { countryCode: country } : {}),
      // Our own name, not the template's: OpenCage writes Liechtenstein with Switzerland's template and name.
      ...(withCountry && country ? { country: countryName(country) } : {}),
    },
    { output: 'array' },
  );
  // With nothing else to write the formatter falls back to the bare code; a domestic label drops it.
  return formatted.map((line) => line.trim()).filter((line) => line !== '' && (withCountry || line !== country));
}
