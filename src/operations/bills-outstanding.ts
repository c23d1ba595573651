/**
 * The outstanding bills of an organisation: the service's own (store/bills.ts) and those the
 * connected accounting system holds as documents of its own (AccountingSystem.payables). A bill the
 * service published to the books is the service's: the system's copy of it (same transaction id as
 * the service document's accounting_transaction_id) is left out, so nothing is counted twice, and
 * the service's schedule, tags and notes stand; what is owed on it is the system's figure, so a
 * payment made in the books shows here too.
 *
 * Where the system has no bills of its own (the builtin ledger) the database answers pages, counts
 * and totals itself (store/bill-query.ts); otherwise both lists are merged here and filtered with
 * the same criteria in JavaScript. Books that cannot be read fail the call (accounting_unavailable):
 * a list without their bills would read as nothing owed there.
 */
import type { PayableBill } from '../accounting/types.js';
import { billMatcher, type BillCriteria, type MatchContext } from '../domain/bill-criteria.js';
import { sum } from '../domain/money.js';
import { outstandingBillPage, outstandingBillTotals, type BillPage, type BillTotals } from '../store/bill-query.js';
import { comparePaymentOrder, listOutstandingBills, publishedTransactionsOfBills, type OutstandingBill } from '../store/bills.js';
import { publishedTransactionIds } from '../store/documents.js';
import type { OperationContext } from './context.js';
import { systemDocumentId } from './documents-system.js';

export interface OutstandingBills {
  bills: OutstandingBill[];
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

/**
 * Both lists, or the system's problem: books that cannot be read (an outage, a connection to make
 * again) fail the call with accounting_unavailable rather than answer the service's own bills alone,
 * which reads as "nothing owed" in the books (issue 38, item 6).
 */
export async function outstandingBills(ctx: OperationContext): Promise<OutstandingBills> {
  const own = listOutstandingBills(ctx.db, ctx.organisation.id);
  // awaited below; a failure there, not as an unhandled rejection if the system's list fails first
  own.catch(() => {});
  const payables: PayableBill[] = ctx.accounting.payables ? await ctx.accounting.payables() : [];
  const published = await publishedTransactionIds(
    ctx.db,
    ctx.organisation.id,
    payables.map((p) => p.transactionId),
  );
  const theirs = payables.filter((p) => !published.has(p.transactionId)).map((p) => fromSystem(ctx.accounting.kind, p));
  // a bill the service published is owed what the books say: paid there (in part, or in full, when
  // the system no longer lists it) is paid here too
  const ours = await own;
  // books without bills of their own (the builtin ledger) have nothing to say of the service's
  if (!ctx.accounting.payables) return { bills: ours };
  const publishedOf = await publishedTransactionsOfBills(
    ctx.db,
    ctx.organisation.id,
    ours.map((b) => b.id),
  );
  const open = new Map(payables.map((p) => [p.transactionId, p]));
  const owed = ours.flatMap((b) => {
    const transaction = publishedOf.get(b.id);
    if (transaction === undefined) return [b];
    const inBooks = open.get(transaction);
    return inBooks ? [{ ...b, amountDue: inBooks.amountDue }] : [];
  });
  return { bills: [...owed, ...theirs].sort(comparePaymentOrder) };
}

/** Where the outstanding bills of a call are read: pages of a filter's bills, and counts and totals per filter. */
export interface BillSource {
  /** one page of the bills the criteria match (null: every outstanding bill), with the count and total of all of them */
  page(criteria: BillCriteria | null, page: { offset: number; limit: number }): Promise<BillPage>;
  /** per set of criteria, the count and total of the bills it matches */
  totals(criteria: BillCriteria[]): Promise<readonly BillTotals[]>;
}

export function matchContext(ctx: OperationContext): MatchContext {
  return { today: ctx.today, homeCurrency: ctx.organisation.homeCurrency };
}

export async function outstandingBillSource(ctx: OperationContext): Promise<BillSource> {
  const match = matchContext(ctx);
  if (!ctx.accounting.payables) {
    return {
      page: (criteria, page) => outstandingBillPage(ctx.db, ctx.organisation.id, criteria, match, page, ctx.dataVersion),
      totals: (criteria) => outstandingBillTotals(ctx.db, ctx.organisation.id, criteria, match, ctx.dataVersion),
    };
  }
  const { bills } = await outstandingBills(ctx);
  const matching = (criteria: BillCriteria | null) => (criteria ? bills.filter(billMatcher(criteria, match)) : bills);
  return {
    page: async (criteria, page) => {
      const matched = matching(criteria);
      return { bills: matched.slice(page.offset, page.offset + page.limit), count: matched.length, amountDue: sum(matched.map((b) => b.amountDue)) };
    },
    totals: async (criteria) =>
      criteria.map((c) => {
        const matched = matching(c);
        return { count: matched.length, amountDue: sum(matched.map((b) => b.amountDue)) };
      }),
  };
}
