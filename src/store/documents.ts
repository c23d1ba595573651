/** Documents held by the service, their lines and original files, always for one organisation. */
import { sql, type Kysely } from 'kysely';
import { everyColumn } from './columns.js';
import { dialectOf } from './dialect.js';
import { textArrayLiteral } from './pg-text-array.js';
import { preparedQuery, preparedShapes } from './prepared.js';
import type { Database, DocumentCodedLineRow, DocumentInvoiceLineRow, DocumentRow } from './schema.js';

/** The tables' columns by name: the statements below are named on PostgreSQL (columns.ts). */
const COLUMNS = {
  documents: everyColumn<DocumentRow>()([
    'id',
    'organisation_id',
    'number',
    'type',
    'supplier',
    'date',
    'due_date',
    'currency',
    'subtotal',
    'tax',
    'total',
    'accounting_transaction_id',
    'published_at',
    'created_at',
    'created_by',
    'updated_at',
    'publish_state',
    'publish_key',
    'publish_started_at',
    'accounting_document_id',
    'accounting_link',
    'paid_from',
    'exchange_rate',
  ]),
  document_coded_lines: everyColumn<DocumentCodedLineRow>()([
    'id',
    'document_id',
    'organisation_id',
    'line_no',
    'description',
    'account_id',
    'account_name',
    'tax_code_id',
    'class',
    'customer',
    'quantity',
    'subtotal',
    'tax',
    'total',
  ]),
  document_invoice_lines: everyColumn<DocumentInvoiceLineRow>()([
    'id',
    'document_id',
    'organisation_id',
    'line_no',
    'description',
    'product_code',
    'unit',
    'quantity',
    'unit_price',
    'tax',
    'amount',
  ]),
};

/**
 * The organisation's documents by id, compiled once per number of ids (store/prepared.ts), as the
 * statements below; all are lookups by ids, whose generic plan is the custom one, so they are named
 * on PostgreSQL.
 */
const documentsStatement = preparedShapes(
  (db, v: { organisationId: string; ids: string[] }) =>
    db.selectFrom('documents').select(COLUMNS.documents).where('organisation_id', '=', v.organisationId).where('id', 'in', v.ids).compile(),
  { genericPlan: true },
);

export async function getDocuments(db: Kysely<Database>, organisationId: string, ids: string[]): Promise<DocumentRow[]> {
  if (ids.length === 0) return [];
  return documentsStatement(db, '', { organisationId, ids });
}

/** What documents.get answers of a document's own row, and of its coded and invoice lines. */
const ANSWERED = [
  'id',
  'number',
  'type',
  'supplier',
  'date',
  'due_date',
  'currency',
  'subtotal',
  'tax',
  'total',
  'accounting_transaction_id',
  'published_at',
  'accounting_link',
] as const satisfies readonly (keyof DocumentRow)[];
const ANSWERED_CODED = [
  'id',
  'description',
  'account_id',
  'account_name',
  'tax_code_id',
  'class',
  'customer',
  'quantity',
  'subtotal',
  'tax',
  'total',
] as const satisfies readonly (keyof DocumentCodedLineRow)[];
const ANSWERED_INVOICE = [
  'id',
  'description',
  'product_code',
  'unit',
  'quantity',
  'unit_price',
  'tax',
  'amount',
] as const satisfies readonly (keyof DocumentInvoiceLineRow)[];

/**
 * A document as documents.get reads it: its row, whether it has an original file (0 or 1 on SQLite,
 * a boolean on PostgreSQL), its coded and invoice lines by line number.
 */
export type AnsweredDocumentRow = Pick<DocumentRow, (typeof ANSWERED)[number]> & {
  has_file: number | boolean;
  coded_lines: AnsweredCodedLine[];
  invoice_lines: AnsweredInvoiceLine[];
};
export type AnsweredCodedLine = Pick<DocumentCodedLineRow, (typeof ANSWERED_CODED)[number]>;
export type AnsweredInvoiceLine = Pick<DocumentInvoiceLineRow, (typeof ANSWERED_INVOICE)[number]>;

