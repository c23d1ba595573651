import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * SQLite: the trigram tables merged into one segment each, and FTS5's `merge` command told to take
 * any level of two segments or more (usermerge 2, kept in the table's config), so the merge step every
 * write of bank lines or documents ends with keeps them near that (store/search-merge.ts says why and
 * what it measured). The merge rewrites each table once: 0.5-1.2 s for 500,000 bank lines.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  for (const table of ['bank_narration_search', 'document_supplier_search']) {
    await sql`insert into ${sql.table(table)} (${sql.ref(table)}, rank) values ('usermerge', 2)`.execute(db);
    await sql`insert into ${sql.table(table)} (${sql.ref(table)}) values ('optimize')`.execute(db);
  }
}
