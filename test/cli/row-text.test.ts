import { describe, expect, it } from 'vitest';
import { NO_ADDRESS, rowRequest } from '../../src/cli/bulk/mapping.js';
import { BIDI_MESSAGE, CONTROL_MESSAGE } from '../../src/contract/text.js';

/**
 * A list's rows go through the API's schema, which refuses control characters and bidi overrides
 * (issue 36): such a row is skipped with the field named, never called "no address"; the line
 * breaks of a cell that holds its address on several lines only separate its parts.
 */
describe('list rows with control characters', () => {
  it('a cell on several lines is one address, its lines separated', () => {
    expect(rowRequest(['address'], ['Landstrasse 1\r\n9495 Triesen\n'], { query: 'address' }, 'LI')).toEqual({
      ok: true,
      request: { query: 'Landstrasse 1, 9495 Triesen', country: 'LI' },
    });
    expect(rowRequest(['street', 'number'], ['Land\tstrasse\n', '1'], { components: { street: 'street', houseNumber: 'number' } })).toEqual({
      ok: true,
      request: { components: { street: 'Land strasse', houseNumber: '1' } },
    });
  });

  it('an escape sequence skips the row naming the field', () => {
    expect(rowRequest(['address'], ['Evilweg\u001b[2J 1'], { query: 'address' })).toEqual({ ok: false, error: `query: ${CONTROL_MESSAGE}` });
    expect(rowRequest(['street'], ['Evil\u202eweg'], { components: { street: 'street' } })).toEqual({ ok: false, error: `components.street: ${BIDI_MESSAGE}` });
  });

  it('an empty row is still "no address"', () => {
    expect(rowRequest(['address'], [' \n '], { query: 'address' })).toEqual({ ok: false, error: NO_ADDRESS });
  });
});
