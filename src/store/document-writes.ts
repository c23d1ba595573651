/**
 * Writing the service's own documents: one transaction per change, so a document, its lines, its
 * file and its Bills to Pay row are always written (or removed) together.
 */
import type { Kysely, Transaction } from 'kysely';
import { tagsKey } from '../domain/bill-criteria.js';
import { billRow } from './bills.js';
import { newId, nowIso } from './ids.js';
import { mergeSearchTable } from './search-merge.js';
import type { BillRow, Database, DocumentCodedLineRow, DocumentInvoiceLineRow, DocumentRow } from './schema.js';

/** A line in its row's own shape, less what the store fills in: its id, its document and organisation, its place. */
export type LineToStore<Row> = Omit<Row, 'id' | 'document_id' | 'organisation_id' | 'line_no'>;

export interface DocumentToStore {
  type: string;
  number: string;
  supplier: string;
  date: string;
  dueDate: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  codedLines: LineToStore<DocumentCodedLineRow>[];
  invoiceLines: LineToStore<DocumentInvoiceLineRow>[];
  /** undefined keeps the stored file; null removes it */
  file: { fileName: string; contentType: string; data: Buffer } | null | undefined;
  bill: { dueDate: string; scheduledDate: string | null; tags: string[]; note: string | null } | null;
}

async function writeParts(trx: Transaction<Database>, organisationId: string, documentId: string, doc: DocumentToStore, billId: string | null): Promise<void> {
  for (const table of ['document_coded_lines', 'document_invoice_lines'] as const) {
    await trx.deleteFrom(table).where('organisation_id', '=', organisationId).where('document_id', '=', documentId).execute();
  }
  const place = { document_id: documentId, organisation_id: organisationId };
  if (doc.codedLines.length) {
    await trx
      .insertInto('document_coded_lines')
      .values(doc.codedLines.map((l, i) => ({ id: newId('dcl'), ...place, line_no: i + 1, ...l })))
      .execute();
  }
  if (doc.invoiceLines.length) {
    await trx
      .insertInto('document_invoice_lines')
      .values(doc.invoiceLines.map((l, i) => ({ id: newId('dil'), ...place, line_no: i + 1, ...l })))
      .execute();
  }
  if (doc.file !== undefined) {
    await trx.deleteFrom('document_files').where('organisation_id', '=', organisationId).where('document_id', '=', documentId).execute();
    if (doc.file) {
      await trx
        .insertInto('document_files')
        .values({
          document_id: documentId,
          organisation_id: organisationId,
          file_name: doc.file.fileName,
          content_type: doc.file.contentType,
          size: doc.file.data.length,
          data: doc.file.data,
        })
        .execute();
    }
  }
  await trx.deleteFrom('bills').where('organisation_id', '=', organisationId).where('document_id', '=', documentId).execute();
  if (doc.bill) {
    // nothing of an unpublished document has been paid: all of it is due
    await trx
      .insertInto('bills')
      .values(
        billRow({
          id: billId ?? newId('bill'),
          organisation_id: organisationId,
          document_id: documentId,
          kind: doc.type,
          supplier: doc.supplier,
          invoice_number: doc.number,
          date: doc.date,
          due_date: doc.bill.dueDate,
          scheduled_date: doc.bill.scheduledDate,
          tags: doc.bill.tags.join(','),
          currency: doc.currency,
          original_amount: doc.total,
          amount_due: doc.total,
          latest_note: doc.bill.note,
          created_at: nowIso(),
        }),
      )
      .execute();
  }
}

function header(doc: DocumentToStore) {
  return {
    number: doc.number,
    type: doc.type,
    supplier: doc.supplier,
    date: doc.date,
    due_date: doc.dueDate,
    currency: doc.currency,
    subtotal: doc.subtotal,
    tax: doc.tax,
    total: doc.total,
  };
}

/**
 * A new unpublished document. `then` runs in the same transaction once it is written, with its id (the
 * audit entry, the answer read back and kept with an Idempotency-Key): its result is returned, and if
 * it fails nothing is written.
 */
export async function insertDocument<T>(
  db: Kysely<Database>,
  organisationId: string,
  doc: DocumentToStore,
  createdBy: string,
  then: (trx: Transaction<Database>, id: string) => Promise<T>,
): Promise<T> {
  const id = newId('doc');
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('documents')
      .values({
        id,
        organisation_id: organisationId,
        ...header(doc),
        accounting_transaction_id: null,
        published_at: null,
        created_at: nowIso(),
        created_by: createdBy,
        updated_at: null,
      })
      .execute();
    await writeParts(trx, organisationId, id, doc, null);
    await mergeSearchTable(trx, 'document_supplier_search');
    return then(trx, id);
  });
}

/**
 * Replaces an unpublished document's content. The row is re-read under the transaction and the
 * change refused (false) if it was published meanwhile, so a publish and an edit never interleave.
 */
export async function replaceDocument(db: Kysely<Database>, organisationId: string, documentId: string, doc: DocumentToStore): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('documents')
      .set({ ...header(doc), updated_at: nowIso() })
      .where('organisation_id', '=', organisationId)
      .where('id', '=', documentId)
      .where('published_at', 'is', null)
      // a publish in progress (or whose outcome is not known yet) holds the content it was sent with
      .where('publish_state', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    const bill = await billOf(trx, organisationId, documentId);
    await writeParts(trx, organisationId, documentId, doc, bill?.id ?? null);
    await mergeSearchTable(trx, 'document_supplier_search');
    return true;
  });
}

/** Deletes an unpublished document with its lines, file and bill; false if it is published (or gone). */
export async function deleteUnpublishedDocument(db: Kysely<Database>, organisationId: string, documentId: string): Promise<boolean> {
  return db
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('bills').where('organisation_id', '=', organisationId).where('document_id', '=', documentId).execute();
      const deleted = await trx
        .deleteFrom('documents')
        .where('organisation_id', '=', organisationId)
        .where('id', '=', documentId)
        .where('published_at', 'is', null)
        .where('publish_state', 'is', null)
        .executeTakeFirst();
      // a published document keeps its bill: undo the bill's removal with the transaction
      if (Number(deleted.numDeletedRows) === 0) throw new DocumentNotDeleted();
      return true;
    })
    .catch((error) => {
      if (error instanceof DocumentNotDeleted) return false;
      throw error;
    });
}

class DocumentNotDeleted extends Error {}

export async function billOf(db: Kysely<Database>, organisationId: string, documentId: string): Promise<BillRow | undefined> {
  return db.selectFrom('bills').selectAll().where('organisation_id', '=', organisationId).where('document_id', '=', documentId).executeTakeFirst();
}

/** The Bills to Pay fields of a published bill, the only part of it that may still change (tags checked and joined by the caller). */
export async function updateBillPlanning(
  db: Kysely<Database>,
  organisationId: string,
  documentId: string,
  planning: { scheduledDate?: string | null; tags?: string | null; note?: string | null },
): Promise<void> {
  const set: Partial<BillRow> = {};
  if (planning.scheduledDate !== undefined) set.scheduled_date = planning.scheduledDate;
  if (planning.tags !== undefined) {
    set.tags = planning.tags ?? '';
    set.tags_key = tagsKey(set.tags);
  }
  if (planning.note !== undefined) set.latest_note = planning.note || null;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('bills').set(set).where('organisation_id', '=', organisationId).where('document_id', '=', documentId).execute();
}

export type { DocumentRow };
