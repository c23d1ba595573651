/**
 * Bills to pay: the bills and expense claims the ledger still owes at the demo date, and the saved
 * filters people use to pick from them.
 */
import { stringifyBillCriteria, type BillCriteria } from '../domain/bill-criteria.js';
import { billRow } from '../store/bills.js';
import type { BillFilterRow, BillRow } from '../store/schema.js';
import type { PricedPurchase } from './documents.js';
import type { Random } from './random.js';

const NOTES = [
  'Approved, pay in the next run',
  'Checked against the purchase order',
  'Awaiting a purchase order number',
  'Pay together with the other invoices from this supplier',
  'Coded and approved',
];

const LATE_NOTES = [
  'Query raised with the supplier about the amount',
  'Waiting for a credit note before paying',
  'Chased by the supplier, approval pending',
  'Disputed: waiting for a corrected invoice',
];

export interface OutstandingBill {
  id: string;
  organisationId: string;
  documentId: string | null;
  kind: 'bill' | 'expense_claim';
  pp: PricedPurchase;
  dueDate: string;
  /** the day a payment is planned for, if one is */
  scheduledDate: string | null;
  tags: string;
  late: boolean;
}

/** The row for an unpaid bill: amount due in home currency, the original amount in the bill's own. */
export function outstandingBillRow(bill: OutstandingBill, rng: Random): BillRow {
  const note = bill.late ? rng.pick(LATE_NOTES) : rng.chance(0.35) ? rng.pick(NOTES) : null;
  return billRow({
    id: bill.id,
    organisation_id: bill.organisationId,
    document_id: bill.documentId,
    kind: bill.kind,
    supplier: bill.pp.supplier,
    invoice_number: bill.pp.number,
    date: bill.pp.date,
    due_date: bill.dueDate,
    scheduled_date: bill.scheduledDate,
    tags: bill.late && note?.startsWith('Disputed') ? `${bill.tags},disputed` : bill.tags,
    currency: bill.pp.currency,
    original_amount: bill.pp.total,
    amount_due: bill.pp.homeTotal,
    latest_note: note,
    created_at: `${bill.pp.date}T10:00:00.000Z`,
  });
}

const FILTERS: { name: string; description: string; criteria: BillCriteria }[] = [
  { name: 'Due this week', description: 'Bills and claims due in the next seven days', criteria: { dueWithinDays: 7 } },
  { name: 'Overdue', description: 'Everything past its due date', criteria: { overdue: true } },
  { name: 'Utilities', description: 'Electricity, internet and phone bills', criteria: { kinds: ['bill'], tagsAny: ['utilities'] } },
  { name: 'Foreign currency bills', description: 'Bills in a currency other than the home currency', criteria: { kinds: ['bill'], foreignCurrency: true } },
  { name: 'Expense claims', description: 'Staff expense claims waiting to be reimbursed', criteria: { kinds: ['expense_claim'] } },
  { name: 'Scheduled for payment', description: 'Bills with a payment date already planned', criteria: { scheduled: true } },
  { name: 'Large bills', description: 'Bills with 1,000 or more due', criteria: { kinds: ['bill'], minAmountDue: 100_000 } },
];

export function savedFilterRows(organisationId: string, makeId: (prefix: string) => string): BillFilterRow[] {
  return FILTERS.map((f, position) => ({
    id: makeId('bfl'),
    organisation_id: organisationId,
    name: f.name,
    description: f.description,
    criteria: stringifyBillCriteria(f.criteria),
    position,
  }));
}
