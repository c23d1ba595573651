/**
 * GnuCash's purchase documents: vendor bills, vendor credit notes and employee expense vouchers
 * (rows of `invoices` whose owner is a vendor, an employee, or a job of a vendor), once posted.
 * What is still due on one is the balance of its posted lot: GnuCash links every payment, and every
 * credit note applied to it, into that lot, so the lot's balance is the bill less part payments and
 * credits (the figure GnuCash's own Payable Aging report ages). Customer invoices are not read here:
 * they are receivables, not documents the service holds.
 */
import type { Contact, PayableBill } from '../types.js';
import { AccountingSystemError } from '../types.js';
import type { Book, BookContext } from './book.js';
import { Owners, readContacts } from './contacts.js';
import { fraction, multiply, signOf, toSafeNumber, toUnits } from './fractions.js';
import { homeValueOfLot, lotBalances, postingSplits } from './lots.js';
import { bookDate } from './post-dates.js';
import { minorDigits } from '../../domain/money.js';

export interface PurchaseDocument {
  guid: string;
  id: string;
  billingId: string | null;
  notes: string | null;
  postTxn: string;
  postLot: string | null;
  postAcc: string;
  currency: string;
  postDate: string;
  dueDate: string | null;
  creditNote: boolean;
  owner: Contact;
  doclink: string | null;
}

interface DocumentSqlRow {
  guid: string;
  id: string;
  billing_id: string | null;
  notes: string | null;
  owner_type: bigint;
  owner_guid: string | null;
  post_txn: string;
  post_lot: string | null;
  post_acc: string;
  currency: string;
  post_date: string;
  due: string | null;
  credit_note: bigint;
  doclink: string | null;
}

/** The posted purchase documents, all of them or those with the given guids. */
export function readPurchaseDocuments(db: Book, guids?: string[]): PurchaseDocument[] {
  const owners = new Owners(db, readContacts(db));
  const rows = db
    .prepare(
      `SELECT i.guid, i.id, i.billing_id, i.notes, i.owner_type, i.owner_guid, i.post_txn, i.post_lot, i.post_acc,
              c.mnemonic AS currency, t.post_date,
              (SELECT k.timespec_val FROM slots k WHERE k.obj_guid = i.post_txn AND k.name = 'trans-date-due') AS due,
              EXISTS (SELECT 1 FROM slots k WHERE k.obj_guid = i.guid AND k.name = 'credit-note' AND k.int64_val <> 0) AS credit_note,
              (SELECT k.string_val FROM slots k WHERE k.obj_guid = i.guid AND k.name = 'assoc_uri') AS doclink
       FROM invoices i
       JOIN transactions t ON t.guid = i.post_txn
       JOIN commodities c ON c.guid = i.currency
       WHERE i.post_txn IS NOT NULL AND i.post_acc IS NOT NULL
         ${guids ? 'AND i.guid IN (SELECT value FROM json_each(@guids))' : ''}`,
    )
    .safeIntegers(true)
    .all(guids ? { guids: JSON.stringify(guids) } : {}) as DocumentSqlRow[];
  const out: PurchaseDocument[] = [];
  for (const r of rows) {
    const owner = owners.owner(Number(r.owner_type), r.owner_guid);
    // customer invoices (and documents whose owner is gone) are not purchases
    if (!owner || owner.kind === 'customer') continue;
    out.push({
      guid: r.guid,
      id: r.id,
      billingId: r.billing_id?.trim() || null,
      notes: r.notes?.trim() || null,
      postTxn: r.post_txn,
      postLot: r.post_lot,
      postAcc: r.post_acc,
      currency: r.currency,
      postDate: bookDate(r.post_date),
      dueDate: r.due && !r.due.startsWith('1970-01-01') ? bookDate(r.due) : null,
      creditNote: r.credit_note !== 0n,
      owner,
      doclink: r.doclink?.trim() || null,
    });
  }
  return out;
}

/** The number a supplier knows the document by: its Billing ID, else GnuCash's document id. */
export function documentNumber(doc: PurchaseDocument): string {
  return doc.billingId ?? doc.id;
}

/** For an expense claim the employee and the claim, as the service names its own claims. */
export function supplierName(doc: PurchaseDocument): string {
  return doc.owner.kind === 'employee' ? `${doc.owner.name} — ${documentNumber(doc)}` : doc.owner.name;
}

/** Bills and expense vouchers whose posted lot still has a balance owed, with that balance. */
export function readPayables(db: Book, ctx: BookContext): PayableBill[] {
  const docs = readPurchaseDocuments(db).filter((d) => !d.creditNote && d.postLot !== null);
  if (docs.length === 0) return [];
  // every split of every lot: the posting, payments, lot links to credit notes (voided ones aside)
  const balances = lotBalances(
    db,
    docs.map((d) => d.postLot!),
  );
  const postings = postingSplits(
    db,
    docs.map((d) => d.postTxn),
  );
  const payables: PayableBill[] = [];
  for (const doc of docs) {
    // owed is a credit on the payable account: negative quantity
    const owed = balances.get(doc.postLot!) ?? fraction(0, 1);
    if (signOf(owed) >= 0) continue;
    const posting = postings.get(`${doc.postTxn}/${doc.postLot}`);
    if (!posting) throw new AccountingSystemError(`the GnuCash bill ${doc.id} has no posting split in its lot`);
    const original = fraction(-posting.value_num, posting.value_denom);
    const due = multiply(owed, fraction(-1, 1));
    payables.push({
      documentId: doc.guid,
      transactionId: doc.postTxn,
      kind: doc.owner.kind === 'employee' ? 'expense_claim' : 'bill',
      supplier: supplierName(doc),
      number: documentNumber(doc),
      date: doc.postDate,
      dueDate: doc.dueDate ?? doc.postDate,
      currency: doc.currency,
      originalAmount: toSafeNumber(toUnits(original, 10n ** BigInt(minorDigits(doc.currency)))),
      amountDue: toSafeNumber(homeValueOfLot(db, ctx, posting, due)),
      note: doc.notes,
    });
  }
  return payables;
}
