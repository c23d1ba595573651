/**
 * Opens the service store: SQLite (better-sqlite3) by default, PostgreSQL when a postgres URL is
 * given. Both hand back the same Kysely<Database>; the differences live in dialect.ts.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import pg from 'pg';
import { CAPABILITIES, type DialectCapabilities } from './dialect.js';
import type { Database } from './schema.js';
import { namingPools, NamingPostgresDialect } from './pg-driver.js';
import { PooledSqliteDialect } from './sqlite-read-driver.js';
import { SqliteReadPool } from './sqlite-read-pool.js';
import { keepPlannerStatistics, withStatementCache } from './sqlite-tuning.js';
import { SqliteWriterDialect } from './sqlite-writer.js';

export interface StoreConfig {
  /** postgres://… selects PostgreSQL; otherwise sqlitePath is used */
  databaseUrl?: string | undefined;
  /** a file path, or ':memory:' */
  sqlitePath?: string;
  /** PostgreSQL: the schema to use (tests give each run its own) */
  pgSchema?: string;
  /** PostgreSQL: the connections for transactions and unnamed statements; the named statements' pool has half as many again (pg-driver.ts) */
  poolSize?: number;
  /** SQLite file: worker threads reading it besides the main connection (sqlite-read-pool.ts); 0 or absent: none */
  sqliteReadWorkers?: number;
}

export interface Store {
  db: Kysely<Database>;
  dialect: DialectCapabilities;
  /** PostgreSQL: the schema in use, when not the default */
  schema?: string;
  /** PostgreSQL: the connection pool's state, for metrics */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

// BIGINT (int8) and COUNT(*) come back from pg as strings, and NUMERIC (SUM over BIGINT) too. Every
// amount taken in is far inside the exact range of a double (domain/money.ts MAX_AMOUNT_MINOR), so
// these are exact; a total past 2^53 (stored data from before that bound) is read as the double
// nearest to it, as SQLite's reads give it, rather than failing the read it is part of.
pg.types.setTypeParser(20, (value: string) => Number(value));
pg.types.setTypeParser(1700, (value: string) => Number(value));

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

export function openStore(config: StoreConfig): Store {
  if (isPostgresUrl(config.databaseUrl)) {
    const pools = namingPools({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? 10,
      // fail fast while the database is away, so callers get a 503 rather than a hung request
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30_000,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    // the hot statements go as named prepared statements on a pool of their own, the replies within the turn budget (pg-driver.ts)
    const db = new Kysely<Database>({ dialect: new NamingPostgresDialect(pools) });
    // a client whose server went away must not crash the process: its query fails (and is answered
    // as 503), and the pool replaces the client; this holds for idle and checked-out clients alike
    for (const pool of [pools.named, pools.unnamed]) {
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
    }
    const count = (key: 'totalCount' | 'idleCount' | 'waitingCount') => pools.named[key] + pools.unnamed[key];
    return {
      db,
      dialect: CAPABILITIES.postgres,
      ...(config.pgSchema ? { schema: config.pgSchema } : {}),
      poolStats: () => ({ total: count('totalCount'), idle: count('idleCount'), waiting: count('waitingCount') }),
      close: () => db.destroy(),
    };
  }
  const path = config.sqlitePath ?? './data/ledgerline.sqlite';
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // from here on a statement waits for another process's write lock without blocking the event
  // loop (sqlite-writer.ts); SQLite's own handler would sleep on this thread
  sqlite.pragma('busy_timeout = 0');
  keepPlannerStatistics(sqlite);
  const database = withStatementCache(sqlite);
  const readers = path === ':memory:' ? 0 : (config.sqliteReadWorkers ?? 0);
  const dialect = readers > 0 ? new PooledSqliteDialect(database, new SqliteReadPool(path, readers)) : new SqliteWriterDialect({ database });
  const db = new Kysely<Database>({ dialect });
  return { db, dialect: CAPABILITIES.sqlite, close: () => db.destroy() };
}