/**
 * Lines of several documents (coded or invoice lines) in one query, by document then line number:
 * the given columns of them, compiled once per number of ids.
 */
export function listLines<T extends 'document_coded_lines' | 'document_invoice_lines', C extends keyof Database[T] & string>(table: T, columns: readonly C[]) {
  const statement = preparedShapes(
    (db, v: { organisationId: string; documentIds: string[] }) =>
      db
        .selectFrom(table as 'document_coded_lines')
        .select(columns as unknown as typeof COLUMNS.document_coded_lines)
        .where('organisation_id', '=', v.organisationId)
        .where('document_id', 'in', v.documentIds)
        .orderBy('document_id')
        .orderBy('line_no')
        .orderBy('id')
        .compile(),
    { genericPlan: true },
  );
  return async (db: Kysely<Database>, organisationId: string, documentIds: string[]): Promise<Pick<Database[T], C>[]> => {
    if (documentIds.length === 0) return [];
    return (await statement(db, '', { organisationId, documentIds })) as unknown as Pick<Database[T], C>[];
  };
}

export const listCodedLines = listLines('document_coded_lines', COLUMNS.document_coded_lines);
export const listInvoiceLines = listLines('document_invoice_lines', COLUMNS.document_invoice_lines);

/** `'name', alias.name, …` of the columns given: a JSON object's keys and values, the columns' own names. */
const fields = (alias: string, columns: readonly string[]) => sql.raw(columns.map((c) => `'${c}', ${alias}.${c}`).join(', '));

/** A document's lines of one table as a JSON array of objects in line order (the database's own aggregate and object functions). */
const lines = (aggregate: string, object: string, table: 'document_coded_lines' | 'document_invoice_lines', alias: string, columns: readonly string[]) =>
  sql`coalesce((select ${sql.raw(aggregate)}(${sql.raw(object)}(${fields(alias, columns)}) order by ${sql.raw(`${alias}.line_no, ${alias}.id`)})
    from ${sql.table(table)} ${sql.raw(alias)} where ${sql.raw(`${alias}.document_id = d.id and ${alias}.organisation_id = d.organisation_id`)}), '[]')`;

/**
 * PostgreSQL: the documents with their lines in one statement (each document's lines aggregated as
 * JSON, in line order), where three went out at once on three connections: a PostgreSQL statement
 * is a round trip to another process, which it wakes, and its own work there besides the execution
 * (docs/performance.md). The ids go as one text[] value, so the text never changes and it is
 * prepared once per connection; a lookup by ids has one plan.
 */
const answeredDocumentsStatement = preparedQuery((db, v: { organisationId: string; ids: string }) =>
  sql<AnsweredDocumentRow>`select ${sql.join(ANSWERED.map((c) => sql.ref(`d.${c}`)))},
      exists (select 1 from document_files f where f.document_id = d.id and f.organisation_id = d.organisation_id) as has_file,
      ${lines('json_agg', 'json_build_object', 'document_coded_lines', 'c', ANSWERED_CODED)} as coded_lines,
      ${lines('json_agg', 'json_build_object', 'document_invoice_lines', 'i', ANSWERED_INVOICE)} as invoice_lines
    from documents d
    where d.organisation_id = ${v.organisationId} and d.id = any(${v.ids}::text[])`.compile(db),
);

/**
 * SQLite: the same in one statement whose one value is the JSON of every document found, lines and
 * all, built by SQLite (a scalar subquery keeps its JSON type inside the object, where a column of a
 * subquery in FROM would not; aggregate ORDER BY since SQLite 3.44), parsed once here: one message
 * to a reader where three statements took three, and no row objects made for them (server CPU a
 * call 717 -> 667 µs, docs/performance.md). Compiled once per number of ids.
 */
