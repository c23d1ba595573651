/** The service documents that were published as given accounting transactions, with their coded lines. */
import type { Kysely } from 'kysely';
import { toMajor } from '../../domain/money.js';
import { listCodedLines } from '../../store/documents.js';
import type { Database } from '../../store/schema.js';

export interface PublishedDocument {
  id: string;
  number: string;
  type: string;
  supplier: string;
  date: string;
  currency: string;
  total: number;
  lines: { description: string; account: string | null; quantity: number; subtotal: number; tax: number; total: number }[];
}

export async function publishedDocuments(
  db: Kysely<Database>,
  organisationId: string,
  transactionIds: string[],
): Promise<Map<string, PublishedDocument>> {
  const result = new Map<string, PublishedDocument>();
  if (transactionIds.length === 0) return result;
  const docs = await db
    .selectFrom('documents')
    .select(['id', 'number', 'type', 'supplier', 'date', 'currency', 'total', 'accounting_transaction_id'])
    .where('organisation_id', '=', organisationId)
    .where('accounting_transaction_id', 'in', [...new Set(transactionIds)])
    .execute();
  if (docs.length === 0) return result;
  const lines = await listCodedLines(
    db,
    organisationId,
    docs.map((d) => d.id),
  );
  const byDoc = new Map<string, PublishedDocument>();
  for (const d of docs) {
    const doc: PublishedDocument = {
      id: d.id,
      number: d.number,
      type: d.type,
      supplier: d.supplier,
      date: d.date,
      currency: d.currency,
      total: toMajor(Number(d.total), d.currency),
      lines: [],
    };
    byDoc.set(d.id, doc);
    result.set(d.accounting_transaction_id!, doc);
  }
  for (const l of lines) {
    const doc = byDoc.get(l.document_id)!;
    doc.lines.push({
      description: l.description,
      account: l.account_name,
      quantity: Number(l.quantity),
      subtotal: toMajor(Number(l.subtotal), doc.currency),
      tax: toMajor(Number(l.tax), doc.currency),
      total: toMajor(Number(l.total), doc.currency),
    });
  }
  return result;
}
