/**
 * The main SQLite connection, the one that writes, kept from stopping the event loop (issue 36
 * item 7). better-sqlite3 runs a statement on the calling thread, so two things stalled every
 * request of the process while a large journal loaded:
 *
 * - Waiting for the write lock that another process holds (`ledgerline import ledger` writes its
 *   file in one transaction): SQLite's busy handler sleeps on the thread, up to busy_timeout, with
 *   the event loop stopped. Here the connection's busy_timeout is 0 and a statement refused with
 *   SQLITE_BUSY is tried again after a pause of the event loop's own (setTimeout), for up to
 *   WRITE_LOCK_WAIT_MS, the 5 s the busy_timeout was; then it fails as it did (a request answers
 *   503 database_unavailable). Only plain SQLITE_BUSY is tried again: it is what SQLite would have
 *   waited on (a statement refused the lock did nothing, and COMMIT may be retried); the variants
 *   (BUSY_SNAPSHOT: a read transaction that another writer overtook) cannot succeed by waiting.
 * - A long run of statements in this process (an import's thousands of inserts): each settles at
 *   once, so the whole run was one turn of the event loop. Once statements have taken TURN_MS of
 *   one turn, the next waits for the following turn, so timers, new connections and the readers'
 *   answers (sqlite-read-pool.ts) go in between.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

/** How long one statement waits, in all, for another connection's write lock before it fails. */
export const WRITE_LOCK_WAIT_MS = 5000;

const lockWait = new AsyncLocalStorage<number>();

/** Runs `fn` with its statements waiting at most `ms` for another connection's write lock (0: tried once). */
export function withLockWait<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  return lockWait.run(ms, fn);
}
/** Milliseconds of statements in one turn of the event loop before the next waits for a later turn. */
const TURN_MS = 10;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

let turnBegan: number | null = null;

/** True when this turn of the event loop has spent its budget on statements. */
function turnSpent(): boolean {
  const now = performance.now();
  if (turnBegan === null) {
    turnBegan = now;
    // queued now, it runs before any immediate queued later: the next turn starts a new budget
    setImmediate(() => (turnBegan = null));
    return false;
  }
  return now - turnBegan > TURN_MS;
}

/** SQLite refused the lock: another connection (another process) is writing. */
export function isLockedByAnotherWriter(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

class WriterConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (turnSpent()) await nextTurn();
    const deadline = performance.now() + (lockWait.getStore() ?? WRITE_LOCK_WAIT_MS);
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        return await this.inner.executeQuery<R>(query);
      } catch (error) {
        if (!isLockedByAnotherWriter(error) || performance.now() + wait > deadline) throw error;
        await pause(wait);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WriterDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WriterConnection(await this.inner.acquireConnection());
  }

  // Kysely's SQLite driver sends begin, commit, rollback and savepoints through the connection given,
  // so they wait for the lock the same way
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    return this.inner.savepoint!(connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as WriterConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * Kysely's SQLite dialect whose connection waits for another writer's lock without blocking the
 * event loop and lets the loop turn during long runs of statements. Open the database with
 * `busy_timeout = 0` (db.ts), or SQLite's own handler blocks before this one is asked.
 */
export class SqliteWriterDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new WriterDriver(super.createDriver());
  }
}
