/**
 * Kysely's SQLite dialect with the read pool (sqlite-read-pool.ts) in front of its one connection.
 * Each query gets a connection of its own that holds nothing until it must: a statement that only
 * reads (better-sqlite3's own verdict: `readonly` and returning rows) goes to the pool; the first
 * statement that writes, or a transaction's `begin`, takes the main connection (Kysely's mutex, as
 * before) and keeps it until the connection is released, so a transaction's reads see its writes.
 * A transaction begun read only (a snapshot: banking.transactions when a write came between its
 * reads, operations/consistent-read.ts) is pinned to a connection of
 * its own on a reader instead, begin to commit, so its reads are off the event loop too; with every
 * such connection taken it waits for one (sqlite-read-pool.ts, TRANSACTIONS_PER_READER).
 */
import { type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase, type TransactionSettings } from 'kysely';
import { traitsOf } from './prepared.js';
import type { Pin, SqliteReadPool } from './sqlite-read-pool.js';
import { SqliteWriterDialect } from './sqlite-writer.js';

class PooledConnection implements DatabaseConnection {
  main: DatabaseConnection | undefined;
  /** where a read-only transaction of this connection runs, when pinned to a reader */
  reader: Pin | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly database: SqliteDatabase,
    private readonly pool: SqliteReadPool,
  ) {}

  async holdMain(): Promise<DatabaseConnection> {
    this.main ??= await this.driver.acquireConnection();
    return this.main;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const exactInJson = traitsOf(query)?.exactInJson ?? false;
    if (this.reader) return { rows: (await this.pool.read(query.sql, query.parameters, this.reader, exactInJson)) as R[] };
    if (!this.main) {
      // the main connection's statement cache answers this from the text (sqlite-tuning.ts)
      const statement = this.database.prepare(query.sql) as unknown as { reader: boolean; readonly: boolean };
      if (statement.reader && statement.readonly) return { rows: (await this.pool.read(query.sql, query.parameters, undefined, exactInJson)) as R[] };
    }
    return (await this.holdMain()).executeQuery<R>(query);
  }

  /** Ends the pinned transaction on its reader (commit or rollback) and frees the reader. */
  async endPinned(statement: 'commit' | 'rollback'): Promise<void> {
    const reader = this.reader!;
    try {
      await this.pool.read(statement, [], reader);
    } finally {
      this.reader = undefined;
      this.pool.unpin(reader);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    yield* (await this.holdMain()).streamQuery<R>(query, chunkSize);
  }
}

class PooledDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly database: SqliteDatabase,
    private readonly pool: SqliteReadPool,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PooledConnection(this.inner, this.database, this.pool);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const pooled = connection as PooledConnection;
    if (settings.accessMode === 'read only' && !pooled.main) {
      const reader = await this.pool.pin();
      if (reader) {
        pooled.reader = reader;
        try {
          await this.pool.read('begin', [], reader);
        } catch (error) {
          pooled.reader = undefined;
          this.pool.unpin(reader);
          throw error;
        }
        return;
      }
    }
    await this.inner.beginTransaction(await pooled.holdMain(), settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PooledConnection;
    if (pooled.reader) return pooled.endPinned('commit');
    await this.inner.commitTransaction(await pooled.holdMain());
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PooledConnection;
    if (pooled.reader) return pooled.endPinned('rollback');
    await this.inner.rollbackTransaction(await pooled.holdMain());
  }

  // a savepoint's statement goes where the connection's transaction is (PooledConnection.executeQuery)
  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.inner.savepoint!(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    await this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    await this.inner.releaseSavepoint!(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PooledConnection;
    // a transaction that neither committed nor rolled back (Kysely always ends one; this is a guard)
    if (pooled.reader) await pooled.endPinned('rollback').catch(() => {});
    const main = pooled.main;
    if (!main) return;
    pooled.main = undefined;
    await this.inner.releaseConnection(main);
  }

  async destroy(): Promise<void> {
    await this.pool.close();
    await this.inner.destroy();
  }
}

/** The writer's dialect (sqlite-writer.ts) whose read-only statements outside transactions run on the pool's readers. */
export class PooledSqliteDialect extends SqliteWriterDialect {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly pool: SqliteReadPool,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new PooledDriver(super.createDriver(), this.database, this.pool);
  }
}
