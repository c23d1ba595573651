/**
 * Payables aged from the books, for systems that hold no bill documents of their own (the builtin
 * ledger, whose books may come from a journal): the rule of aged receivables (allocateFifo) on the
 * Accounts Payable accounts, credit for debit. Per supplier, each transaction's net credit to those
 * accounts up to the date is a bill owed, due on its own date; every debit (a payment, a supplier
 * credit) settles that supplier's bills oldest first; debits beyond them are `prepaid` (negative).
 *
 * Merged with the service's own bills to pay, each bill once: a service bill whose document was
 * published to a transaction of the books, or that names the same supplier and invoice number as a
 * bill in the books, is that bill: the books say what is open of it at the date, the service its
 * due date and number, and, since the service knows it is still open, the supplier's payments
 * settle its other bills first. A service bill the books do not have (not yet published) is added
 * as it stands. So the aged total is the payables accounts' balance at the date, plus the service's
 * bills not yet in the books.
 */
import { LISTED_TYPES, OTHER_TYPES, type ChartAccount, type LedgerLine } from '../accounting/types.js';
import { supplierKey } from '../domain/bill-criteria.js';
import type { IsoDate } from '../domain/dates.js';
import { publishedTransactionsOfBills, type OutstandingBill } from '../store/bills.js';
import type { OpenItem } from './aging.js';
import type { OperationContext } from './context.js';
import { EARLIEST_DATE } from './params.js';
import { allocateFifo, RECEIVABLE_LINES_MAX } from './reports-aged-receivables.js';

export interface LedgerPayables {
  items: OpenItem[];
  prepaid: Map<string, { contact: string; contactId: string | null; amount: number }>;
  /** the net of lines on the payable accounts with no supplier (minor units, owed positive) */
  withoutContact: number;
  /** the service's bills (dated by `date`) the books do not hold: how many, and what is due on them now */
  serviceOnly: { count: number; amount: number };
}

/** An expense claim is named "<employee> — <claim>": the employee is the contact. */
export const billContact = (b: Pick<OutstandingBill, 'kind' | 'supplier'>) => (b.kind === 'expense_claim' ? b.supplier.split(' — ')[0]! : b.supplier);

export async function payablesFromLedger(ctx: OperationContext, chart: ChartAccount[], date: IsoDate, bills: OutstandingBill[]): Promise<LedgerPayables> {
  const ids = chart.filter((a) => a.type === 'Accounts Payable').map((a) => a.id);
  const [lines, contacts, published] = await Promise.all([
    ids.length
      ? ctx.accounting.lines({ accountIds: ids, from: EARLIEST_DATE, to: date, types: [...LISTED_TYPES, ...OTHER_TYPES] }, RECEIVABLE_LINES_MAX)
      : Promise.resolve([] as LedgerLine[]),
    ctx.accounting.contacts(),
    publishedTransactionsOfBills(
      ctx.db,
      ctx.organisation.id,
      bills.map((b) => b.id),
    ),
  ]);
  // the bills in the books, by transaction and by supplier and number
  const byTransaction = new Map<string, LedgerLine>();
  const byNumber = new Map<string, string>();
  for (const l of lines) {
    if (byTransaction.has(l.transactionId)) continue;
    byTransaction.set(l.transactionId, l);
    if (l.contactName && l.number) byNumber.set(`${supplierKey(l.contactName)}\u0000${l.number.trim()}`, l.transactionId);
  }
  const matched = new Map<string, OutstandingBill>();
  const serviceOnly: OutstandingBill[] = [];
  for (const b of bills.filter((b) => b.date <= date)) {
    const txn = published.get(b.id);
    const inBooks =
      (txn !== undefined && byTransaction.has(txn) ? txn : undefined) ??
      byNumber.get(`${supplierKey(billContact(b))}\u0000${b.invoiceNumber.trim()}`) ??
      byNumber.get(`${supplierKey(b.supplier)}\u0000${b.invoiceNumber.trim()}`);
    // a second service bill for the same bill in the books is that bill again: counted once
    if (inBooks === undefined) serviceOnly.push(b);
    else if (!matched.has(inBooks)) matched.set(inBooks, b);
  }
  // credits to payables are owed: the receivable rule on lines turned round
  const turned = lines.map((l) => ({ ...l, amount: -l.amount }));
  const allocated = allocateFifo(turned, new Map(contacts.map((c) => [c.id, c.name])), new Set(matched.keys()));
  const items: OpenItem[] = allocated.items.map((item) => {
    const bill = item.transactionId === undefined ? undefined : matched.get(item.transactionId);
    return bill ? { ...item, number: bill.invoiceNumber, dueDate: bill.dueDate } : item;
  });
  // a bill not in the books is aged under the books' contact of its supplier's name, where there is one
  const named = new Map(contacts.map((c) => [supplierKey(c.name), c]));
  for (const b of serviceOnly) {
    const contact = named.get(supplierKey(billContact(b)));
    items.push({
      contact: contact?.name ?? billContact(b),
      contactId: contact?.id ?? null,
      number: b.invoiceNumber,
      date: b.date,
      dueDate: b.dueDate,
      amount: b.amountDue,
    });
  }
  return {
    items,
    prepaid: allocated.prepaid,
    withoutContact: allocated.withoutContact,
    serviceOnly: { count: serviceOnly.length, amount: serviceOnly.reduce((s, b) => s + b.amountDue, 0) },
  };
}
