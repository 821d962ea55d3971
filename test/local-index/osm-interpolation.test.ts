import { expect, it } from 'vitest';
import { MAX_INTERPOLATED, numbersBetween } from '../../src/local-index/import/osm-interpolation.js';

const numbers = (kind: string, from: string, to: string) => numbersBetween(kind, from, to).map((n) => n.hn);

/** Issue 30 item 4: the numbers an OSM interpolation way stands for, as Nominatim reads `addr:interpolation`. */
it('gives the numbers strictly between the two numbered nodes, of the kind the way names, in the way direction', () => {
  expect(numbers('even', '2', '10')).toEqual(['4', '6', '8']);
  expect(numbers('odd', '1', '9')).toEqual(['3', '5', '7']);
  expect(numbers('odd', '10', '4')).toEqual(['9', '7', '5']);
  expect(numbers('all', '3', '6')).toEqual(['4', '5']);
  expect(numbers('3', '1', '10')).toEqual(['4', '7']);
  expect(numbers('alphabetic', '12a', '12d')).toEqual(['12b', '12c']);
  expect(numbers('alphabetic', '12', '12c')).toEqual(['12a', '12b']);
  // Each with its share of the way between the two nodes.
  expect(numbersBetween('even', '2', '10').map((n) => n.share)).toEqual([0.25, 0.5, 0.75]);
});

it('gives none for numbers that are not plain, letters on different numbers, or an unknown kind; caps a huge range', () => {
  expect(numbers('even', '2a', '10')).toEqual([]);
  expect(numbers('alphabetic', '12a', '13c')).toEqual([]);
  expect(numbers('yes', '2', '10')).toEqual([]);
  expect(numbers('all', '1', '100000')).toHaveLength(MAX_INTERPOLATED);
});
