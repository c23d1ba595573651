import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * PostgreSQL: the ledger list's lines (issue 43), in the order its pages take them. The list shows
 * the bill, expense, cheque, card, supplier credit and deposit lines of an account (LISTED_TYPES),
 * newest first by (date, transaction, line). The account's date index ends in the type, which
 * PostgreSQL's plain index scan tests only after reading each line from the table: on an account
 * that is mostly invoices and journals (receivables, VAT) a page read every line of its period
 * to keep none (56,708 lines over eight months, 54 ms), and a later page sorted each date's lines
 * (page 5 of 100: 13 ms). This partial index holds just the listed lines (536,339 of 1,016,915 in
 * the benchmark, 82 MB) in the page's order, with the contact and id, so a page's ids come from it
 * alone, in order: 0.2 and 2.7 ms. The page's statement names these types as literals
 * (accounting/builtin/reader.ts), which is what lets the planner prove the index fits. The list
 * here is the list as it was when written: a change to LISTED_TYPES needs an index of its own.
 * SQLite tests the type in the index it walks, without reading the line: its plans stay as they were.
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  if (dialect.name !== 'postgres') return;
  await sql`create index acct_lines_listed_page on acct_lines (organisation_id, account_id, date, transaction_id, line_no desc) include (contact_id, id)
            where type in ('bill', 'expense', 'cheque', 'card_charge', 'card_refund', 'supplier_credit', 'deposit')`.execute(db);
}
