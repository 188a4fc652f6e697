import {
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type Driver,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type TableMetadata,
} from 'kysely';
import { UnavailableAwareDriver } from './unavailable-aware-driver.js';

/** Kysely's own bookkeeping tables, left out unless asked for (as Kysely's introspector does). */
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

interface ColumnRow {
  schema: string;
  table: string;
  is_view: boolean;
  column: string;
  data_type: string;
  is_nullable: boolean;
  has_default: boolean;
}

/**
 * Tables of the schemas on the connection's search path only. Kysely's PostgreSQL introspector (which its
 * migrator calls to see whether its tables exist) reads every schema of the database and calls
 * pg_get_serial_sequence on each table's name: when another process drops a schema meanwhile (a test
 * cleaning up, a tenant removed), that call fails with "schema … does not exist" and the migration with it.
 * It stays a PostgresIntrospector (schemas listed as Kysely does), so whatever recognises the dialect by it still does.
 */
export class SearchPathIntrospector extends PostgresIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    super(db);
    this.#db = db;
  }

  override async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind = 'v' as is_view, a.attname as column,
             format_type(a.atttypid, null) as data_type, not a.attnotnull as is_nullable, a.atthasdef as has_default
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on c.oid = a.attrelid
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = any(current_schemas(false)) and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, { name: string; schema: string; isView: boolean; columns: TableMetadata['columns'] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && KYSELY_TABLES.has(row.table)) continue;
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (table === undefined) {
        table = { name: row.table, schema: row.schema, isView: row.is_view, columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.data_type,
        isAutoIncrementing: false,
        isNullable: row.is_nullable,
        hasDefaultValue: row.has_default,
      });
    }
    return [...tables.values()];
  }

  override async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect with the introspector above, and a driver that reports an unreachable server as DependencyUnavailable. */
export class SearchPathPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new UnavailableAwareDriver(super.createDriver());
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
