import { normalizeHouseNumber, normalizeStreet } from '../../src/address/normalize.js';
import type { GeoPoint } from '../../src/contract/address.js';
import { formatLabel } from '../../src/providers/label.js';

/** An address to type: as its country writes it, and what a suggestion of it names. */
export interface Target {
  street: string;
  houseNumber: string;
  postcode: string;
  city: string;
  country: string;
  lat: number;
  lng: number;
}

/** What a suggestion says of the address it offers (the API's `components`). */
export interface Offered {
  street?: string | undefined;
  houseNumber?: string | undefined;
  postcode?: string | undefined;
  city?: string | undefined;
}

/** One autocomplete call: the suggestions' components, best first. */
export type Ask = (query: string, country: string, near?: GeoPoint) => Promise<Offered[]>;

/** How one address fared, typed character by character. */
export interface Typed {
  length: number;
  /** Characters typed before it was in the top 5 / at rank 1; `length` when never. */
  top5: number;
  top1: number;
  offered5: boolean;
  offered1: boolean;
  /** In the top 5 once `street number` (or the country's number-first form) is typed whole. */
  streetAndNumber: boolean;
  /** The fewest characters after which any service could offer it: see `fewestPossible`. */
  floor: number;
}

const key = (s: string | undefined) => (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** Whether a suggestion is the address: its street and number, and its postcode or town. */
export function isTarget(t: Target, o: Offered): boolean {
  if (!o.street || !o.houseNumber) return false;
  if (key(normalizeStreet(o.street, t.country)) !== key(normalizeStreet(t.street, t.country))) return false;
  if (key(normalizeHouseNumber(o.houseNumber)) !== key(normalizeHouseNumber(t.houseNumber))) return false;
  return key(o.postcode) === key(t.postcode) || key(o.city) === key(t.city);
}

/** The address as its country writes it on one line (`formatLabel`: `Damrak 1, 1012 LG Amsterdam`, `10 New Square, …`). */
export const written = (t: Target) => formatLabel({ street: t.street, houseNumber: t.houseNumber, postcode: t.postcode, city: t.city, country: t.country });

/** Street and number alone, in the country's order. */
export const streetAndNumber = (t: Target) => formatLabel({ street: t.street, houseNumber: t.houseNumber, country: t.country });

/** The number-first and number-last forms, whatever the country's habit. */
export const bothOrders = (t: Target) => [`${t.houseNumber} ${t.street}`, `${t.street} ${t.houseNumber}`];

/**
 * The fewest characters after which the address can be told apart at all, whatever the ranking:
 * one character of its number and one of its street. Before the number's first character it is
 * any house of its street (a street of the bench:scale country holds dozens near the customer);
 * before the street's, any house with that number. `Mühlenweg 56, 10000 Oberbach` → 11
 * (`Mühlenweg 5`), `10 New Square, …` → 4 (`10 N`).
 */
export function fewestPossible(t: Target): number {
  const text = written(t);
  if (text.startsWith(t.houseNumber)) {
    const street = text.slice(t.houseNumber.length).search(/[\p{L}\p{N}]/u);
    return street >= 0 ? t.houseNumber.length + street + 1 : text.length;
  }
  const streetAt = text.indexOf(t.street);
  const number = text.indexOf(t.houseNumber, streetAt >= 0 ? streetAt + t.street.length : 0);
  return number >= 0 ? number + 1 : text.length;
}

/** Types the address one character at a time until it is at rank 1 (or the text ends). */
export async function typeAddress(ask: Ask, t: Target, near?: GeoPoint): Promise<Typed> {
  const text = written(t);
  let top5 = text.length;
  let top1 = text.length;
  let offered5 = false;
  let offered1 = false;
  for (let n = 1; n <= text.length && !offered1; n++) {
    const query = text.slice(0, n);
    if (!/[\p{L}\p{N}]/u.test(query)) continue;
    const offered = await ask(query, t.country, near);
    const rank = offered.findIndex((o) => isTarget(t, o));
    if (rank >= 0 && rank < 5 && !offered5) [top5, offered5] = [n, true];
    if (rank === 0) [top1, offered1] = [n, true];
  }
  const whole = await ask(streetAndNumber(t), t.country, near);
  return { length: text.length, top5, top1, offered5, offered1, streetAndNumber: whole.slice(0, 5).some((o) => isTarget(t, o)), floor: fewestPossible(t) };
}

/** Whether both orders of street and number, typed whole, offer the address in the top 5. */
export async function numberKept(ask: Ask, t: Target): Promise<boolean> {
  for (const query of bothOrders(t)) {
    const offered = await ask(query, t.country);
    if (!offered.slice(0, 5).some((o) => isTarget(t, o))) return false;
  }
  return true;
}

/** A point 1-3 km from the address in a random direction (the customer's phone, near home). */
export function nearBy(t: Target, rand: () => number): GeoPoint {
  const km = 1 + 2 * rand();
  const bearing = 2 * Math.PI * rand();
  const dLat = (km / 111.32) * Math.cos(bearing);
  const dLng = ((km / 111.32) * Math.sin(bearing)) / Math.cos((t.lat * Math.PI) / 180);
  return { lat: t.lat + dLat, lng: t.lng + dLng };
}

export interface Summary {
  addresses: number;
  /** Mean share of the characters typed before offered in the top 5 / at rank 1. */
  share5: number;
  share1: number;
  /** Mean share of `fewestPossible`: no ranking can offer the addresses sooner. */
  floor: number;
  never5: number;
  streetAndNumber: number;
}

export function summarize(all: Typed[]): Summary {
  const mean = (f: (t: Typed) => number) => (all.length === 0 ? 0 : all.reduce((a, t) => a + f(t), 0) / all.length);
  return {
    addresses: all.length,
    share5: mean((t) => t.top5 / t.length),
    share1: mean((t) => t.top1 / t.length),
    floor: mean((t) => t.floor / t.length),
    never5: all.filter((t) => !t.offered5).length,
    streetAndNumber: all.filter((t) => t.streetAndNumber).length,
  };
}
