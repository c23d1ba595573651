import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * SQLite: the outstanding bills in payment order carry every column a saved filter tests (issue
 * 43). A filtered page (store/bill-query.ts) walks the bills in payment order until it is full; with
 * the criteria outside the order index (migration 012) it read each bill's row from the table to
 * test it, so a filter that keeps few bills read nearly every outstanding one: 9–10 ms a page at
 * 15,779 outstanding bills (10M ledger lines), against 1 ms at 1,573. With the criteria in the
 * index, SQLite tests each bill there and reads the rows of the bills it keeps only. The index
 * serves the filters' counts and totals from the index alone as well, so it replaces both
 * bills_outstanding_order and bills_outstanding_criteria (migration 016): one index to keep on
 * every write instead of two. PostgreSQL keeps its two.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  await sql`create index bills_outstanding_order_criteria on bills
            (organisation_id, due_date, supplier_key collate "binary", supplier collate "binary", id collate "binary", amount_due,
             kind, scheduled_date, currency, tags_key) where amount_due > 0`.execute(db);
  await sql`drop index bills_outstanding_order`.execute(db);
  await sql`drop index bills_outstanding_criteria`.execute(db);
}
