/** A stored document in the shape a caller sends one, so an update can change some fields and check the whole again. */
import { toMajor } from '../../domain/money.js';
import { billOf } from '../../store/document-writes.js';
import { getDocuments, listCodedLines, listInvoiceLines } from '../../store/documents.js';
import type { DocumentRow } from '../../store/schema.js';
import type { OperationContext } from '../context.js';
import type { DocumentDraft } from './check.js';

export interface CurrentDocument {
  row: DocumentRow;
  draft: DocumentDraft;
}

export async function currentDocument(ctx: OperationContext, documentId: string): Promise<CurrentDocument | undefined> {
  const orgId = ctx.organisation.id;
  const [row] = await getDocuments(ctx.db, orgId, [documentId]);
  if (!row) return undefined;
  const [coded, invoice, bill] = await Promise.all([
    listCodedLines(ctx.db, orgId, [documentId]),
    listInvoiceLines(ctx.db, orgId, [documentId]),
    billOf(ctx.db, orgId, documentId),
  ]);
  const major = (minor: number | string) => toMajor(Number(minor), row.currency);
  return {
    row,
    draft: {
      type: row.type as DocumentDraft['type'],
      number: row.number,
      supplier: row.supplier,
      date: row.date,
      dueDate: row.due_date,
      currency: row.currency,
      subtotal: major(row.subtotal),
      tax: major(row.tax),
      total: major(row.total),
      codedLines: coded.map((l) => ({
        description: l.description,
        // the id names the account exactly, whatever it is called now
        account: l.account_id,
        taxCodeId: l.tax_code_id,
        class: l.class,
        customer: l.customer,
        quantity: Number(l.quantity),
        subtotal: major(l.subtotal),
        tax: major(l.tax),
        total: major(l.total),
      })),
      invoiceLines: invoice.map((l) => ({
        description: l.description,
        productCode: l.product_code,
        unit: l.unit,
        quantity: Number(l.quantity),
        unitPrice: major(l.unit_price),
        tax: major(l.tax),
        amount: major(l.amount),
      })),
      file: 'kept',
      scheduledDate: bill?.scheduled_date || null,
      tags: bill?.tags ?? null,
      note: bill?.latest_note ?? null,
    },
  };
}
