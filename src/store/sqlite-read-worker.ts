/**
 * One reader of the SQLite read pool (sqlite-read-pool.ts), in a worker thread: read-only
 * connections to the database file, each with its own statement cache, one statement at a time
 * from the messages it is sent. Connection 0 serves single statements; the others each hold one
 * read-only transaction pinned to them (opened when first asked for), so a snapshot sees what was
 * committed when its first read started while other statements go on around it. WAL lets them all
 * read while the main connection writes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { STATEMENT_CACHE_SIZE } from './sqlite-tuning.js';

export interface ReadRequest {
  id: number;
  /** which of the reader's connections: 0 for single statements, 1 and up for pinned transactions */
  connection: number;
  sql: string;
  parameters: readonly unknown[];
}

export type ReadAnswer = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

const { path } = workerData as { path: string };

interface Connection {
  database: BetterSqlite3.Database;
  statements: Map<string, BetterSqlite3.Statement>;
}

const connections = new Map<number, Connection>();

function connection(n: number): Connection {
  let found = connections.get(n);
  if (!found) {
    const database = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
    database.pragma('busy_timeout = 5000');
    found = { database, statements: new Map() };
    connections.set(n, found);
  }
  return found;
}

function statement(c: Connection, sql: string): BetterSqlite3.Statement {
  let found = c.statements.get(sql);
  if (!found) {
    found = c.database.prepare(sql);
    c.statements.set(sql, found);
    if (c.statements.size > STATEMENT_CACHE_SIZE) c.statements.delete(c.statements.keys().next().value!);
  }
  return found;
}

parentPort!.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    const found = statement(connection(request.connection), request.sql);
    // begin, commit and rollback of a pinned transaction return no rows
    if (found.reader) answer = { id: request.id, rows: found.all(request.parameters as unknown[]) };
    else {
      found.run(request.parameters as unknown[]);
      answer = { id: request.id, rows: [] };
    }
  } catch (error) {
    const e = error as { message?: string; code?: string };
    answer = { id: request.id, error: { message: String(e.message ?? error), ...(typeof e.code === 'string' ? { code: e.code } : {}) } };
  }
  parentPort!.postMessage(answer);
});
