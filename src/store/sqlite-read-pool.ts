/**
 * Reads off the event loop for SQLite (issue 17). better-sqlite3 runs a statement on the calling
 * thread, so on one connection every read of every request waits for the one before, and while a
 * report's statements run no other request is even parsed. The pool is a few worker threads
 * (sqlite-read-worker.ts), each with its own read-only connections to the same file: a statement
 * that only reads, outside a transaction, goes to the least busy worker, and so does a read-only
 * transaction (a snapshot), on a connection of its own there (sqlite-read-driver.ts); writes and
 * other transactions stay on the main connection, as before.
 *
 * Used for a database file only (an in-memory database is private to its connection).
 */
import { Worker } from 'node:worker_threads';
import type { ReadAnswer, ReadRequest } from './sqlite-read-worker.js';
import { rowsFromJson } from './sqlite-json-rows.js';
import { inTurn } from './turn-budget.js';

/**
 * The worker's module: JavaScript once built; under tsx (tests, the benchmark) the TypeScript
 * source, loaded by a two-line module that registers tsx in the worker first (a worker thread does
 * not inherit the main thread's module hooks).
 */
const WORKER: URL = import.meta.url.endsWith('.ts')
  ? new URL(
      `data:text/javascript,${encodeURIComponent(
        `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))}; register(); await ` +
          `import(${JSON.stringify(new URL('./sqlite-read-worker.ts', import.meta.url).href)});`,
      )}`,
    )
  : new URL('./sqlite-read-worker.js', import.meta.url);

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
  /** its transaction connections (1 and up) not holding a transaction */
  free: number[];
}

/** A read-only transaction's place: a reader and one of its transaction connections. */
export interface Pin {
  reader: Reader;
  connection: number;
}

/**
 * Read-only transactions (snapshots) one reader holds at once; more wait for one of them to end.
 * Each holds a connection of its own, and a connection's statements, cursors and cache are warm
 * only for the calls it serves: with 64 a reader, 50 bank pages at once ran on 50 connections in
 * turn, and SQLite's time for a page grew with them (reader's CPU a call: 2.5 ms for one client,
 * 3.7 for 4, 6.2 for 16, 9.3 for 50). Measured (issue 43, eighth session: varied bank pages, 50
 * connections, 1M lines, server CPU a request, alternating runs): 64: 10.1 / 12.9 / 12.4 ms, 142 /
 * 116 / 120 requests/s; 8: 8.1 / 8.7 ms; 4: 7.0 / 7.2 / 7.1 ms, 180 / 173 / 177 requests/s; 2: 7.1 /
 * 7.2 ms, 164 / 166 requests/s. Four keep the reader busy while the main thread shapes answers.
 */
export const TRANSACTIONS_PER_READER = 4;

/**
 * How long a snapshot waits for a connection before it takes the main connection, as it did when
 * all 64 were taken. No snapshot asks for another while it holds one, so a wait always ends as
 * calls finish; this only guards that, should it ever change, calls go slower rather than wait on
 * each other for ever.
 */
const PIN_WAIT_MS = 5_000;

/** Structured clone hands a Buffer back as a plain Uint8Array; the rest of the service expects Buffers, as better-sqlite3 gives them. */
function asBuffers(rows: unknown[]): unknown[] {
  for (const row of rows as Record<string, unknown>[]) {
    for (const key in row) {
      const value = row[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

export class SqliteReadPool {
  private readonly readers: Reader[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly path: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.readers.push(this.start());
  }

  /** An answer to its request: handed back within the event loop's turn budget (turn-budget.ts). */
  private deliver(reader: Reader, answer: ReadAnswer): void {
    const waiting = reader.pending.get(answer.id);
    if (!waiting) return;
    reader.pending.delete(answer.id);
    if (reader.pending.size === 0) reader.worker.unref();
    if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error.message), answer.error.code ? { code: answer.error.code } : {}));
    else if ('json' in answer) waiting.resolve(rowsFromJson(answer.json, answer.columns));
    else waiting.resolve(asBuffers(answer.rows));
  }

  private start(): Reader {
    const worker = new Worker(WORKER, { workerData: { path: this.path } });
    // an idle pool does not keep the process alive (close() ends it); a reader with work does
    worker.unref();
    const reader: Reader = { worker, pending: new Map(), free: Array.from({ length: TRANSACTIONS_PER_READER }, (_, i) => i + 1) };
    // a reader's answers arrive together (a message port is drained in one go): each goes back in a turn's budget
    worker.on('message', (answer: ReadAnswer) => inTurn(() => this.deliver(reader, answer)));
    const lost = (why: Error) => {
      for (const waiting of reader.pending.values()) waiting.reject(why);
      reader.pending.clear();
      const at = this.readers.indexOf(reader);
      // a reader that died is replaced, so the pool keeps its size
      if (at >= 0 && !this.closed) this.readers[at] = this.start();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`SQLite reader stopped (exit code ${code})`)));
    return reader;
  }

  /** The reader with the fewest statements waiting (of those with a transaction connection free, when `free`). */
  private idlest(free = false): Reader | undefined {
    let best: Reader | undefined;
    for (const r of this.readers) if ((!free || r.free.length > 0) && (!best || r.pending.size < best.pending.size)) best = r;
    return best;
  }

  /**
   * The rows of a read-only statement: in a pinned transaction, or alone on the least busy reader;
   * `exactInJson`: its author states they are integers, texts and nulls (sqlite-json-rows.ts).
   */
  read(sql: string, parameters: readonly unknown[], pin?: Pin, exactInJson = false): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('the SQLite read pool is closed'));
    const reader = pin?.reader ?? this.idlest()!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (reader.pending.size === 0) reader.worker.ref();
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage({ id, connection: pin?.connection ?? 0, sql, parameters, ...(exactInJson ? { exactInJson } : {}) } satisfies ReadRequest);
    });
  }

  /** Snapshots waiting for a connection, first come first served. */
  private readonly waiting: ((pin: Pin | undefined) => void)[] = [];

  /**
   * A connection of its own for one read-only transaction, until unpin(): at once when one is free,
   * else when one is handed back (first come first served); undefined when the pool is closed or
   * none came within PIN_WAIT_MS (the transaction then runs on the main connection).
   */
  async pin(): Promise<Pin | undefined> {
    if (this.closed) return undefined;
    const reader = this.idlest(true);
    if (reader) return { reader, connection: reader.free.pop()! };
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        resolve(undefined);
      }, PIN_WAIT_MS);
      const take = (pin: Pin | undefined) => {
        clearTimeout(timer);
        resolve(pin);
      };
      this.waiting.push(take);
    });
  }

  /** Hands the connection to the first snapshot waiting, or back to its reader. */
  unpin(pin: Pin): void {
    const next = this.waiting.shift();
    if (next) next(pin);
    else pin.reader.free.push(pin.connection);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const take of this.waiting.splice(0)) take(undefined);
    await Promise.all(this.readers.map((r) => r.worker.terminate()));
  }
}
