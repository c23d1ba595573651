/**
 * SQLite tuned for the service's reads: prepared statements kept for reuse, and planner statistics
 * kept up to date.
 *
 * Kysely's SQLite driver calls prepare() for every query it runs, and better-sqlite3 compiles the
 * SQL each time: for the small indexed reads a request makes, that compile costs as much as the
 * read. The service's queries are few distinct texts (values are always bound parameters), so a
 * bounded cache keyed by the SQL text turns almost every prepare into a map lookup.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept; IN lists of many lengths make some texts rare, and those fall out first. */
export const STATEMENT_CACHE_SIZE = 1000;

/** Wraps a better-sqlite3 database for Kysely's SqliteDialect: `new SqliteDialect({ database: withStatementCache(sqlite) })`. */
export function withStatementCache(database: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = cache.get(sql);
      // a statement still being iterated (a stream) cannot run again until it finishes
      if (cached && !cached.busy) {
        // most recently used last, so the first key is the one to evict
        cache.delete(sql);
        cache.set(sql, cached);
        return cached as unknown as SqliteStatement;
      }
      const statement = database.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value!);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

/** Rows sampled per index when statistics are gathered: enough for the planner, quick on large tables. */
const ANALYSIS_LIMIT = 400;
const OPTIMIZE_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * Planner statistics, as SQLite recommends for long-lived connections: PRAGMA optimize when the
 * connection opens (it analyses only tables whose statistics are missing or stale, a few hundred
 * milliseconds the first time on a million-row database, about a millisecond afterwards) and every
 * few hours. Without statistics SQLite guesses, and on a large organisation some guesses walk every
 * row of it (documents by id through the organisation's index, ledger pages through the date index).
 */
export function keepPlannerStatistics(database: BetterSqlite3.Database): void {
  const optimize = (mask?: string) => {
    try {
      database.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
      database.pragma(mask ? `optimize = ${mask}` : 'optimize');
    } catch {
      // statistics are an optimisation: a read-only or busy database keeps its plans without them
    }
  };
  // 0x10002: also analyse tables that have never been analysed (first open of a filled database)
  optimize('0x10002');
  const timer = setInterval(() => (database.open ? optimize() : clearInterval(timer)), OPTIMIZE_EVERY_MS);
  timer.unref();
}
