/**
 * The few fields that name one of the service's own documents in a list (the Documents page's
 * published and unpublished lists, the Reconcile page's documents to match): selected and read
 * the same way wherever such a list is built, so the lists cannot drift apart.
 */
import type { DocumentRow } from './schema.js';

/** What names one of the service's documents to a person, wherever it is listed or shown (the pages too). */
export interface DocumentNaming {
  id: string;
  type: string;
  number: string;
  supplier: string;
  date: string;
  currency: string;
}

export interface DocumentSummary extends DocumentNaming {
  /** minor units */
  total: number;
}

/** The summary's columns of `documents as d`. */
export const DOCUMENT_SUMMARY_COLUMNS = ['d.id', 'd.type', 'd.number', 'd.supplier', 'd.date', 'd.currency', 'd.total'] as const;

export function documentSummaryOf(r: Pick<DocumentRow, keyof DocumentSummary>): DocumentSummary {
  // bigint columns come back as text on PostgreSQL
  return { id: r.id, type: r.type, number: r.number, supplier: r.supplier, date: r.date, currency: r.currency, total: Number(r.total) };
}
