import type { AddressComponents, GeoPoint, InferredComponent } from '../contract/address.js';
import type { ProviderId } from '../contract/enums.js';
import type { SuggestionType } from '../contract/autocomplete.js';

/**
 * How precise a result is. Scoring multiplies by it: an address point is worth more
 * than the street centre, which is worth more than a town.
 */
export type Precision = 'address' | 'street' | 'postcode' | 'locality' | 'region' | 'country';

/** One provider result, mapped to our components. Scoring happens in the engine, never here. */
export interface ProviderCandidate {
  components: AddressComponents;
  location?: GeoPoint;
  /** Provider-native confidence normalized to 0-1; absent when the provider reports none. */
  providerConfidence?: number;
  label?: string;
  precision: Precision;
  /**
   * Every place the provider names for this result, lowest level first (village, town, city,
   * municipality, district, county; not state or country), with `components.city` among them.
   * The engine accepts the input's city when it names any of them (a person writes the
   * municipality, Nominatim's `address` names the hamlet). Absent when the provider names none.
   */
  placeNames?: string[];
  /** The units the data lists for this house (flats, doors), as the data writes them; absent when the data knows none. */
  units?: string[];
  /**
   * `units` is gathered from single values (OSM `addr:unit` of a building's shops), not stated as
   * the house's list (`addr:flats`, OpenAddresses `UNIT` rows): a typed unit absent from it is `not-checked`.
   */
  unitsPartial?: true;
  /** Components of `components` the data did not state but were derived (area, place node, neighbours). */
  inferred?: InferredComponent[];
  /**
   * The provider's data holds this street and every house number it has (the local index), so a
   * typed number the candidate does not carry is absent from the data: a `mismatch`, not `not-checked`;
   * and on a street result, input without a number lacks one the data numbers: `missing` (issue 34).
   */
  houseNumbersKnown?: true;
  /** The same for postcodes: a typed postcode the candidate does not carry is not one of the street's. */
  postcodesKnown?: true;
  /**
   * The coordinates are placed between two known house numbers (an OSM interpolation way), not
   * mapped for this house: the answer's `granularity.geocode` is `interpolated`.
   */
  interpolated?: true;
  /** Provider-native payload, shown only in debug candidates; never sent to browsers. */
  raw?: unknown;
}

export interface GeocodeQuery {
  /** Free-form text, when the caller sent one. */
  query?: string;
  /** Structured parts: the caller's components, or what the parser read from `query`. */
  components: AddressComponents;
  country?: string;
  language?: string;
  /** The customer's position: ranks equal candidates and alternatives by distance (issue 35); never changes a verdict. */
  near?: GeoPoint;
}

export interface AutocompleteQuery {
  query: string;
  country?: string;
  language?: string;
  limit: number;
  /** The customer's position: text match blended with a distance decay (strong within a few km, none beyond ~100 km). */
  near?: GeoPoint;
  /** Kinds of result wanted; absent means all. */
  types?: SuggestionType[];
}

/** A reverse look-up (issue 35): the addresses nearest to a position, within a radius. */
export interface ReverseQuery {
  lat: number;
  lng: number;
  radiusMeters: number;
  limit: number;
  language?: string;
}

/** Thrown by adapters for a response that is not well-formed (status `error`, provider did not answer). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'http' | 'malformed' | 'network' = 'malformed',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface Provider {
  readonly id: ProviderId;
  /** Whether the provider has data for this ISO alpha-2 country; `undefined` means "no country given". */
  covers(country: string | undefined): boolean;
  geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderCandidate[]>;
  /**
   * Its autocomplete ranks by `AutocompleteQuery.near` itself (local, Photon's location bias, PDOK):
   * the engine keeps its order; other providers' lists are blended with distance by the engine.
   */
  readonly ranksByNear?: true;
  /**
   * It answers from data this service holds (local: the imported index), so asking it costs no one
   * a call: a billed call that asks only such providers starts before its credits are held, the
   * answer still waiting for them (engine/billing.ts, BillOptions.early).
   */
  readonly ownData?: true;
  /**
   * Geocodes about to be asked together (a batch's items): looked up at once where the provider
   * can (local on PostgreSQL: one statement for up to 250 of them, `LocalIndex.prime`), so each
   * `geocode` then mostly finds its answer waiting. Only a head start: every geocode is still
   * asked, and answers as it would have. Absent where there is nothing to gain.
   */
  prime?(queries: GeocodeQuery[]): Promise<void>;
  /** Absent when the provider does not autocomplete (nominatim's usage policy forbids it). */
  autocomplete?(query: AutocompleteQuery, signal: AbortSignal): Promise<ProviderCandidate[]>;
  /**
   * The addresses nearest to a position, nearest first (each with its `location`: the engine
   * measures every distance itself). Absent when the provider cannot look up a position.
   */
  reverse?(query: ReverseQuery, signal: AbortSignal): Promise<ProviderCandidate[]>;
  /** Whether it has data at this position, for a reverse look-up (PDOK: the Netherlands only); absent means wherever `covers(undefined)`. */
  coversPosition?(position: GeoPoint): boolean;
  /** False while the provider has nothing to answer from (local with an empty index); absent means always. */
  available?(): boolean;
  /**
   * The generation of the data it answers `country` from (local: moves on with each import that
   * changes the country), for the cache key: absent for providers whose data we do not hold.
   */
  dataGeneration?(country: string | undefined): number;
  close?(): Promise<void>;
}

/**
 * Thrown by an adapter before it sends anything, when it cannot be called in time (e.g. the
 * public Nominatim's 1 request/s slot would not come free soon enough) or has nothing to
 * send: status `skipped`, not billed, not counted as a failure by the circuit breaker.
 */
export class ProviderSkipped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderSkipped';
  }
}
