import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/address/parse.js';
import { peliasParse, startPeliasThread } from '../../src/address/pelias.js';

// The server builds pelias-parser in a worker thread so a restart answers without waiting for it
// (main.ts); every parse then goes there. What a caller gets must not depend on where it ran.
const TEXTS = ['Stationsweg Leiden', 'Hauptstraße Berlin', '10 Downing Street London', 'Kerkstraat Amsterdam Noord-Holland', 'Rue de Rivoli Paris'];
// Texts without a house number: those are the ones name-assign hands to pelias.
const ADDRESSES = ['Stationsweg Leiden', 'Baker Street London', 'Kalverstraat Amsterdam'];

describe('pelias-parser in a worker thread (server start-up)', () => {
  const here = TEXTS.map((t) => peliasParse(t));
  const parsedHere = ADDRESSES.map((t) => parseAddress(t));
  startPeliasThread();

  it('reads every text as the calling thread did, the first one waiting for the classifier to be built', () => {
    expect(TEXTS.map((t) => peliasParse(t))).toEqual(here);
  });

  it('leaves the parse of an address without a house number unchanged', () => {
    expect(ADDRESSES.map((t) => parseAddress(t))).toEqual(parsedHere);
  });
});
