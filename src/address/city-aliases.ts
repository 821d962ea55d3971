import { normalizeText } from './text.js';

/**
 * Alternative and exonym names of cities (a result in the local language for an input in English,
 * or an official name for the common one). Recognised as the same place, reported `corrected`.
 */
const GROUPS: readonly (readonly string[])[] = [
  ['Den Haag', "'s-Gravenhage", 'The Hague', 'La Haye'],
  ['Den Bosch', "'s-Hertogenbosch"],
  ['München', 'Munich'], ['Köln', 'Cologne'], ['Nürnberg', 'Nuremberg'], ['Braunschweig', 'Brunswick'],
  ['Frankfurt', 'Frankfurt am Main'], ['Hannover', 'Hanover'], ['Wien', 'Vienna'], ['Zürich', 'Zurich'],
  ['Genève', 'Geneva', 'Genf'], ['Brussel', 'Bruxelles', 'Brussels', 'Brüssel'], ['Antwerpen', 'Antwerp', 'Anvers'],
  ['Gent', 'Ghent', 'Gand'], ['Luik', 'Liège'], ['Leuven', 'Louvain'], ['Praha', 'Prague', 'Prag'],
  ['Warszawa', 'Warsaw', 'Warschau'], ['København', 'Copenhagen'], ['Lisboa', 'Lisbon'], ['Roma', 'Rome'],
  ['Milano', 'Milan'], ['Napoli', 'Naples'], ['Firenze', 'Florence'], ['Venezia', 'Venice'], ['Torino', 'Turin'],
  ['Sevilla', 'Seville'], ['Athina', 'Athens'], ['Moskva', 'Moscow'], ['New York', 'New York City', 'NYC'],
  ['Londen', 'London', 'Londres'], ['Parijs', 'Paris'], ['Berlijn', 'Berlin'],
];

let index: Map<string, number> | undefined;

/** Whether the two (normalized) city names are listed as names of the same place. */
export function areCityAliases(a: string, b: string): boolean {
  if (!index) {
    index = new Map();
    GROUPS.forEach((group, i) => group.forEach((name) => index?.set(normalizeText(name), i)));
  }
  const ga = index.get(a);
  return ga !== undefined && ga === index.get(b);
}

/** Every listed name: towns the reader knows without being told (`Den Haag` is one town, not `Den` + `Haag`). */
export function listedCityNames(): readonly string[] {
  return GROUPS.flat();
}
