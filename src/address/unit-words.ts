import { foldCase } from './text.js';

/**
 * The words of units in the languages the reader knows (issue 27), keyed by wordKey: lower case,
 * no diacritics, no slash, no closing dot or colon (`Whg.` → `whg`, `Bât.` → `bat`, `R/C` → `rc`).
 */
export function wordKey(word: string): string {
  return foldCase(word).replace(/\//g, '').replace(/[.:]+$/, '');
}

/** Designators followed by the unit's identifier (`Apt 3B`, `Whg. 5`, `Top 3`, `Bât. A`, `lgh 1102`). */
export const UNIT_WORDS: ReadonlySet<string> = new Set([
  // English
  'apt', 'apartment', 'flat', 'unit', 'suite', 'ste', 'room', 'rm', 'fl', 'floor', 'level', 'bldg', 'building',
  // German, Austrian, Liechtenstein
  'whg', 'wohnung', 'app', 'top', 'stiege', 'stg', 'tur', 'tuer',
  // French
  'appt', 'appartement', 'bat', 'batiment', 'escalier', 'esc', 'etage', 'porte',
  // Portuguese, Spanish, Catalan
  'sala', 'loja', 'andar', 'piso', 'puerta', 'planta', 'escalera',
  // Italian
  'int', 'interno', 'scala', 'piano',
  // Swedish
  'lgh', 'lagenhet',
]);

/** Floor words after an ordinal (`2nd Floor`, `3e étage`, `2. Stock`, `1º Andar`, NL `3 hoog`). */
export const FLOOR_WORDS: ReadonlySet<string> = new Set([
  'floor', 'fl', 'level', 'etage', 'stock', 'og', 'andar', 'piano', 'piso', 'planta', 'verdieping', 'hoog',
]);

/** Words naming a building part on their own (`Hinterhaus`, `Vorderhaus`). */
export const STANDALONE: ReadonlySet<string> = new Set(['hinterhaus', 'vorderhaus', 'seitenflugel', 'gartenhaus', 'quergebaude']);

/** Sides and doors that continue a unit (`2. OG links`, `2º Esq.`, `2º Dto`, `Frente`, `2. sal tv`). */
export const SIDE_WORDS: ReadonlySet<string> = new Set([
  'links', 'rechts', 'mitte', 'li', 're',
  'esq', 'esqo', 'esquerdo', 'esquerda', 'dto', 'dt', 'dta', 'direito', 'direita', 'dir', 'frente', 'fte', 'tras',
  'izq', 'izda', 'izquierda', 'dcha', 'derecha', 'centro', 'andar',
  'tv', 'th', 'mf', 'gauche', 'droite',
]);

/** Danish floor and door (`2. tv`, `st. th`, `1.mf`, `3. sal`): the unit within the house. */
export const DK_FLOOR = /^(?:\d{1,2}\.|st\.?|kl\.?|stuen)$/i;
export const DK_DOOR = /^(?:tv|th|mf|sal)\.?$/i;
export const DK_FLOOR_DOOR = /^\d{1,2}\.(?:tv|th|mf)\.?$/i;
