import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * SQLite: the bank search's text indexed by trigrams (issue 43), as PostgreSQL's is (migration 013).
 * A search (`like '%…%'`, store/banking.ts) walked the period's lines newest first until the page
 * was full, so a rare word read every line of the period (5.1x slower from 100,000 to 10,000,000
 * ledger lines). Two FTS5 tables with the trigram tokenizer now hold the narration of every bank
 * line and the supplier of every document; a page whose term is rare reads the lines they name
 * (and the lines of the documents they name, by the index on bank_transactions.document_id made
 * here) instead, and tests each with the same `like` as before, so its rows are the same: the
 * tokenizer folds case for every letter (ASCII `like` folds A-Z only) and keeps every character
 * (`%`, `_`, `\` included), so a line `like` matches always contains the term's trigrams in order.
 *
 * The tables are contentless (the text is in bank_transactions and documents already) and keyed by
 * an integer of their own: bank_transactions and documents are keyed by a text id, and their
 * implicit rowid may be renumbered by VACUUM, so each has a key table (that integer, the text id
 * and the organisation) the triggers below find a row's entry by. The triggers keep both in the
 * writer's own transaction, whoever writes (imports, matches, the demo, a cascade from a deleted
 * account or organisation), as migration 006's keep data_version.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  await textSearch(db, { table: 'bank_transactions', column: 'description', name: 'bank_narration' });
  await textSearch(db, { table: 'documents', column: 'supplier', name: 'document_supplier' });
  // the lines of the documents whose supplier matches; PostgreSQL has had it since migration 013
  await sql`create index bank_transactions_document on bank_transactions (document_id) where document_id is not null`.execute(db);
}

/**
 * `${name}_search`, a contentless trigram FTS5 table over `table`.`column`, and `${name}_keys`
 * (n, the FTS rowid; id and organisation_id, the row's), filled from the rows there are and kept by triggers.
 */
async function textSearch(db: Kysely<any>, { table, column, name }: { table: string; column: string; name: string }): Promise<void> {
  const keys = `${name}_keys`;
  await searchTables(db, name, column);
  await sql.raw(`insert into ${keys} (id, organisation_id) select id, organisation_id from ${table} order by organisation_id, id`).execute(db);
  await keepEntries(
    db,
    { name, table, column, watched: `id, organisation_id, ${column}` },
    (row) => `
    insert into ${keys} (id, organisation_id) values (${row}.id, ${row}.organisation_id);`,
  );
}

/** `${name}_keys` (n, the FTS rowid; id and organisation_id, the row's) and `${name}_search`, a contentless trigram FTS5 table (030 and 032 too). */
export async function searchTables(db: Kysely<any>, name: string, column: string): Promise<void> {
  await sql.raw(`create table ${name}_keys (n integer primary key, id text not null unique, organisation_id text not null)`).execute(db);
  // contentless_delete: an entry is deleted by its rowid alone (SQLite 3.43); case_sensitive 0 folds case
  await sql.raw(`create virtual table ${name}_search using fts5(${column}, content='', contentless_delete=1, tokenize='trigram case_sensitive 0')`).execute(db);
}

/**
 * `${name}_search` filled from `${name}_keys`, already filled, and both kept by triggers on `table`
 * (030 and 032 too): `addKey(row)` makes a written row's key, its entry follows; a deleted row's
 * entry and key go; an update of `watched` does both.
 */
export async function keepEntries(
  db: Kysely<any>,
  { name, table, column, watched }: { name: string; table: string; column: string; watched: string },
  addKey: (row: string) => string,
): Promise<void> {
  const keys = `${name}_keys`;
  const search = `${name}_search`;
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`insert into ${search} (rowid, ${column}) select k.n, t.${column} from ${keys} k join ${table} t on t.id = k.id order by k.n`);
  const add = (row: string) => `${addKey(row)}
    insert into ${search} (rowid, ${column}) values ((select n from ${keys} where id = ${row}.id), ${row}.${column});`;
  const remove = (row: string) => `
    delete from ${search} where rowid = (select n from ${keys} where id = ${row}.id);
    delete from ${keys} where id = ${row}.id;`;
  await run(`create trigger ${search}_insert after insert on ${table} for each row begin ${add('new')} end`);
  await run(`create trigger ${search}_delete after delete on ${table} for each row begin ${remove('old')} end`);
  await run(`create trigger ${search}_update after update of ${watched} on ${table} for each row begin ${remove('old')} ${add('new')} end`);
}
