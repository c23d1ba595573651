/**
 * GnuCash's customer invoices and credit notes still open at a date: posted on or before it, with
 * a balance left on their posted lot counting only the lot's splits dated on or before it (GnuCash
 * links every payment and every credit note applied to an invoice into its lot, as for bills:
 * payables.ts). The figure is what GnuCash's Receivable Aging ages.
 */
import type { IsoDate } from '../../domain/dates.js';
import { AccountingSystemError, type OpenReceivable } from '../types.js';
import type { Book, BookContext } from './book.js';
import { Owners, readContacts } from './contacts.js';
import { fraction, signOf, toSafeNumber } from './fractions.js';
import { homeValueOfLot, lotBalances, postingSplits } from './lots.js';
import { bookDate, postDateCondition } from './post-dates.js';

interface InvoiceRow {
  guid: string;
  id: string;
  owner_type: bigint;
  owner_guid: string | null;
  post_txn: string;
  post_lot: string;
  post_date: string;
  due: string | null;
}

export function readReceivables(db: Book, ctx: BookContext, asAt: IsoDate): OpenReceivable[] {
  const owners = new Owners(db, readContacts(db));
  const posted = postDateCondition('t.post_date', undefined, asAt);
  const rows = db
    .prepare(
      `SELECT i.guid, i.id, i.owner_type, i.owner_guid, i.post_txn, i.post_lot, t.post_date,
              (SELECT k.timespec_val FROM slots k WHERE k.obj_guid = i.post_txn AND k.name = 'trans-date-due') AS due
       FROM invoices i JOIN transactions t ON t.guid = i.post_txn
       WHERE i.post_txn IS NOT NULL AND i.post_lot IS NOT NULL AND ${posted.sql}`,
    )
    .safeIntegers(true)
    .all(posted.params) as InvoiceRow[];
  const invoices = rows.flatMap((r) => {
    const owner = owners.owner(Number(r.owner_type), r.owner_guid);
    return owner?.kind === 'customer' ? [{ ...r, owner }] : [];
  });
  if (invoices.length === 0) return [];
  // each lot's splits dated on or before asAt (voided ones aside): the posting, payments, credit notes applied
  const balances = lotBalances(
    db,
    invoices.map((d) => d.post_lot),
    asAt,
  );
  const postings = postingSplits(
    db,
    invoices.map((d) => d.post_txn),
  );
  const out: OpenReceivable[] = [];
  for (const inv of invoices) {
    // owed to us is a debit on the receivable account; a credit note left unapplied is a credit
    const open = balances.get(inv.post_lot) ?? fraction(0, 1);
    if (signOf(open) === 0) continue;
    const posting = postings.get(`${inv.post_txn}/${inv.post_lot}`);
    if (!posting) throw new AccountingSystemError(`the GnuCash invoice ${inv.id} has no posting split in its lot`);
    const date = bookDate(inv.post_date);
    out.push({
      documentId: inv.guid,
      transactionId: inv.post_txn,
      contactId: inv.owner.id,
      contactName: inv.owner.name,
      number: inv.id,
      date,
      dueDate: inv.due && !inv.due.startsWith('1970-01-01') ? bookDate(inv.due) : date,
      amountDue: toSafeNumber(homeValueOfLot(db, ctx, posting, open)),
    });
  }
  return out;
}