const sqliteAnsweredStatement = preparedShapes((db, v: { organisationId: string; ids: string[] }) =>
  sql<{ documents: string }>`select json_group_array(json_object(${fields('d', ANSWERED)},
      'has_file', exists (select 1 from document_files f where f.document_id = d.id and f.organisation_id = d.organisation_id),
      'coded_lines', ${lines('json_group_array', 'json_object', 'document_coded_lines', 'c', ANSWERED_CODED)},
      'invoice_lines', ${lines('json_group_array', 'json_object', 'document_invoice_lines', 'i', ANSWERED_INVOICE)})) as documents
    from documents d
    where d.organisation_id = ${v.organisationId} and d.id in (${sql.join(v.ids)})`.compile(db),
);

/** The organisation's documents among these ids (in no particular order), each with its file flag and lines. */
export async function getAnsweredDocuments(db: Kysely<Database>, organisationId: string, ids: string[]): Promise<AnsweredDocumentRow[]> {
  if (ids.length === 0) return [];
  if (dialectOf(db) === 'postgres') return answeredDocumentsStatement(db, { organisationId, ids: textArrayLiteral(ids) });
  const [row] = await sqliteAnsweredStatement(db, '', { organisationId, ids });
  return row ? (JSON.parse(row.documents) as AnsweredDocumentRow[]) : [];
}

export interface DocumentFileInfo {
  documentId: string;
  /** null when the document has no file */
  file: { fileName: string; contentType: string; size: number } | null;
}

/** A document's file lookups, compiled once (named on PostgreSQL: a point lookup has one plan). */
const fileInfoStatement = preparedQuery((db, v: { organisationId: string; documentId: string }) =>
  db
    .selectFrom('documents as d')
    .leftJoin('document_files as f', (join) => join.onRef('f.document_id', '=', 'd.id').onRef('f.organisation_id', '=', 'd.organisation_id'))
    .select(['d.id', 'f.file_name', 'f.content_type', 'f.size'])
    .where('d.organisation_id', '=', v.organisationId)
    .where('d.id', '=', v.documentId)
    .compile(),
);
const fileDataStatement = preparedQuery((db, v: { organisationId: string; documentId: string }) =>
  db.selectFrom('document_files').select('data').where('organisation_id', '=', v.organisationId).where('document_id', '=', v.documentId).compile(),
);

/** A document and its file's description, without the content; undefined when no such document. */
export async function getDocumentFileInfo(db: Kysely<Database>, organisationId: string, documentId: string): Promise<DocumentFileInfo | undefined> {
  const [row] = await fileInfoStatement(db, { organisationId, documentId });
  if (!row) return undefined;
  const file =
    row.file_name !== null && row.content_type !== null && row.size !== null
      ? { fileName: row.file_name, contentType: row.content_type, size: Number(row.size) }
      : null;
  return { documentId: row.id, file };
}

/** A document file's content. */
export async function getDocumentFileData(db: Kysely<Database>, organisationId: string, documentId: string): Promise<Buffer | undefined> {
  const [row] = await fileDataStatement(db, { organisationId, documentId });
  if (!row) return undefined;
  // both drivers hand back a Buffer; copy only if a driver ever gives a plain Uint8Array
  return Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data as Uint8Array);
}

/**
 * Which of these accounting-system transaction ids a document of the service was published as:
 * what the connected system supplies for them is the service's own document, not another one.
 */
export async function publishedTransactionIds(db: Kysely<Database>, organisationId: string, transactionIds: string[]): Promise<Set<string>> {
  if (transactionIds.length === 0) return new Set();
  const found = new Set<string>();
  // in chunks, so a long list never meets a database's limit on bound parameters
  for (let i = 0; i < transactionIds.length; i += 500) {
    const rows = await db
      .selectFrom('documents')
      .select('accounting_transaction_id')
      .where('organisation_id', '=', organisationId)
      .where('accounting_transaction_id', 'in', transactionIds.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.accounting_transaction_id) found.add(r.accounting_transaction_id);
  }
  return found;
}
