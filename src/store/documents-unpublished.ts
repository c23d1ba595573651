/** The service's own documents not yet published to the books, newest first, for the Documents page. */
import type { Kysely } from 'kysely';
import { DOCUMENT_SUMMARY_COLUMNS, documentSummaryOf, type DocumentSummary } from './document-summaries.js';
import type { Database } from './schema.js';

export interface UnpublishedDocument extends DocumentSummary {
  createdAt: string;
  fileName: string | null;
}

export async function listUnpublishedDocuments(db: Kysely<Database>, organisationId: string, limit = 50): Promise<UnpublishedDocument[]> {
  const rows = await db
    .selectFrom('documents as d')
    .leftJoin('document_files as f', (join) => join.onRef('f.document_id', '=', 'd.id').onRef('f.organisation_id', '=', 'd.organisation_id'))
    .select([...DOCUMENT_SUMMARY_COLUMNS, 'd.created_at', 'f.file_name'])
    .where('d.organisation_id', '=', organisationId)
    .where('d.published_at', 'is', null)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    ...documentSummaryOf(r),
    createdAt: r.created_at,
    fileName: r.file_name ?? null,
  }));
}
