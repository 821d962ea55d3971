import fc from 'fast-check';

/**
 * Inputs a careless or hostile client sends: every JSON type where a string belongs, strings
 * with NUL, lone surrogates, BOMs, RTL overrides, astral and combining characters, strings at
 * and past their bounds, bodies that are not JSON, and header values of every printable shape.
 */

/** Single UTF-16 units and characters that break naive code and some databases. */
const ODD_UNITS = [
  '\u0000', '\u0001', '\u001f', '\u007f', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFEFF', '\uFFFE', '\uFFFF',
  '\u202E', '\u200B', '\u0301', '\u00A0', '\u2028', '\n', '\r', '\t', '"', '\\', '%', '\'', '<', '&', '😀', '東', 'ß', 'ǅ',
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.oneof(fc.constantFrom(...ODD_UNITS), fc.string({ maxLength: 3 })), { maxLength: 20 }).map((parts) => parts.join('')),
  // At and just past the bounds SPEC gives (1-500, 1-200, 1-64, 2, 2-8, 1-20, 1-100).
  fc.constantFrom(0, 1, 2, 8, 9, 20, 21, 63, 64, 65, 100, 101, 199, 200, 201, 499, 500, 501, 2000).chain((n) =>
    fc.constantFrom('a', 'é', '😀', '\u0000', '\uD800').map((unit) => unit.repeat(n)),
  ),
);

const oddScalar: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308, 0.5, -1, 11),
);

export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddScalar },
  { weight: 1, arbitrary: fc.array(oddScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(oddString, oddScalar, { maxKeys: 4 }) },
);

/** A field: usually a plausible value, often an odd one. */
const field = (plausible: fc.Arbitrary<unknown>) => fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: oddValue });

const components = fc.oneof(
  fc.record(
    {
      street: field(fc.constantFrom('Damrak', 'Keizersgracht', 'Unter den Linden')),
      houseNumber: field(fc.constantFrom('1', '2B', '123')),
      postcode: field(fc.constantFrom('1012 LG', '1012lg', '10117')),
      city: field(fc.constantFrom('Amsterdam', 'Berlin')),
      state: field(fc.constant('Noord-Holland')),
      country: field(fc.constantFrom('NL', 'DE', 'nl', 'XX')),
      unit: field(fc.constantFrom('Apt 3B', 'Whg. 5', '2º Esq.')),
    },
    { requiredKeys: [] },
  ),
  oddValue,
);

/** The customer's position (issue 35): in range, at the edges, out of range, or not a number. */
const near = field(
  fc.record(
    {
      lat: fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(-90, 90, 90.5, -91)),
      lng: fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(-180, 180, 180.01, '4.89')),
    },
    { requiredKeys: [] },
  ),
);
const types = field(fc.oneof(fc.subarray(['address', 'street', 'postcode', 'locality']), fc.constantFrom(['house'], ['street', 'street'])));

export const validateBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      query: field(fc.constantFrom('Damrak 1, 1012 LG Amsterdam', 'Damrk 2 Amsterdam', 'Unter den Linden 1, Berlin', 'c/o Müller, Damrak 1 3hg, 1012 LG Amsterdam', 'Apt 3B')),
      components,
      country: field(fc.constantFrom('NL', 'DE', 'GB')),
      language: field(fc.constantFrom('nl', 'en', 'nl-NL')),
      source: field(fc.constantFrom('crm', 'checkout')),
      debug: field(fc.boolean()),
      near,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

export const autocompleteBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      query: field(fc.constantFrom('Damrak', 'Keizersgr', 'Unter den')),
      country: field(fc.constantFrom('NL', 'DE')),
      language: field(fc.constant('nl')),
      limit: field(fc.integer({ min: -2, max: 12 })),
      sessionToken: field(fc.constantFrom('', 'focus-1')),
      source: field(fc.constant('widget')),
      near,
      types,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

/** Reverse look-up: positions in and out of range (poles, antimeridian), odd radii and limits, or any JSON. */
export const reverseBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      lat: field(fc.oneof(fc.double({ min: -95, max: 95, noNaN: true }), fc.constantFrom(52.37632, 90, -90))),
      lng: field(fc.oneof(fc.double({ min: -185, max: 185, noNaN: true }), fc.constantFrom(4.89605, 180, -180))),
      limit: field(fc.integer({ min: -2, max: 12 })),
      radiusMeters: field(fc.oneof(fc.double({ min: -10, max: 6000, noNaN: true }), fc.constantFrom(1, 5000))),
      source: field(fc.constant('checkout')),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

export const batchBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ items: fc.oneof(fc.array(validateBody, { maxLength: 4 }), oddValue), source: field(fc.constant('import')) }, { requiredKeys: [] }),
  fc.jsonValue(),
);

export const demoBody: fc.Arbitrary<unknown> = fc.oneof(fc.record({ query: field(fc.constantFrom('Damrak 1, Amsterdam', 'Dam 1 NL')) }, { requiredKeys: [] }), fc.jsonValue());

/** The raw body sent: JSON of the value, or something that is not quite JSON, or too large. */
export const rawBody = (value: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: value.map((v) => (JSON.stringify(v) ?? 'null').slice(0, -1)) },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[]', 'null', '{"query":', '\uFEFF{"query":"Damrak 1"}', '{"query":"\\ud800"}', '{"query":"\\u0000"}') },
    { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 80_000 }).map((n) => JSON.stringify({ query: 'x'.repeat(n) })) },
  );

/**
 * POST /v1/validate/feedback bodies around real response ids (`ids()`, asked when drawn): the
 * ids whole, cut, altered, with every conclusion, a wrong one, and anything else.
 */
export const feedbackBody = (ids: () => string[]): fc.Arbitrary<unknown> => {
  const real = fc.nat().map((i) => ids()[i % Math.max(1, ids().length)] ?? 'rsp_none');
  const responseId = fc.oneof(
    { weight: 4, arbitrary: real },
    { weight: 1, arbitrary: fc.tuple(real, fc.nat()).map(([id, n]) => id.slice(0, n % (id.length + 1))) },
    { weight: 1, arbitrary: fc.tuple(real, fc.string({ maxLength: 3 })).map(([id, s]) => id.slice(0, -3) + s) },
    { weight: 1, arbitrary: oddString.map((s) => `rsp_${s}`) },
    { weight: 1, arbitrary: oddValue },
  );
  const conclusion = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('validated_used', 'user_used', 'unvalidated_used', 'unused') },
    { weight: 1, arbitrary: fc.constantFrom('VALIDATED_VERSION_USED', 'Unused', '', ' unused') },
    { weight: 1, arbitrary: oddValue },
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ responseId, conclusion }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.record({ responseId, conclusion, extra: oddValue }) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
};

/** Printable header values (fetch refuses control characters, as an HTTP client must). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom('', ' ', 'null', 'undefined', 'Bearer', 'Bearer ', 'bearer x', 'Basic dXNlcjpwYXNz', '*'),
);

export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'application/JSON',
      'application/vnd.api+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
    ),
  },
  { weight: 1, arbitrary: headerValue },
);

/** `?source=` as raw percent-encoded bytes: invalid UTF-8 and NUL included. */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.uint8Array({ maxLength: 12 }).map((bytes) => `?source=${[...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`),
  fc.constantFrom('?source=', '?source=crm', '?source=a&source=b', '?source', '?%zz=1', `?source=${'x'.repeat(70)}`),
);
