import { addressesByPostcodeQuery, addressesOnStreetsSql } from './queries.js';
import type { HouseNumberFilter } from './store.js';

/*
 * The house numbers `addressd_local_search` returns with the streets (`addressesOnStreets` of the
 * streets it found or ranked first): the store's own SQL (addressesOnStreetsSql), written into the
 * function as static SQL, one text per kind of number filter, its values read from the `p_numbers`
 * argument. Static, so the function keeps its plan for the session as the store keeps its named
 * statement's: run through EXECUTE it was planned on every call, a join of two partitioned tables
 * (0.3 ms of a keystroke's 1 ms).
 */

type Kind = 'none' | 'base' | 'exact' | 'prefix';

/** A filter of each kind: the SQL depends on the kind only (the values are bound). */
const SAMPLES: Record<Kind, HouseNumberFilter | undefined> = {
  none: undefined,
  base: { base: 0 },
  exact: { key: '', prefix: false },
  prefix: { key: '', prefix: true },
};

const kindOf = (hn: HouseNumberFilter | undefined): Kind => (!hn ? 'none' : 'base' in hn ? 'base' : hn.prefix ? 'prefix' : 'exact');

/**
 * The `p_numbers` argument: the filter's kind, the values addressesOnStreetsSql binds, the limit;
 * `postcode`: also the narrowed search's postcode's addresses of its number (postcodeNumbersStatements);
 * `rankUpTo`: no numbers when more streets than that were found (StreetPrefetch.numbers.rankUpTo).
 */
export function numbersArgument(hn: HouseNumberFilter | undefined, limit: number, postcode = false, rankUpTo?: number): string {
  return JSON.stringify({
    kind: kindOf(hn),
    args: addressesOnStreetsSql('local_', '', hn, limit).args,
    limit,
    ...(postcode ? { postcode: true } : {}),
    ...(rankUpTo !== undefined ? { rankUpTo } : {}),
  });
}

/** The kind's SQL with the ids `v_ids` (an array), its values and limit from `p_numbers`. */
function numbersSql(kind: Kind): string {
  const q = addressesOnStreetsSql('local_', '__ids__', SAMPLES[kind], { sql: "(p_numbers->>'limit')::integer" });
  let i = 0;
  return q.sql.replace(/IN \(__ids__\)/g, '= ANY (v_ids)').replace(/\?/g, () => {
    const at = i;
    return `(p_numbers->'args'->>${i++})::${typeof q.args[at] === 'number' ? 'integer' : 'text'}`;
  });
}

/** The function's statements returning the addresses as `a` rows. */
export function numbersStatements(): string {
  return (Object.keys(SAMPLES) as Kind[])
    .map((kind, i) => `${i === 0 ? 'IF' : 'ELSIF'} p_numbers->>'kind' = '${kind}' THEN
    RETURN QUERY SELECT 'a'::text, to_jsonb(x) FROM (${numbersSql(kind)}) x;`)
    .join('\n  ') + '\n  END IF;';
}

/**
 * `addressesByPostcode` of the narrowed search's postcode and number (an exact key each: the
 * function's `p_pc`, `p_hn`, `p_country`), `limit` of `p_numbers`, as `b` rows: what autocomplete
 * asks beside the numbers on the streets (numberedOn), the store's own SQL, static as above.
 */
export function postcodeNumbersStatements(): string {
  const exact = { key: '', prefix: false };
  const limit = { sql: "(p_numbers->>'limit')::integer" };
  const statement = (withCountry: boolean) => {
    const names = ['p_pc', 'p_hn', ...(withCountry ? ['p_country'] : [])];
    const q = addressesByPostcodeQuery('local_', exact, exact, withCountry ? '' : undefined, limit);
    if (q.args.length !== names.length) throw new Error('addressesByPostcodeQuery binds other values than the function has');
    let i = 0;
    return `RETURN QUERY SELECT 'b'::text, to_jsonb(x) FROM (${q.sql.replace(/\?/g, () => names[i++]!)}) x;`;
  };
  return `IF p_country IS NULL THEN
      ${statement(false)}
    ELSE
      ${statement(true)}
    END IF;`;
}
