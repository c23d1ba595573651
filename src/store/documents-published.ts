/**
 * The service's own documents already published to the books, newest published first, for the
 * Documents page (what was published, with its id in the books) and the Reconcile page (the
 * documents a bank line may be matched to instead of its suggestion: published, in no match yet).
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import { DOCUMENT_SUMMARY_COLUMNS, documentSummaryOf, type DocumentSummary } from './document-summaries.js';
import type { Database } from './schema.js';

/** A LIKE pattern matching `text` literally anywhere (backslash is the escape character). */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface PublishedDocument extends DocumentSummary {
  publishedAt: string;
  accountingId: string | null;
  accountingLink: string | null;
  /** whether bank lines are matched to it in the service */
  matched: boolean;
}

export interface PublishedQuery {
  /** only documents no bank line is matched to yet */
  unmatchedOnly?: boolean;
  /** only documents in this currency (a bank account matches documents in its own) */
  currency?: string;
  /** text in the number or the supplier, case-insensitive */
  search?: string;
  limit?: number;
}

export async function listPublishedDocuments(db: Kysely<Database>, organisationId: string, query: PublishedQuery = {}): Promise<PublishedDocument[]> {
  let q = db
    .selectFrom('documents as d')
    .leftJoin('bank_matches as m', (join) => join.onRef('m.document_id', '=', 'd.id').onRef('m.organisation_id', '=', 'd.organisation_id'))
    .select([...DOCUMENT_SUMMARY_COLUMNS, 'd.published_at', 'd.accounting_transaction_id', 'd.accounting_link', 'm.id as match_id'])
    .where('d.organisation_id', '=', organisationId)
    .where('d.published_at', 'is not', null);
  if (query.unmatchedOnly) q = q.where('m.id', 'is', null);
  if (query.currency) q = q.where('d.currency', '=', query.currency);
  const search = query.search?.trim();
  if (search) {
    const pattern = containsPattern(search.toLowerCase());
    q = q.where((eb) =>
      eb.or([sql<SqlBool>`lower(${eb.ref('d.number')}) like ${pattern} escape '\\'`, sql<SqlBool>`lower(${eb.ref('d.supplier')}) like ${pattern} escape '\\'`]),
    );
  }
  const rows = await q
    .orderBy('d.published_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(query.limit ?? 50)
    .execute();
  return rows.map((r) => ({
    ...documentSummaryOf(r),
    publishedAt: r.published_at!,
    accountingId: r.accounting_transaction_id,
    accountingLink: r.accounting_link ?? null,
    matched: r.match_id !== null,
  }));
}
