import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * SQLite: the ledger list's lines in an index of their own, as PostgreSQL has had them since
 * migration 025 (issue 43). SQLite tests a line's type in the account's date index without reading
 * the line, but it still walks every line of the period: on an account that is mostly invoices and
 * payments (receivables), a first page of 50 over seven months walked about half a million lines at
 * 10M ledger lines to keep a few (103 ms, against 1 ms at 100,000 lines). This partial index holds
 * just the listed lines (LISTED_TYPES, as they were when written: a change to that list needs an
 * index of its own), in the page's order (newest, transaction descending, line ascending, read
 * backwards), with the contact and id the page's later form reads. The statement names the types as
 * literals on both databases now (accounting/builtin/reader.ts), which SQLite needs as much as
 * PostgreSQL to prove the index fits.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'sqlite') return;
  await sql`create index acct_lines_listed_page on acct_lines (organisation_id, account_id, date, transaction_id, line_no desc, contact_id, id)
            where type in ('bill', 'expense', 'cheque', 'card_charge', 'card_refund', 'supplier_credit', 'deposit')`.execute(db);
}
