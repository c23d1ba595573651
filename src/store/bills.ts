/** Bills to pay and the saved filters over them, always for one organisation. */
import { sql, type Kysely, type SqlBool } from 'kysely';
import { parseBillCriteria, supplierKey, tagsKey, type BillCriteria, type BillFacts } from '../domain/bill-criteria.js';
import { preparedQuery } from './prepared.js';
import type { BillRow, Database } from './schema.js';
import { keptAtVersion } from './versioned-cache.js';

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

/** A bill row with the keys the database matches and orders by, made from its supplier and tags: every writer stores bills through this. */
export function billRow(row: Omit<BillRow, 'supplier_key' | 'tags_key'>): BillRow {
  return { ...row, supplier_key: supplierKey(row.supplier), tags_key: tagsKey(row.tags) };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Payment order: due date, then supplier (as the criteria compare it, then as written), then id,
 * each text compared by code unit. The database orders its own bills the same way (bill-query.ts,
 * byte order: the same as code units but for characters outside the Basic Multilingual Plane);
 * this orders the lists merged here with an accounting system's bills.
 */
export function comparePaymentOrder(a: OutstandingBill, b: OutstandingBill): number {
  return (
    compareText(a.dueDate, b.dueDate) ||
    compareText(supplierKey(a.supplier), supplierKey(b.supplier)) ||
    compareText(a.supplier, b.supplier) ||
    compareText(a.id, b.id)
  );
}

/**
 * What makes a bill one to pay: something still due. Written as the partial index's own condition
 * (migration 012), not with a bound 0, so the planner can use that index.
 */
export const OUTSTANDING = sql<SqlBool>`amount_due > 0`;

/** The columns of a bill to pay that an answer shows. */
export const OUTSTANDING_BILL_COLUMNS = [
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
] as const;

type OutstandingBillColumns = Pick<BillRow, (typeof OUTSTANDING_BILL_COLUMNS)[number]>;

export function toOutstandingBill(r: OutstandingBillColumns): OutstandingBill {
  return {
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
  };
}

/** Every bill and expense claim with something still to pay (amount_due > 0), in payment order. */
export async function listOutstandingBills(db: Kysely<Database>, organisationId: string): Promise<OutstandingBill[]> {
  const rows = await db.selectFrom('bills').select(OUTSTANDING_BILL_COLUMNS).where('organisation_id', '=', organisationId).where(OUTSTANDING).execute();
  return rows.map(toOutstandingBill).sort(comparePaymentOrder);
}

/** The saved filters' rows in display order, compiled once (store/prepared.ts): read on every computed bills call. */
const savedFiltersStatement = preparedQuery((db, v: { organisationId: string }) =>
  db
    .selectFrom('bill_filters')
    .select(['id', 'name', 'description', 'criteria'])
    .where('organisation_id', '=', v.organisationId)
    .orderBy('position')
    .orderBy('id')
    .compile(),
);

/**
 * The saved filters kept per organisation while its data version stands (every write to
 * bill_filters moves organisations.data_version in the writer's own transaction: migration 006),
 * as the bills' totals are (bill-query.ts): every computed bills call reads them, and they change
 * when an admin edits one. Frozen: shared by every call at that version.
 */
const keptFilters = keptAtVersion<readonly SavedBillFilter[]>(1000);

/**
 * The organisation's saved filters in their display order, criteria checked. `version`: the
 * organisation's data_version as the call read it, vouched for by the caller (a read on the
 * primary); the list is then kept under it. Without it (a page, a change, a replica that may lag)
 * it is read afresh.
 */
export async function listSavedBillFilters(db: Kysely<Database>, organisationId: string, version?: string): Promise<readonly SavedBillFilter[]> {
  const read = async () => {
    const rows = await savedFiltersStatement(db, { organisationId });
    return Object.freeze(
      rows.map((r) => {
        let criteria: BillCriteria;
        try {
          criteria = parseBillCriteria(r.criteria);
        } catch (error) {
          // a stored filter the service cannot read is a data fault, not something to guess around
          throw new Error(`saved bill filter ${r.id} (${r.name}): ${(error as Error).message}`);
        }
        return Object.freeze({ id: r.id, name: r.name, description: r.description, criteria });
      }),
    );
  };
  return keptFilters(db, organisationId, version, '', read);
}

/** Each service bill's published transaction (its document's accounting_transaction_id), where its document was published. */
export async function publishedTransactionsOfBills(db: Kysely<Database>, organisationId: string, billIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < billIds.length; i += 500) {
    const rows = await db
      .selectFrom('bills as b')
      .innerJoin('documents as d', (join) => join.onRef('d.id', '=', 'b.document_id').onRef('d.organisation_id', '=', 'b.organisation_id'))
      .select(['b.id', 'd.accounting_transaction_id'])
      .where('b.organisation_id', '=', organisationId)
      .where('b.id', 'in', billIds.slice(i, i + 500))
      .where('d.accounting_transaction_id', 'is not', null)
      .execute();
    for (const r of rows) found.set(r.id, r.accounting_transaction_id!);
  }
  return found;
}
