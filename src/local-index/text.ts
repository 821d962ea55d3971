import { LRUCache } from 'lru-cache';
import {
  normalizeCity,
  normalizeHouseNumber,
  normalizePostcode,
  normalizeStreet,
  normalizeText,
} from '../address/normalize.js';

/**
 * Index-side tokenization on top of the shared normalizers: the index stores and queries
 * letters-and-digits tokens only, so SQLite's FTS5 tokenizer and PostgreSQL's 'simple'
 * configuration see exactly the tokens we see here.
 */
export function tokens(text: string | undefined): string[] {
  if (!text) return [];
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

function union(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

/** Street tokens: the expanded form (`keizersgr.` → `keizersgracht`) and the literal one, so both are found. */
export function streetTokens(street: string, country?: string): string[] {
  return union(tokens(normalizeStreet(street, country)), tokens(street));
}

export function cityTokens(city: string | undefined): string[] {
  if (!city) return [];
  return union(tokens(normalizeCity(city)), tokens(city));
}

/**
 * The forms under which one typed word may appear in the index. Remembered: every query reads
 * its words through the street normalizer, and the same words (a country's common street names
 * and its towns) come back query after query.
 */
const forms = new LRUCache<string, readonly string[]>({ max: 20_000 });
export function wordForms(word: string, country?: string): readonly string[] {
  const key = `${country ?? ''}|${word}`;
  let hit = forms.get(key);
  if (!hit) forms.set(key, (hit = union(tokens(word), tokens(normalizeStreet(word, country)))));
  return hit;
}

/** Compact postcode key for equality and prefix search: `1012 lg` → `1012LG`. */
export function postcodeKey(postcode: string): string {
  return postcode.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Display form of a postcode: the country's format when known, else trimmed input. */
export function displayPostcode(postcode: string, country?: string): string {
  const trimmed = postcode.trim().replace(/\s+/g, ' ');
  return normalizePostcode(trimmed, country) || trimmed;
}

/** Exact-compare form of a house number (`123-2`, `123 2` and `123/2` compare equal). */
export function houseNumberKey(houseNumber: string): string {
  return normalizeHouseNumber(houseNumber);
}

/** The leading integer of a house number, for numeric ordering (`12a` → 12). */
export function houseNumberBase(houseNumber: string): number | null {
  const m = /^\s*0*(\d{1,9})/.exec(houseNumber);
  return m ? Number(m[1]) : null;
}

export function collapseSpaces(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}
