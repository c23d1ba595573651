/**
 * SQLite: the trigram tables (migrations 026, 030, 032) kept in few segments (issue 43). FTS5 writes
 * each transaction's entries as a segment of its own and merges them only by level, four at a time
 * (its automerge), so an index written by many imports holds ten to twenty segments, and every term
 * a search looks up is sought in each one: counting a term in one account's three months took
 * 0.2-0.45 ms over 22 segments, 0.05-0.21 over 11 and 0.02-0.09 over one (1M lines). Migration 033
 * merges the tables into one segment and has FTS5's `merge` command take any level holding two
 * (usermerge 2); every write of bank lines or documents then ends with a merge step of a bounded
 * number of pages, so the tables stay at three to five segments as imports come in (measured:
 * 200 imports of 500 lines each on top of a merged index of 500,000, a step of 200 pages after each:
 * 3-5 segments, 5.6 ms of merging an import; none: 5-11 segments).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Database } from './schema.js';

/** Pages a write's merge step writes at most: a few milliseconds, and enough to keep up with imports of a few hundred lines. */
const MERGE_PAGES = { bank_narration_search: 200, document_supplier_search: 50 } as const;
export type SearchTable = keyof typeof MERGE_PAGES;

/** One merge step of the table, in the writer's transaction; nothing to do (no level with two segments) costs a read of its structure. */
export async function mergeSearchTable(db: Kysely<Database> | Transaction<Database>, table: SearchTable): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`insert into ${sql.table(table)} (${sql.ref(table)}, rank) values ('merge', ${sql.lit(MERGE_PAGES[table])})`.execute(db);
}

/**
 * Each table merged into one segment (SQLite): what a bulk load ends with. The demo writes a month
 * of lines at a time, batches far larger than the steps above are sized for (imports of a few
 * hundred lines), and its 10M-line books were left at 18 segments: a term's count there cost 4.2 ms
 * a searched call. About 1 s per 500,000 bank lines.
 */
export async function optimizeSearchTables(db: Kysely<Database>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const table of Object.keys(MERGE_PAGES) as SearchTable[]) await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
}
