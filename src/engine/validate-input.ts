import type { AddressComponents, GeoPoint } from '../contract/address.js';
import type { ValidateRequest } from '../contract/validate.js';
import { type AddressReader, addressReader } from '../address/parse.js';
import { slashDoorReading } from '../address/units.js';
import type { GeocodeQuery, ProviderCandidate } from '../providers/provider.js';
import { nearCell } from './near.js';

export interface ValidateInput {
  /**
   * What the user supplied, component by component: explicit components win over parsed text.
   * `unit` in display form (`Apt 3B`, `2º Esq.`, `Whg. 5`), from `components.unit` or the text.
   */
  input: AddressComponents;
  country?: string;
  /** The customer's position as sent: picks between equal candidates and orders the alternatives (issue 35). */
  near?: GeoPoint;
  /** What providers are asked: text and components without the unit and recipient parts (a unit never changes the house found). */
  query: GeocodeQuery;
  /** The parts of the text no component used (recipient lines, delivery notes), in input order. */
  unresolved: readonly string[];
  /** One line for the usage report. */
  summary: string;
  /**
   * The input as read against one candidate: free text read again knowing the candidate's street,
   * places and postcode, so words are taken for what the result confirms they are (`København V`
   * is one town, `Frederiksberg` in `Frederiksberg Allé` part of the street); explicit components
   * still win. Without free text, `input` itself.
   */
  readFor(candidate: Pick<ProviderCandidate, 'components' | 'placeNames'>): AddressComponents;
  /**
   * The request read again in the country the data found, where the request named none and that
   * country reads the text differently (`Landstrasse 340/3, 9495 Triesen`: in LI house 340, door 3);
   * undefined where the reading would not change.
   */
  forCountry(found: string): ValidateInput | undefined;
}

/** Longest free text read again against each candidate (real addresses stay well under it). */
const MAX_GUIDED_LENGTH = 200;

/** Reads the request into components: parses free text, lets explicit components override it. */
export function readValidateInput(request: ValidateRequest): ValidateInput {
  const hintCountry = (request.country ?? request.components?.country)?.toUpperCase() || undefined;
  // The text is prepared once per country it is read for (reader.ts), then read against each hint set.
  const firstReader = request.query ? addressReader(request.query, hintCountry ? { country: hintCountry } : {}) : undefined;
  const parsed = firstReader ? firstReader() : {};
  const given = Object.fromEntries(
    Object.entries(request.components ?? {}).filter(([, v]) => v !== undefined && v !== ''),
  ) as AddressComponents;
  const country = (request.country ?? given.country ?? parsed.country)?.toUpperCase();
  const input = merge(parsed, given, country);
  // The text as providers are asked it: the reading above took its unit and recipient parts out.
  const aside = firstReader?.setAside();
  const { unit: _unit, ...house } = input;
  const summary =
    request.query ??
    [input.street && [input.street, input.houseNumber].filter(Boolean).join(' '), input.postcode, input.city, input.country]
      .filter(Boolean)
      .join(', ');
  const text = request.query;
  // Candidates of one street and town (a provider's nearby numbers, other providers' same address) read alike.
  const readings = new Map<string, AddressComponents>();
  let guidedReader: AddressReader | undefined;
  let again: ValidateInput | undefined;
  return {
    input,
    ...(country ? { country } : {}),
    ...(request.near ? { near: request.near } : {}),
    query: {
      ...(aside?.text ? { query: aside.text } : {}),
      components: house,
      ...(country ? { country } : {}),
      ...(request.language ? { language: request.language } : {}),
      // Its ~1 km cell, as the cache key holds it: a cached lookup is what any request of the cell gets.
      ...(request.near ? { near: nearCell(request.near) } : {}),
    },
    unresolved: aside?.unresolved ?? [],
    summary: summary.slice(0, 500),
    readFor(candidate) {
      // Beyond the length of any real address, text is read once: each reading costs more with length.
      if (!text || text.length > MAX_GUIDED_LENGTH) return input;
      const c = candidate.components;
      const hints = {
        streets: c.street ? [c.street] : [],
        places: [c.city, ...(candidate.placeNames ?? [])].filter((p): p is string => Boolean(p)),
        postcodes: c.postcode ? [c.postcode] : [],
      };
      const key = JSON.stringify(hints);
      let reading = readings.get(key);
      if (!reading) {
        // The readings against results use the country found in the text too; the first reading, only the request's.
        guidedReader ??= country === hintCountry && firstReader ? firstReader : addressReader(text, country ? { country } : {});
        readings.set(key, (reading = merge(guidedReader(hints), given, country)));
      }
      return reading;
    },
    forCountry(found) {
      if (country || !text || !slashDoorReading(text, found)) return undefined;
      return (again ??= readValidateInput({ ...request, country: found.toUpperCase() }));
    },
  };
}

/** A reading of the text with the explicit components over it, and the request's country. */
function merge(read: AddressComponents, given: AddressComponents, country: string | undefined): AddressComponents {
  return { ...read, ...given, ...(country ? { country } : {}) };
}
