/** Bills to pay and the saved filters over them, always for one organisation. */
import type { Kysely } from 'kysely';
import { parseBillCriteria, type BillCriteria, type BillFacts } from '../domain/bill-criteria.js';
import type { Database } from './schema.js';

export interface OutstandingBill extends BillFacts {
  id: string;
  invoiceNumber: string;
  date: string;
  /** minor units of the bill's own currency */
  originalAmount: number;
  latestNote: string | null;
}

export interface SavedBillFilter {
  id: string;
  name: string;
  description: string;
  criteria: BillCriteria;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Payment order: due date, then supplier. Sorted here rather than in SQL because the two databases
 * collate text differently and the order must not depend on which one is in use.
 */
export function comparePaymentOrder(a: OutstandingBill, b: OutstandingBill): number {
  return (
    compareText(a.dueDate, b.dueDate) ||
    compareText(a.supplier.toLowerCase(), b.supplier.toLowerCase()) ||
    compareText(a.supplier, b.supplier) ||
    compareText(a.id, b.id)
  );
}

/** Every bill and expense claim with something still to pay (amount_due > 0), in payment order. */
export async function listOutstandingBills(db: Kysely<Database>, organisationId: string): Promise<OutstandingBill[]> {
  const rows = await db
    .selectFrom('bills')
    .select([
      'id',
      'kind',
      'supplier',
      'invoice_number',
      'date',
      'due_date',
      'scheduled_date',
      'tags',
      'currency',
      'original_amount',
      'amount_due',
      'latest_note',
    ])
    .where('organisation_id', '=', organisationId)
    .where('amount_due', '>', 0)
    .execute();
  return rows
    .map((r) => ({
      id: r.id,
      kind: r.kind,
      supplier: r.supplier,
      invoiceNumber: r.invoice_number,
      date: r.date,
      dueDate: r.due_date,
      // an empty text is "not scheduled" as much as null is
      scheduledDate: r.scheduled_date || null,
      tags: r.tags,
      currency: r.currency,
      originalAmount: Number(r.original_amount),
      amountDue: Number(r.amount_due),
      latestNote: r.latest_note || null,
    }))
    .sort(comparePaymentOrder);
}

/**
 * What the saved filters test of every outstanding bill, and nothing else: counting and totalling
 * the filters reads all of them, and each column read costs per row.
 */
export async function listOutstandingBillFacts(db: Kysely<Database>, organisationId: string): Promise<BillFacts[]> {
  const rows = await db
    .selectFrom('bills')
    .select(['kind', 'supplier', 'due_date', 'scheduled_date', 'tags', 'currency', 'amount_due'])
    .where('organisation_id', '=', organisationId)
    .where('amount_due', '>', 0)
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    supplier: r.supplier,
    dueDate: r.due_date,
    scheduledDate: r.scheduled_date || null,
    tags: r.tags,
    currency: r.currency,
    amountDue: Number(r.amount_due),
  }));
}

/** The organisation's saved filters in their display order, criteria checked. */
export async function listSavedBillFilters(db: Kysely<Database>, organisationId: string): Promise<SavedBillFilter[]> {
  const rows = await db
    .selectFrom('bill_filters')
    .select(['id', 'name', 'description', 'criteria'])
    .where('organisation_id', '=', organisationId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    let criteria: BillCriteria;
    try {
      criteria = parseBillCriteria(r.criteria);
    } catch (error) {
      // a stored filter the service cannot read is a data fault, not something to guess around
      throw new Error(`saved bill filter ${r.id} (${r.name}): ${(error as Error).message}`);
    }
    return { id: r.id, name: r.name, description: r.description, criteria };
  });
}
