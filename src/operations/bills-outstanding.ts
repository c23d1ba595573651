/**
 * The outstanding bills of an organisation: the service's own (store/bills.ts) and those the
 * connected accounting system holds as documents of its own (AccountingSystem.payables). A bill the
 * service published to the books is the service's: the system's copy of it (same transaction id as
 * the service document's accounting_transaction_id) is left out, so nothing is counted twice, and
 * the service's schedule, tags and notes stand.
 */
import { AccountingSystemError, type PayableBill } from '../accounting/types.js';
import { comparePaymentOrder, listOutstandingBills, type OutstandingBill } from '../store/bills.js';
import { publishedTransactionIds } from '../store/documents.js';
import type { OperationContext } from './context.js';
import { systemDocumentId } from './documents-system.js';

export interface OutstandingBills {
  bills: OutstandingBill[];
  /** why the connected system's bills are missing, when its books could not be read; null otherwise */
  unavailable: string | null;
}

function fromSystem(kind: string, bill: PayableBill): OutstandingBill {
  return {
    id: systemDocumentId(kind, bill.documentId),
    kind: bill.kind,
    supplier: bill.supplier,
    invoiceNumber: bill.number,
    date: bill.date,
    dueDate: bill.dueDate,
    scheduledDate: null,
    tags: '',
    currency: bill.currency,
    originalAmount: bill.originalAmount,
    amountDue: bill.amountDue,
    latestNote: bill.note,
  };
}

export async function outstandingBills(ctx: OperationContext): Promise<OutstandingBills> {
  const own = listOutstandingBills(ctx.db, ctx.organisation.id);
  let payables: PayableBill[];
  try {
    payables = ctx.accounting.payables ? await ctx.accounting.payables() : [];
  } catch (error) {
    // the service's own bills are still worth listing; the answer says what is missing and why
    if (error instanceof AccountingSystemError) return { bills: await own, unavailable: error.message };
    throw error;
  }
  const published = await publishedTransactionIds(ctx.db, ctx.organisation.id, payables.map((p) => p.transactionId));
  const theirs = payables.filter((p) => !published.has(p.transactionId)).map((p) => fromSystem(ctx.accounting.kind, p));
  return { bills: [...(await own), ...theirs].sort(comparePaymentOrder), unavailable: null };
}
