/**
 * A GnuCash purchase document as the service shows documents: the header from the invoice row,
 * coded lines from the splits GnuCash posted (what the books hold: one split per account, tax on
 * the tax table's account), invoice lines from the document's own entries (what the supplier
 * billed: quantity, price and tax by the entry's tax table). GnuCash keeps no files; a document may
 * carry a link to one (its "document link"), which is passed on as a link and never fetched.
 */
import { minorDigits } from '../../domain/money.js';
import type { SystemCodedLine, SystemDocument, SystemInvoiceLine } from '../types.js';
import { add, divide, fraction, multiply, signOf, toSafeNumber, toUnits, ZERO, type Fraction } from './fractions.js';
import { documentNumber, readPurchaseDocuments, supplierName, type PurchaseDocument } from './payables.js';
import { readChart } from './chart.js';
import type { Book, BookContext } from './book.js';

interface SplitRow {
  guid: string;
  tx_guid: string;
  account_guid: string;
  memo: string | null;
  value_num: bigint;
  value_denom: bigint;
}

interface EntryRow {
  guid: string;
  bill: string;
  description: string | null;
  action: string | null;
  quantity_num: bigint;
  quantity_denom: bigint;
  b_acct: string | null;
  b_price_num: bigint;
  b_price_denom: bigint;
  b_taxable: bigint;
  b_taxincluded: bigint;
  b_taxtable: string | null;
}

interface TaxRow {
  taxtable: string;
  account: string;
  amount_num: bigint;
  amount_denom: bigint;
  /** 1 a value per entry, 2 a percentage */
  type: bigint;
}

export function readSystemDocuments(db: Book, ctx: BookContext, guids: string[]): SystemDocument[] {
  if (guids.length === 0) return [];
  const docs = readPurchaseDocuments(db, guids);
  if (docs.length === 0) return [];
  const json = (values: string[]) => JSON.stringify(values);
  const splits = db
    .prepare(
      `SELECT s.guid, s.tx_guid, s.account_guid, s.memo, s.value_num, s.value_denom FROM splits s
       WHERE s.tx_guid IN (SELECT value FROM json_each(@txs)) AND s.reconcile_state <> 'v' ORDER BY s.tx_guid, s.rowid`,
    )
    .safeIntegers(true)
    .all({ txs: json(docs.map((d) => d.postTxn)) }) as SplitRow[];
  // in GnuCash's own order of a document's entries (gncEntryCompare): date, entered, description, action, guid
  const entries = db
    .prepare(
      `SELECT guid, bill, description, action, quantity_num, quantity_denom, b_acct, b_price_num, b_price_denom,
              b_taxable, b_taxincluded, b_taxtable
       FROM entries WHERE bill IN (SELECT value FROM json_each(@docs))
       ORDER BY date, date_entered, description, action, guid`,
    )
    .safeIntegers(true)
    .all({ docs: json(docs.map((d) => d.guid)) }) as EntryRow[];
  const taxes = db.prepare(`SELECT taxtable, account, amount_num, amount_denom, type FROM taxtable_entries`).safeIntegers(true).all() as TaxRow[];
  const taxAccounts = new Set(taxes.map((t) => t.account));
  const names = new Map(readChart(db, ctx).map((a) => [a.id, a.fullName]));
  return docs.map((doc) => {
    const scale = 10n ** BigInt(minorDigits(doc.currency));
    const mine = splits.filter((s) => s.tx_guid === doc.postTxn);
    const posting = mine.find((s) => s.account_guid === doc.postAcc);
    // a bill credits the payable account: its lines are the debits; a credit note is the reverse
    const sign = posting && signOf(fraction(posting.value_num, posting.value_denom)) > 0 ? -1n : 1n;
    const docEntries = entries.filter((e) => e.bill === doc.guid);
    const codedLines: SystemCodedLine[] = mine
      .filter((s) => s !== posting)
      .map((s) => ({
        id: s.guid,
        description: s.memo?.trim() || entryText(docEntries, s.account_guid) || (taxAccounts.has(s.account_guid) ? 'Tax' : ''),
        accountId: s.account_guid,
        account: names.get(s.account_guid) ?? s.account_guid,
        amount: toSafeNumber(toUnits(fraction(s.value_num * sign, s.value_denom), scale)),
        isTax: taxAccounts.has(s.account_guid),
      }));
    const invoiceLines = docEntries.map((e) => invoiceLine(e, doc, taxes, scale));
    const total = codedLines.reduce((n, l) => n + l.amount, 0);
    const tax = codedLines.filter((l) => l.isTax).reduce((n, l) => n + l.amount, 0);
    return {
      documentId: doc.guid,
      transactionId: doc.postTxn,
      number: documentNumber(doc),
      type: doc.creditNote ? 'supplier_credit' : doc.owner.kind === 'employee' ? 'expense_claim' : 'bill',
      supplier: supplierName(doc),
      date: doc.postDate,
      dueDate: doc.dueDate,
      currency: doc.currency,
      subtotal: total - tax,
      tax,
      total,
      codedLines,
      invoiceLines,
      attachmentLink: doc.doclink,
    };
  });
}

/** What the document's entries on an account say: GnuCash posts them as one split with no memo. */
function entryText(entries: EntryRow[], account: string): string {
  return entries
    .filter((e) => e.b_acct === account)
    .map((e) => e.description?.trim() ?? '')
    .filter((t) => t !== '')
    .join('; ');
}

/**
 * An entry as billed: quantity × price, and the tax its tax table charges on it (percentages of the
 * net, plus fixed values; when the price includes tax, the net is what is left after it), as GnuCash
 * computes it. A credit note's quantities are stored negated; they are shown as the supplier wrote them.
 */
function invoiceLine(e: EntryRow, doc: PurchaseDocument, taxes: TaxRow[], scale: bigint): SystemInvoiceLine {
  let quantity = fraction(e.quantity_num, e.quantity_denom);
  if (doc.creditNote) quantity = multiply(quantity, fraction(-1, 1));
  const price = fraction(e.b_price_num, e.b_price_denom);
  const gross = multiply(quantity, price);
  let percent: Fraction = ZERO;
  let fixed: Fraction = ZERO;
  if (e.b_taxable !== 0n && e.b_taxtable) {
    for (const t of taxes.filter((t) => t.taxtable === e.b_taxtable)) {
      const amount = fraction(t.amount_num, t.amount_denom);
      if (t.type === 2n) percent = add(percent, divide(amount, fraction(100, 1)));
      else fixed = add(fixed, amount);
    }
  }
  const included = e.b_taxincluded !== 0n;
  const net = included ? divide(add(gross, multiply(fixed, fraction(-1, 1))), add(fraction(1, 1), percent)) : gross;
  const tax = included ? add(gross, multiply(net, fraction(-1, 1))) : add(multiply(net, percent), fixed);
  return {
    id: e.guid,
    description: e.description?.trim() ?? '',
    unit: e.action?.trim() || null,
    quantity: Number(quantity.num) / Number(quantity.den),
    unitPrice: toSafeNumber(toUnits(price, scale)),
    tax: toSafeNumber(toUnits(tax, scale)),
    amount: toSafeNumber(toUnits(net, scale)),
  };
}
