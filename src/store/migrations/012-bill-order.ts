import { sql, type Kysely } from 'kysely';
import { supplierKey, tagsKey } from '../../domain/bill-criteria.js';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Bills to pay answered by the database (issue 17): the supplier and tags as the saved filters
 * compare them (domain/bill-criteria.ts supplierKey and tagsKey, made by JavaScript so both
 * databases match and order by the same text), and an index over the outstanding bills in payment
 * order, so a page is read in order and stops at its last bill instead of sorting every bill
 * (with the amount due, so counting and totalling them by due date reads the index alone).
 *
 * Payment order compares text byte by byte, whatever the database's locale: SQLite's BINARY
 * collation, and on PostgreSQL a collation of the same name made here over the "C" locale, so one
 * statement (`collate "binary"`) means the same order in both.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name === 'postgres') await sql.raw(`create collation if not exists "binary" (provider = libc, locale = 'C')`).execute(db);
  await db.schema
    .alterTable('bills')
    .addColumn('supplier_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('bills')
    .addColumn('tags_key', 'text', (c) => c.notNull().defaultTo(','))
    .execute();
  const rows = (await db.selectFrom('bills').select(['id', 'supplier', 'tags']).execute()) as { id: string; supplier: string; tags: string }[];
  for (const row of rows) {
    await db
      .updateTable('bills')
      .set({ supplier_key: supplierKey(row.supplier), tags_key: tagsKey(row.tags) })
      .where('id', '=', row.id)
      .execute();
  }
  await sql
    .raw(
      `create index bills_outstanding_order on bills
       (organisation_id, due_date, supplier_key collate "binary", supplier collate "binary", id collate "binary", amount_due) where amount_due > 0`,
    )
    .execute(db);
}
