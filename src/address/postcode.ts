import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { canonicalCountry } from './countries.js';

/** Display layouts for countries whose postcode has a fixed space or dash; others are only upper-cased. */
const LAYOUTS: Record<string, (c: string) => string | undefined> = {
  NL: (c) => (/^\d{4}[A-Z]{2}$/.test(c) ? `${c.slice(0, 4)} ${c.slice(4)}` : undefined),
  GB: (c) => (/^[A-Z0-9]{5,7}$/.test(c) ? `${c.slice(0, -3)} ${c.slice(-3)}` : undefined),
  CA: (c) => (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(c) ? `${c.slice(0, 3)} ${c.slice(3)}` : undefined),
  US: (c) => (/^\d{9}$/.test(c) ? `${c.slice(0, 5)}-${c.slice(5)}` : /^\d{5}$/.test(c) ? c : undefined),
  PL: (c) => (/^\d{5}$/.test(c) ? `${c.slice(0, 2)}-${c.slice(2)}` : undefined),
  SE: (c) => (/^\d{5}$/.test(c) ? `${c.slice(0, 3)} ${c.slice(3)}` : undefined),
  CZ: (c) => (/^\d{5}$/.test(c) ? `${c.slice(0, 3)} ${c.slice(3)}` : undefined),
  SK: (c) => (/^\d{5}$/.test(c) ? `${c.slice(0, 3)} ${c.slice(3)}` : undefined),
  PT: (c) => (/^\d{7}$/.test(c) ? `${c.slice(0, 4)}-${c.slice(4)}` : undefined),
  JP: (c) => (/^\d{7}$/.test(c) ? `${c.slice(0, 3)}-${c.slice(3)}` : undefined),
  IE: (c) => (/^[A-Z0-9]{7}$/.test(c) ? `${c.slice(0, 3)} ${c.slice(3)}` : undefined),
};
for (const crown of ['GG', 'JE', 'IM']) LAYOUTS[crown] = LAYOUTS.GB as (c: string) => string | undefined;

/** Shapes recognised without a country: Dutch and British postcodes are unmistakable. */
export const NL_SHAPE = /^[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}$/;
export const GB_SHAPE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/;

/**
 * Display-canonical postcode: `1012lg` → `1012 LG`, `sw1a2aa` → `SW1A 2AA`, `10117` → `10117`,
 * `D-10117` → `10117`. Without a country the shape decides (NL, GB), else upper case + single spaces.
 */
export function normalizePostcode(s: string, country?: string): string {
  const upper = s.trim().toUpperCase().replace(/\s+/g, ' ');
  const cc = country ? canonicalCountry(country) : shapeCountry(upper);
  // An old-style country prefix (`D-10117`, `NL-1012 LG`) is not part of the postcode.
  const bare = /^[A-Z]{1,2}-(?=\d)/.test(upper) && cc && !GB_SHAPE.test(upper) ? upper.replace(/^[A-Z]{1,2}-/, '') : upper;
  const squeezed = bare.replace(/[\s-]/g, '');
  const layout = cc ? LAYOUTS[cc] : undefined;
  return layout?.(squeezed) ?? bare;
}

/** Portuguese postcodes: four digits, a dash, three digits (`1100-053`). */
export const PT_SHAPE = /^[1-9]\d{3}-\d{3}$/;

/** The country a postcode's shape alone reveals (NL, GB or PT), if any. */
export function shapeCountry(s: string): string | undefined {
  const upper = s.trim().toUpperCase();
  if (NL_SHAPE.test(upper)) return 'NL';
  if (GB_SHAPE.test(upper)) return 'GB';
  if (PT_SHAPE.test(upper)) return 'PT';
  return undefined;
}

/**
 * Length of the plain-number postcodes of a country (DK `1620`, DE `10117`), and the 4-digit head
 * of Dutch and Portuguese ones: a number of that length where a postcode stands is read as one even
 * when no postcode has it (a mistyped `9947` in Liechtenstein), so it can be corrected.
 */
const DIGITS: Record<string, number> = {
  AT: 4, BE: 4, CH: 4, DK: 4, LI: 4, LU: 4, NO: 4, HU: 4, AU: 4, NZ: 4, ZA: 4, BG: 4, CY: 4, SI: 4, MK: 4, NL: 4, PT: 4,
  DE: 5, FR: 5, MC: 5, IT: 5, SM: 5, ES: 5, US: 5, FI: 5, EE: 5, HR: 5, MX: 5, TR: 5, UA: 5, GR: 5, SE: 5, CZ: 5, SK: 5,
  LT: 5, MA: 5, DZ: 5, ID: 5, MY: 5, TH: 5, PL: 5, RU: 6, BY: 6, RO: 6, IN: 6, CN: 6, SG: 6, KZ: 6,
};

export function postcodeDigits(country: string): number | undefined {
  return DIGITS[canonicalCountry(country)];
}

/**
 * Whether `s` is a postcode of `country` (postcode-validator's formats, after normalizePostcode).
 * NL is tightened: the first digit is 1-9 and the letter pairs SA, SD, SS are never issued.
 * A country without a known format accepts any 2-10 letters/digits.
 */
export function isValidPostcode(s: string, country: string): boolean {
  const cc = canonicalCountry(country);
  const value = normalizePostcode(s, cc);
  if (cc === 'NL') return NL_SHAPE.test(value);
  if (postcodeValidatorExistsForCountry(cc)) return postcodeValidator(value, cc);
  return /^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$/.test(value);
}

/** Whether the country has a postcode system (so a postcode is part of a complete address). */
export function hasPostcodes(country: string): boolean {
  return postcodeValidatorExistsForCountry(canonicalCountry(country));
}

/**
 * Countries where each municipality has its own postcode (Liechtenstein's 949x, Monaco's 98000, …):
 * the town names the postcode, so an import derives one from the other and a typed town stands for it.
 */
export const ONE_POSTCODE_PER_TOWN: ReadonlySet<string> = new Set(['LI', 'MC', 'SM', 'VA']);
