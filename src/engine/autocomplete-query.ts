import { UNIT_WORDS, wordKey } from '../address/unit-words.js';
import { stripUnitAndRecipient } from '../address/units.js';

export interface AutocompleteText {
  /** What providers are asked: the text without the unit, recipient and a designator still being typed. */
  query: string;
  /** The unit typed beside the address, in display form; carried back on each house suggestion. */
  unit?: string;
}

/**
 * Splits what the user typed into the provider query and the unit (issue 27): no provider matches a
 * flat, so `Baaderstraße 22 Whg. 5` is searched as `Baaderstraße 22`. While the unit is being typed,
 * a designator right after the house number without its identifier yet (`Baaderstraße 22 Whg`) is
 * left out too, so the suggestions hold between two keystrokes instead of vanishing.
 */
export function autocompleteText(text: string, country?: string): AutocompleteText {
  const aside = stripUnitAndRecipient(text, country);
  // A unit or recipient alone is all there is to search.
  if (!aside.text) return { query: text };
  const words = aside.text.split(/\s+/);
  const last = words.at(-1) ?? '';
  const typing = words.length > 2 && UNIT_WORDS.has(wordKey(last)) && /\d/.test(words.at(-2) ?? '');
  const query = typing ? words.slice(0, -1).join(' ') : aside.text;
  return { query, ...(aside.unit ? { unit: aside.unit } : {}) };
}
