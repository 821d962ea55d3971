import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  not_null: boolean;
  has_default: boolean;
  type: string;
  type_schema: string;
  auto_incrementing: string | null;
}

/**
 * Kysely's PostgreSQL introspector (which its migrator uses) reads the tables of EVERY schema
 * of the database, so a schema another deployment drops mid-read fails our start-up
 * (invalid_schema_name, or `relation "x.t" does not exist` from pg_get_serial_sequence).
 * This one reads only the session's own schema (current_schema(), i.e. the search_path).
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{ name: string }>`SELECT current_schema() AS name`.execute(this.db);
    return rows.rows.filter((r) => r.name !== null).map((r) => ({ name: r.name }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow & { schema: string }>`
      SELECT c.relname AS table, c.relkind AS table_type, ns.nspname AS schema,
             a.attname AS column, a.attnotnull AS not_null, a.atthasdef AS has_default,
             typ.typname AS type, dtns.nspname AS type_schema,
             pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) AS auto_incrementing
      FROM pg_catalog.pg_attribute a
      JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
      JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
      JOIN pg_catalog.pg_type typ ON typ.oid = a.atttypid
      JOIN pg_catalog.pg_namespace dtns ON dtns.oid = typ.typnamespace
      WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')
        AND a.attnum >= 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing !== null,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, with introspection (and so migrations) kept to our own schema. */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
