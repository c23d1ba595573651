/**
 * The service documents that were published as given accounting transactions, with their coded
 * lines, as stored (amounts in minor units of the document's currency): what the ledger's
 * transactions show of the documents behind them (operations/ledger/published-documents.ts).
 */
import type { Kysely } from 'kysely';
import { DOCUMENT_SUMMARY_COLUMNS } from './document-summaries.js';
import { preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

export interface DocumentOfTransaction {
  id: string;
  number: string;
  type: string;
  supplier: string;
  date: string;
  currency: string;
  /** minor units */
  total: number;
  /** its coded lines in order, amounts in minor units */
  lines: { description: string; account: string | null; quantity: number; subtotal: number; tax: number; total: number }[];
}

// the documents and their coded lines in one statement: a document without lines comes back once,
// its line columns null; compiled once per number of transactions and named on PostgreSQL
// (prepared.ts: a lookup by ids, whose generic plan is the custom one)
const documentsStatement = preparedShapes(
  (db, v: { organisationId: string; transactionIds: string[] }) =>
    db
      .selectFrom('documents as d')
      .leftJoin('document_coded_lines as l', (join) => join.onRef('l.document_id', '=', 'd.id').onRef('l.organisation_id', '=', 'd.organisation_id'))
      .select([
        ...DOCUMENT_SUMMARY_COLUMNS,
        'd.accounting_transaction_id',
        'l.line_no',
        'l.description',
        'l.account_name',
        'l.quantity',
        'l.subtotal',
        'l.tax',
        'l.total as line_total',
      ])
      .where('d.organisation_id', '=', v.organisationId)
      .where('d.accounting_transaction_id', 'in', v.transactionIds)
      // not by document: that order would walk every document of the organisation (documents_org_id)
      .orderBy('l.line_no')
      .orderBy('l.id')
      .compile(),
  { genericPlan: true },
);

/** The documents published as these transactions, by transaction id. */
export async function documentsByTransaction(
  db: Kysely<Database>,
  organisationId: string,
  transactionIds: string[],
): Promise<Map<string, DocumentOfTransaction>> {
  const result = new Map<string, DocumentOfTransaction>();
  if (transactionIds.length === 0) return result;
  const rows = await documentsStatement(db, '', { organisationId, transactionIds: [...new Set(transactionIds)] });
  const byId = new Map<string, DocumentOfTransaction>();
  for (const r of rows) {
    let doc = byId.get(r.id);
    if (!doc) {
      doc = { id: r.id, number: r.number, type: r.type, supplier: r.supplier, date: r.date, currency: r.currency, total: Number(r.total), lines: [] };
      byId.set(r.id, doc);
      result.set(r.accounting_transaction_id!, doc);
    }
    if (r.line_no === null) continue;
    doc.lines.push({
      description: r.description!,
      account: r.account_name,
      quantity: Number(r.quantity),
      subtotal: Number(r.subtotal),
      tax: Number(r.tax),
      total: Number(r.line_total),
    });
  }
  return result;
}
