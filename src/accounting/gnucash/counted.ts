/**
 * Which splits count, as an SQL condition (aliases: s the split, t its transaction). Not counted:
 * - voided splits (GnuCash zeroes a voided transaction's amounts and marks its splits 'v');
 * - the transactions of GnuCash's Close Book (flagged "book_closing"), which move a year's income
 *   and expenses into equity: GnuCash's own profit and loss leaves them out, and Ledgerline's
 *   reports carry earlier years' profit to retained earnings themselves;
 * - the templates of scheduled transactions, kept on accounts under the book's template root.
 */
export const COUNTED = `s.reconcile_state <> 'v'
  AND NOT EXISTS (SELECT 1 FROM slots k WHERE k.obj_guid = t.guid AND k.name = 'book_closing' AND k.int64_val <> 0)
  AND s.account_guid NOT IN (SELECT guid FROM accounts WHERE parent_guid IN (SELECT root_template_guid FROM books))`;
