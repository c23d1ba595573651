/** The service's documents a bank page's lines are matched to, as the page shows them (operations/banking/linked-document.ts). */
import type { Kysely } from 'kysely';
import { listLines } from './documents.js';
import { paddedSet, preparedShapes } from './prepared.js';
import type { Database, DocumentCodedLineRow, DocumentRow } from './schema.js';

/** What a bank page shows of a linked document (operations/banking/linked-document.ts): these columns only, not its every one. */
const LINKED_DOCUMENT = ['id', 'number', 'type', 'supplier', 'date', 'currency', 'tax', 'total', 'accounting_transaction_id'] as const;
/** And of each of its coded lines: the account it is coded to and its description. */
const LINKED_LINE = ['document_id', 'account_name', 'description'] as const;

export interface LinkedDocument {
  document: Pick<DocumentRow, (typeof LINKED_DOCUMENT)[number]>;
  codedLines: Pick<DocumentCodedLineRow, (typeof LINKED_LINE)[number]>[];
}

/** The documents by id, compiled once per padded number of ids (lookups by ids: named on PostgreSQL); their coded lines in line order. */
const linkedDocumentsStatement = preparedShapes(
  (db, v: { organisationId: string; ids: string[] }) =>
    db.selectFrom('documents').select(LINKED_DOCUMENT).where('organisation_id', '=', v.organisationId).where('id', 'in', v.ids).compile(),
  { genericPlan: true },
);
const linkedLines = listLines('document_coded_lines', LINKED_LINE);

/**
 * The documents the given ids name, each with its coded lines in line order (two statements), read
 * only as far as the page shows them (the whole rows were read, sent from the reader and made into
 * objects for a few of their columns).
 */
export async function linkedDocuments(db: Kysely<Database>, organisationId: string, documentIds: string[]): Promise<Map<string, LinkedDocument>> {
  if (documentIds.length === 0) return new Map();
  const v = { organisationId, ids: paddedSet(documentIds) };
  const [documents, lines] = await Promise.all([linkedDocumentsStatement(db, '', v), linkedLines(db, organisationId, v.ids)]);
  const linked = new Map<string, LinkedDocument>(documents.map((document) => [document.id, { document, codedLines: [] }]));
  for (const line of lines) linked.get(line.document_id)?.codedLines.push(line);
  return linked;
}
