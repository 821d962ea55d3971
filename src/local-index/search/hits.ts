import type { AddressComponents } from '../../contract/address.js';
import { formatLabel } from '../../providers/label.js';
import type { AddressHit, StreetHit } from '../store/store.js';
import type { LocalHit } from '../types.js';

function streetComponents(s: StreetHit): AddressComponents {
  const c: AddressComponents = { street: s.street, country: s.country };
  if (s.city) c.city = s.city;
  if (s.state) c.state = s.state;
  return c;
}

export function addressToHit(a: AddressHit, score: number): LocalHit {
  const components: AddressComponents = { ...streetComponents(a.street), houseNumber: a.hn };
  if (a.postcode) components.postcode = a.postcode;
  return {
    components,
    location: { lat: a.lat, lng: a.lng },
    precision: 'address',
    score: round(score),
    label: formatLabel(components),
  };
}

/** A street as a result: its centre, and its postcode when all its addresses share one. */
export function streetToHit(s: StreetHit, score: number): LocalHit {
  const components = streetComponents(s);
  if (s.postcode) components.postcode = s.postcode;
  return {
    components,
    location: { lat: s.lat, lng: s.lng },
    precision: 'street',
    score: round(score),
    label: formatLabel({ ...components, postcode: undefined }),
  };
}

const round = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
