/**
 * GnuCash's customer invoices and credit notes still open at a date: posted on or before it, with
 * a balance left on their posted lot counting only the lot's splits dated on or before it (GnuCash
 * links every payment and every credit note applied to an invoice into its lot, as for bills:
 * payables.ts). The figure is what GnuCash's Receivable Aging ages.
 */
import type { IsoDate } from '../../domain/dates.js';
import { AccountingSystemError, type OpenReceivable } from '../types.js';
import { convertedSplits, homeAmount, type ValuedSplit } from './amounts.js';
import type { Book, BookContext } from './book.js';
import { Owners, readContacts } from './contacts.js';
import { divide, fraction, multiply, signOf, sumOf, toSafeNumber, toUnits, type Fraction } from './fractions.js';
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

interface PostingSplit extends ValuedSplit {
  guid: string;
  tx_guid: string;
  lot_guid: string;
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
  const dated = postDateCondition('t.post_date', undefined, asAt);
  const lotSplits = db
    .prepare(
      `SELECT s.lot_guid, s.quantity_num, s.quantity_denom FROM splits s JOIN transactions t ON t.guid = s.tx_guid
       WHERE s.lot_guid IN (SELECT value FROM json_each(@lots)) AND s.reconcile_state <> 'v' AND ${dated.sql}`,
    )
    .safeIntegers(true)
    .all({ lots: JSON.stringify(invoices.map((d) => d.post_lot)), ...dated.params }) as { lot_guid: string; quantity_num: bigint; quantity_denom: bigint }[];
  const balances = new Map<string, Fraction[]>();
  for (const s of lotSplits) balances.set(s.lot_guid, [...(balances.get(s.lot_guid) ?? []), fraction(s.quantity_num, s.quantity_denom)]);
  const postings = new Map(
    (
      db
        .prepare(
          `SELECT s.guid, s.tx_guid, s.lot_guid, a.commodity_guid AS account_commodity, t.currency_guid AS tx_currency,
                  s.value_num, s.value_denom, s.quantity_num, s.quantity_denom
           FROM splits s JOIN transactions t ON t.guid = s.tx_guid JOIN accounts a ON a.guid = s.account_guid
           WHERE s.tx_guid IN (SELECT value FROM json_each(@txs)) AND s.lot_guid IS NOT NULL`,
        )
        .safeIntegers(true)
        .all({ txs: JSON.stringify(invoices.map((d) => d.post_txn)) }) as PostingSplit[]
    ).map((s) => [`${s.tx_guid}/${s.lot_guid}`, s]),
  );
  const out: OpenReceivable[] = [];
  for (const inv of invoices) {
    // owed to us is a debit on the receivable account; a credit note left unapplied is a credit
    const open = sumOf(balances.get(inv.post_lot) ?? []);
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
      amountDue: toSafeNumber(homeOpen(db, ctx, posting, open)),
    });
  }
  return out;
}

/** The open balance in home minor units: itself for a home-currency account, else at the rate the invoice was posted at. */
function homeOpen(db: Book, ctx: BookContext, posting: PostingSplit, open: Fraction): bigint {
  if (posting.account_commodity === ctx.homeGuid) return toUnits(open, ctx.scale);
  const postedHome = homeAmount(posting, ctx) ?? convertedSplits(db, ctx, { txGuids: [posting.tx_guid] }).find((c) => c.guid === posting.guid)?.amount;
  if (postedHome === undefined) throw new AccountingSystemError(`the GnuCash split ${posting.guid} could not be converted to ${ctx.homeCurrency}`);
  const quantity = fraction(posting.quantity_num, posting.quantity_denom);
  return toUnits(multiply(divide(fraction(postedHome, ctx.scale), quantity), open), ctx.scale);
}
