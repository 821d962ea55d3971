import type { AddressComponents, GeoPoint } from '../contract/address.js';
import type { SuggestionType, WidgetSuggestion } from '../contract/autocomplete.js';

/** One suggestion as the widget endpoint returns it (SPEC "WidgetSuggestion"; type only, no Zod in the bundle). */
export type { WidgetSuggestion };

/**
 * Fields the widget can fill; `line1`/`line2` are the two street lines of HTML autofill, `unit`
 * a field of its own for the flat or suite (`data-addressd-field="unit"`).
 */
export type FieldName =
  | 'street'
  | 'houseNumber'
  | 'line1'
  | 'line2'
  | 'unit'
  | 'postcode'
  | 'city'
  | 'state'
  | 'country'
  | 'countryName';

export type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
export type FieldTarget = string | FieldElement;

export interface WidgetMessages {
  /** Live-region text for n > 0 suggestions. */
  found: (count: number) => string;
  none: string;
  listLabel: string;
  /** Live-region text after a street-only choice: the house number is still to be typed. */
  numberNeeded: string;
  /** Visible prompt (beside the unit field, else the input) when the chosen house needs a unit. */
  unitNeeded: string;
  /** The "use my location" button (option `locate`) and what it says while and after it looks. */
  locate: string;
  locating: string;
  locateDenied: string;
  locateNone: string;
  locateFailed: string;
}

export interface WidgetOptions {
  /** Publishable token `svc_pk_live_…` / `svc_pk_test_…`. */
  token: string;
  /** Service origin; defaults to the origin the widget script was loaded from. */
  apiBase?: string;
  country?: string;
  language?: string;
  limit?: number;
  minChars?: number;
  debounceMs?: number;
  /** Explicit field mapping (CSS selector or element); wins over `autocomplete` detection. */
  fields?: Partial<Record<FieldName, FieldTarget>>;
  /** Detect fields by their `autocomplete` attributes (default true). */
  autoFields?: boolean;
  theme?: 'auto' | 'light' | 'dark';
  /** true (default): load the hosted stylesheet; false: the page styles the widget itself; string: stylesheet URL. */
  stylesheet?: boolean | string;
  messages?: Partial<WidgetMessages>;
  /** The customer's position, to rank nearby addresses first; the input's `data-addressd-near="lat,lng"` wins. */
  near?: GeoPoint;
  /** Ask the browser for the customer's position (it asks the customer first) when nothing else gives one. Default false. */
  geolocate?: boolean;
  /** Kinds of suggestion wanted (`address`, `street`, `postcode`, `locality`); all by default. */
  types?: SuggestionType[];
  /** Show a "use my location" button that fills the form from the nearest address (opt-in; asks the browser's permission on click). */
  locate?: boolean;
}

/** `detail` of the `select` event. */
export interface SelectDetail {
  id: string;
  label: string;
  provider: string;
  address: AddressComponents;
  /** House number including what the user typed beyond the suggestion (`12-3`, `7 bis`). */
  houseNumber?: string;
  /** Text the user typed that the suggestion lacks (an apartment): kept, never wiped. */
  extra: string;
  /** The text the input now shows. */
  value: string;
  /** The unit: as the service read it from the typing, else the typed extra. */
  unit?: string;
  /** `add_unit`: none was given and the house has several; the widget asked for it. */
  action?: WidgetSuggestion['action'];
}

/**
 * `detail` of the `street` event: a street was chosen without a house number. Nothing is filled in
 * yet (it is no finished address); the caret waits where the number goes and `missing` says what.
 */
export interface StreetDetail {
  id: string;
  label: string;
  provider: string;
  address: AddressComponents;
  missing: ['houseNumber'];
}
