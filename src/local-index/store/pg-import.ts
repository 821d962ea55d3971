import type pg from 'pg';
import { streetStatsSql } from './queries.js';
import type { AddressInput, ExistingAddress, ImportSession, StreetInput } from './store.js';

const ADDRESS_ARRAYS = 'unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::float8[], $9::float8[])';

function addressArrays(rows: AddressInput[]): unknown[] {
  return [
    rows.map((r) => r.sourceId),
    rows.map((r) => r.streetId),
    rows.map((r) => r.hn),
    rows.map((r) => r.hnKey),
    rows.map((r) => r.hnBase),
    rows.map((r) => r.postcode),
    rows.map((r) => r.pcKey),
    rows.map((r) => r.lat),
    rows.map((r) => r.lng),
  ];
}

/**
 * One import as one PostgreSQL transaction on a dedicated connection. Batches travel as
 * arrays through unnest(): one round trip per few thousand rows.
 */
export async function beginPgImport(client: pg.PoolClient, release: () => void): Promise<ImportSession> {
  await client.query('BEGIN');
  const seq = await client.query<{ value: string }>("UPDATE local_meta SET value = value + 1 WHERE key = 'import_seq' RETURNING value");
  const importId = Number(seq.rows[0]!.value);
  let open = true;
  const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    try {
      await client.query(sql);
    } finally {
      release();
    }
  };

  return {
    importId,
    async streetIds(streets: StreetInput[]) {
      const res = await client.query<{ id: string; skey: string }>(
        `INSERT INTO local_streets (skey, country, street, city, state, street_words, city_words)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         ON CONFLICT (skey) DO UPDATE SET state = coalesce(local_streets.state, excluded.state) RETURNING id, skey`,
        [
          streets.map((s) => s.key),
          streets.map((s) => s.country),
          streets.map((s) => s.street),
          streets.map((s) => s.city),
          streets.map((s) => s.state),
          streets.map((s) => s.streetWords),
          streets.map((s) => s.cityWords),
        ],
      );
      const ids = new Map(res.rows.map((r) => [r.skey, Number(r.id)]));
      return streets.map((s) => ids.get(s.key)!);
    },
    async existing(rows: AddressInput[]) {
      // One round trip for the batch; two index joins: by source id (OSM), else by street + number.
      const res = await client.query<{ i: string; id: string; import_id: string; street_id: string; hn: string; postcode: string | null; lat: number; lng: number }>(
        `WITH q AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS q (source_id, street_id, hn_key, i))
         SELECT DISTINCT ON (q.i) q.i, a.id, a.import_id, a.street_id, a.hn, a.postcode, a.lat, a.lng
         FROM q JOIN local_addresses a ON a.source_id = q.source_id WHERE q.source_id IS NOT NULL
         UNION ALL
         SELECT * FROM (
           SELECT DISTINCT ON (q.i) q.i, a.id, a.import_id, a.street_id, a.hn, a.postcode, a.lat, a.lng
           FROM q JOIN local_addresses a ON a.street_id = q.street_id AND a.hn_key = q.hn_key AND a.source_id IS NULL
           WHERE q.source_id IS NULL ORDER BY q.i, a.id
         ) by_address`,
        [rows.map((r) => r.sourceId), rows.map((r) => r.streetId), rows.map((r) => r.hnKey)],
      );
      const out: (ExistingAddress | undefined)[] = rows.map(() => undefined);
      for (const r of res.rows) {
        out[Number(r.i) - 1] = {
          id: Number(r.id),
          importId: Number(r.import_id),
          streetId: Number(r.street_id),
          hn: r.hn,
          postcode: r.postcode,
          lat: r.lat,
          lng: r.lng,
        };
      }
      return out;
    },
    async insert(rows: AddressInput[]) {
      if (rows.length === 0) return;
      await client.query(
        `INSERT INTO local_addresses (source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, import_id)
         SELECT *, $10::bigint FROM ${ADDRESS_ARRAYS}`,
        [...addressArrays(rows), importId],
      );
    },
    async update(rows: { id: number; row: AddressInput }[]) {
      if (rows.length === 0) return;
      await client.query(
        `UPDATE local_addresses a SET street_id = u.street_id, hn = u.hn, hn_key = u.hn_key, hn_base = u.hn_base,
           postcode = u.postcode, pc_key = u.pc_key, lat = u.lat, lng = u.lng, import_id = $10::bigint
         FROM ${ADDRESS_ARRAYS} WITH ORDINALITY AS u (source_id, street_id, hn, hn_key, hn_base, postcode, pc_key, lat, lng, i)
         JOIN unnest($11::bigint[]) WITH ORDINALITY AS ids (id, i) ON ids.i = u.i
         WHERE a.id = ids.id`,
        [...addressArrays(rows.map((r) => r.row)), importId, rows.map((r) => r.id)],
      );
    },
    async touch(ids: number[]) {
      if (ids.length === 0) return;
      await client.query('UPDATE local_addresses SET import_id = $1 WHERE id = ANY($2::bigint[])', [importId, ids]);
    },
    async finish(countries: string[], replace: boolean) {
      let removed = 0;
      if (countries.length > 0) {
        const inList = countries.map((_, i) => `$${i + 1}`).join(', ');
        if (replace) {
          const res = await client.query(
            `DELETE FROM local_addresses WHERE import_id <> $${countries.length + 1}
             AND street_id IN (SELECT id FROM local_streets WHERE country IN (${inList}))`,
            [...countries, importId],
          );
          removed = res.rowCount ?? 0;
        }
        await client.query(streetStatsSql('local_', inList), countries);
        await client.query(`DELETE FROM local_streets WHERE n = 0 AND country IN (${inList})`, countries);
        // The vocabulary for typo candidates: every token of every street and city.
        if (replace) await client.query('DELETE FROM local_words');
        await client.query(
          `INSERT INTO local_words (word)
           SELECT DISTINCT w FROM local_streets, unnest(string_to_array(street_words || ' ' || city_words, ' ')) AS w
           WHERE w <> '' ${replace ? '' : `AND country IN (${inList})`}
           ON CONFLICT DO NOTHING`,
          replace ? [] : countries,
        );
      }
      // Fresh statistics, or the planner guesses sequential scans over the new rows.
      await client.query('ANALYZE local_streets, local_words, local_addresses');
      await client.query("UPDATE local_meta SET value = value + 1 WHERE key = 'version'");
      await end('COMMIT');
      return removed;
    },
    async abort() {
      await end('ROLLBACK');
    },
  };
}
