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
import type { SqliteDatabase as SqliteDatabaseForKysely } from 'kysely';
import { readRows, type Rows } from './sqlite-json-rows.js';
import { withStatementCache } from './sqlite-tuning.js';

export interface ReadRequest {
  id: number;
  /** which of the reader's connections: 0 for single statements, 1 and up for pinned transactions */
  connection: number;
  sql: string;
  parameters: readonly unknown[];
  /** its author states its rows are integers, texts and nulls (prepared.ts StatementTraits): they may come as JSON */
  exactInJson?: boolean;
}

export type ReadAnswer = ({ id: number } & Rows) | { id: number; error: { message: string; code?: string } };

const { path } = workerData as { path: string };

/**
 * Each connection reads the file through a memory map (SQLite's largest, 2 GB less 64 KB; the rest
 * of a larger file is read as before): a page is read where the operating system's cache holds it,
 * not copied into each connection's own cache first. A reader held up to 65 connections then (one
 * per snapshot it serves; 5 since, sqlite-read-pool.ts), and each one's 16 MB cache saw only its
 * share of the requests, so under load most pages a call reads were copied in again. Measured
 * (issue 43, seventh session; no difference at 64 connections in the eighth): the varied
 * bank page at 50 connections, 1M lines, three alternating pairs, server CPU per request 8.3 / 8.1 /
 * 7.2 ms without, 7.4 / 5.7 / 5.1 with; the other cases within the noise. Readers only: they never
 * write, so the map is never written through.
 */
const MMAP_BYTES = 2_147_418_112;

/** a reader's connections by number, each behind the service's statement cache (sqlite-tuning.ts) */
const connections = new Map<number, SqliteDatabaseForKysely>();

function connection(n: number): SqliteDatabaseForKysely {
  let found = connections.get(n);
  if (!found) {
    const database = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
    database.pragma('busy_timeout = 5000');
    database.pragma(`mmap_size = ${MMAP_BYTES}`);
    found = withStatementCache(database);
    connections.set(n, found);
  }
  return found;
}

parentPort!.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    const db = connection(request.connection);
    const found = db.prepare(request.sql);
    // begin, commit and rollback of a pinned transaction return no rows
    if (found.reader) answer = { id: request.id, ...readRows(db, found, request.sql, request.parameters, request.exactInJson) };
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
