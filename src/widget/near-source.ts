import type { GeoPoint } from '../contract/address.js';
import type { SuggestionType } from '../contract/autocomplete.js';
import { browserPosition, coarse, parseNear } from './geolocation.js';

const TYPES: readonly SuggestionType[] = ['address', 'street', 'postcode', 'locality'];

/** `"street, postcode"` → the known kinds in it; undefined when none is named (all kinds). */
export function parseTypes(value: string | undefined): SuggestionType[] | undefined {
  const named = (value ?? '').split(',').map((t) => t.trim().toLowerCase());
  const known = TYPES.filter((t) => named.includes(t));
  return known.length ? known : undefined;
}

/**
 * Where the widget searches near (issue 35), asked at each request: the input's
 * `data-addressd-near` (so a page may move it, after a map click say), else the `near` option, else,
 * only where the page opted in (`geolocate` option or `data-addressd-geolocate` on the input), the
 * browser's position once the customer allowed it, coarsened to about a kilometre.
 */
export class NearSource {
  private located: GeoPoint | undefined;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly option: GeoPoint | undefined,
    private readonly geolocate: boolean,
  ) {}

  private explicit(): GeoPoint | undefined {
    return parseNear(this.input.dataset.addressdNear) ?? this.option;
  }

  /** On focus: the browser is asked (once per page, see geolocation.ts) only when opted in and nothing explicit is set. */
  prepare(): void {
    const optedIn = this.geolocate || this.input.dataset.addressdGeolocate !== undefined;
    if (!optedIn || this.located || this.explicit()) return;
    void browserPosition().then((p) => {
      if (p) this.located = coarse(p);
    });
  }

  current(): GeoPoint | undefined {
    return this.explicit() ?? this.located;
  }
}
