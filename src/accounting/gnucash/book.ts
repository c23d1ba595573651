/**
 * Opening a GnuCash SQLite book for one read. The book is opened read-only (SQLite refuses any
 * write on such a connection), never creates the file, and never touches GnuCash's own lock (a row
 * in its gnclock table), so it can be read while GnuCash has it open. Each read runs in one read
 * transaction, so all its queries see the same state of the book even if GnuCash saves meanwhile,
 * and the connection is closed afterwards: nothing of the book is kept between calls.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { minorDigits } from '../../domain/money.js';
import { AccountingSystemError } from '../types.js';

export type Book = SqliteDatabase.Database;

/** What every query of a read needs to know about the book. */
export interface BookContext {
  /** guid of the root of the chart (the book's other root holds scheduled-transaction templates) */
  rootGuid: string;
  /** guid of the commodity row of the organisation's home currency */
  homeGuid: string;
  homeCurrency: string;
  /** minor units per major unit of the home currency, e.g. 100n */
  scale: bigint;
  /** the book's name in messages */
  name: string;
}

/** Tables of GnuCash's SQLite schema the connector reads. */
const REQUIRED_TABLES = [
  'books',
  'accounts',
  'commodities',
  'transactions',
  'splits',
  'slots',
  'prices',
  'invoices',
  'entries',
  'jobs',
  'vendors',
  'customers',
  'employees',
  'lots',
];
/** How long a read waits for GnuCash to finish writing before giving up. */
const BUSY_TIMEOUT_MS = 5000;

function problem(message: string, code?: 'accounting_timeout'): AccountingSystemError {
  return new AccountingSystemError(message, code);
}

/** Checks the file before SQLite sees it, so each kind of bad path gets its own clear message. */
function checkFile(path: string, name: string): void {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw problem(`The GnuCash book ${name} does not exist.`);
    throw problem(`The GnuCash book ${name} cannot be read (${code ?? String(error)}).`);
  }
  if (stat.isDirectory()) throw problem(`The GnuCash book ${name} is a directory, not a book file.`);
  const head = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, head, 0, 16, 0);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw problem(`The GnuCash book ${name} cannot be read (${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error))}).`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.toString('latin1') === 'SQLite format 3\0') return;
  // GnuCash's default format is compressed XML; it is a GnuCash book, just not one SQLite can read
  if ((head[0] === 0x1f && head[1] === 0x8b) || head.toString('latin1').startsWith('<?xml'))
    throw problem(`${name} is a GnuCash XML book; Ledgerline reads GnuCash books saved as SQLite (in GnuCash: File > Save As, Data Format "sqlite3").`);
  throw problem(`${name} is not a GnuCash book (it is not an SQLite database).`);
}

function translate(error: unknown, name: string): AccountingSystemError {
  if (error instanceof AccountingSystemError) return error;
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return problem(`The GnuCash book ${name} stayed locked by a writer for more than ${BUSY_TIMEOUT_MS / 1000} s; try again.`, 'accounting_timeout');
  if (code === 'SQLITE_NOTADB') return problem(`${name} is not a GnuCash book (it is not an SQLite database).`);
  if (code.startsWith('SQLITE_CORRUPT')) return problem(`The GnuCash book ${name} cannot be read: it is damaged (${message}).`);
  if (code.startsWith('SQLITE_')) return problem(`The GnuCash book ${name} cannot be read (${message}).`);
  return problem(`The GnuCash book ${name} cannot be read: ${message}`);
}

function checkTables(db: Book, name: string): void {
  const present = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
  const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
  if (missing.length === 0) return;
  const what =
    missing.length === REQUIRED_TABLES.length ? 'none of the tables of a GnuCash book' : `no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}`;
  throw problem(`${name} is not a GnuCash book (it has ${what}).`);
}

/**
 * The book's currency: its root account's commodity (GnuCash's new-book assistant sets it), or,
 * for books whose root has none, the one currency all top-level accounts share.
 */
export function bookCurrency(db: Book, name: string): { rootGuid: string; guid: string; mnemonic: string } {
  const book = db.prepare(`SELECT root_account_guid AS root FROM books LIMIT 1`).get() as { root: string | null } | undefined;
  if (!book?.root) throw problem(`${name} is not a GnuCash book (it has no book record).`);
  const root = db
    .prepare(
      `SELECT c.guid, c.mnemonic FROM accounts a JOIN commodities c ON c.guid = a.commodity_guid
       WHERE a.guid = ? AND c.namespace = 'CURRENCY'`,
    )
    .get(book.root) as { guid: string; mnemonic: string } | undefined;
  if (root) return { rootGuid: book.root, ...root };
  const top = db
    .prepare(
      `SELECT DISTINCT c.guid, c.mnemonic FROM accounts a JOIN commodities c ON c.guid = a.commodity_guid
       WHERE a.parent_guid = ? AND c.namespace = 'CURRENCY'`,
    )
    .all(book.root) as { guid: string; mnemonic: string }[];
  if (top.length === 1) return { rootGuid: book.root, ...top[0]! };
  throw problem(
    top.length === 0
      ? `The GnuCash book ${name} has no currency: its root account and top-level accounts have none.`
      : `The GnuCash book ${name} has no single currency: its top-level accounts use ${top.map((t) => t.mnemonic).join(', ')}; set the root account's ` +
          `currency.`,
  );
}

/**
 * Opens the book, checks it is a GnuCash book in the home currency, runs `read` in one read
 * transaction and closes the book. Every failure is an AccountingSystemError with a clear message.
 *
 * @param name how the book is named in messages (callers of the API see these)
 */
export function readBook<T>(path: string, homeCurrency: string, name: string, read: (db: Book, ctx: BookContext) => T): T {
  checkFile(path, name);
  let db: Book;
  try {
    db = new SqliteDatabase(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw translate(error, name);
  }
  try {
    return db.transaction(() => {
      checkTables(db, name);
      const currency = bookCurrency(db, name);
      if (currency.mnemonic !== homeCurrency)
        throw problem(`The GnuCash book ${name} keeps its accounts in ${currency.mnemonic}, but the organisation's home currency is ${homeCurrency}.`);
      const ctx: BookContext = { rootGuid: currency.rootGuid, homeGuid: currency.guid, homeCurrency, scale: 10n ** BigInt(minorDigits(homeCurrency)), name };
      return read(db, ctx);
    })();
  } catch (error) {
    throw translate(error, name);
  } finally {
    db.close();
  }
}

/** The book's file name, for messages API callers see (the server's directories are not theirs to know). */
export function bookName(path: string): string {
  return `"${basename(path)}"`;
}
