/**
 * The service documents that were published as given accounting transactions, with their coded
 * lines, as stored (amounts in minor units of the document's currency): what the ledger's
 * transactions show of the documents behind them (operations/ledger/published-documents.ts).
 */
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './dialect.js';
import { DOCUMENT_SUMMARY_COLUMNS, type DocumentNaming } from './document-summaries.js';
import { textArrayLiteral } from './pg-text-array.js';
import { paddedSet, preparedQuery, preparedShapes } from './prepared.js';
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

/** A document with one of its coded lines, or once with the line's columns null when it has none (DOCUMENT_SUMMARY_COLUMNS first). */
interface DocumentLineRow extends DocumentNaming {
  total: number | string;
  accounting_transaction_id: string | null;
  line_no: number | null;
  description: string | null;
  account_name: string | null;
  quantity: string | null;
  subtotal: number | string | null;
  tax: number | string | null;
  line_total: number | string | null;
}

/**
 * SQLite: the documents and their coded lines in one statement, the ids as an `in` list, which it
 * reads by documents_org_txn one id at a time. Ordered by line only: ordered by document, it would
 * walk every document of the organisation (documents_org_id).
 */
function inListQuery(db: Kysely<Database>, v: { organisationId: string; transactionIds: string[] }): CompiledQuery<DocumentLineRow> {
  return db
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
    .orderBy('l.line_no')
    .orderBy('l.id')
    .compile();
}

/**
 * PostgreSQL: the same rows in the same order, each id's documents and each document's lines read by
 * a lateral subquery that `offset 0` keeps from being flattened into a join, so the planner's only
 * choice for each is its index (documents_org_txn, document_coded_lines_doc) or a scan of the whole
 * table per id, whatever the session's cost settings. As a join (the `in` form), a page of a few
 * hundred ids or more was planned as sequential scans of both tables into a hash join (a page of
 * 1,000 lines 20-39 ms against 6 by the indexes; docs/performance.md). The ids come as one text[]
 * value, distinct: unnest keeps a repeated id, which would repeat its documents' rows.
 */
function lateralQuery(db: Kysely<Database>, v: { organisationId: string; transactionIds: string }): CompiledQuery<DocumentLineRow> {
  const documentColumns = sql.join([...DOCUMENT_SUMMARY_COLUMNS, 'd.accounting_transaction_id'].map((c) => sql.ref(c)));
  return sql<DocumentLineRow>`select ${documentColumns},
      l.line_no, l.description, l.account_name, l.quantity, l.subtotal, l.tax, l.total as line_total
    from unnest(${v.transactionIds}::text[]) as t(id)
    cross join lateral (
      select ${documentColumns}
      from documents d
      where d.organisation_id = ${v.organisationId} and d.accounting_transaction_id = t.id
      offset 0
    ) d
    left join lateral (
      select l.id, l.line_no, l.description, l.account_name, l.quantity, l.subtotal, l.tax, l.total
      from document_coded_lines l
      where l.document_id = d.id and l.organisation_id = ${v.organisationId}
      offset 0
    ) l on true
    order by l.line_no, l.id`.compile(db);
}

// compiled once per number of ids, which are padded to a power of two (paddedSet) so that a few shapes serve every page
const inListStatement = preparedShapes(inListQuery);
// one statement whatever the number of ids, named on PostgreSQL: its plan is the same for any ids
const lateralStatement = preparedQuery(lateralQuery);

/** The statement documentsByTransaction runs for these ids on this database, for its plan to be looked at. */
export function documentsByTransactionQuery(db: Kysely<Database>, organisationId: string, transactionIds: string[]): CompiledQuery<DocumentLineRow> {
  const ids = [...new Set(transactionIds)];
  return dialectOf(db) === 'postgres'
    ? lateralQuery(db, { organisationId, transactionIds: textArrayLiteral(ids) })
    : inListQuery(db, { organisationId, transactionIds: paddedSet(ids) });
}

/** The documents published as these transactions, by transaction id. */
export async function documentsByTransaction(
  db: Kysely<Database>,
  organisationId: string,
  transactionIds: string[],
): Promise<Map<string, DocumentOfTransaction>> {
  const result = new Map<string, DocumentOfTransaction>();
  if (transactionIds.length === 0) return result;
  const ids = [...new Set(transactionIds)];
  const rows =
    dialectOf(db) === 'postgres'
      ? await lateralStatement(db, { organisationId, transactionIds: textArrayLiteral(ids) })
      : await inListStatement(db, '', { organisationId, transactionIds: paddedSet(ids) });
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
