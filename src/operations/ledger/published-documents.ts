/** The service documents that were published as given accounting transactions, with their coded lines, in major units. */
import type { Kysely } from 'kysely';
import { toMajor } from '../../domain/money.js';
import { documentsByTransaction } from '../../store/documents-by-transaction.js';
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

export async function publishedDocuments(db: Kysely<Database>, organisationId: string, transactionIds: string[]): Promise<Map<string, PublishedDocument>> {
  const result = new Map<string, PublishedDocument>();
  for (const [transactionId, doc] of await documentsByTransaction(db, organisationId, transactionIds)) {
    const major = (minor: number) => toMajor(minor, doc.currency);
    result.set(transactionId, {
      ...doc,
      total: major(doc.total),
      lines: doc.lines.map((l) => ({ ...l, subtotal: major(l.subtotal), tax: major(l.tax), total: major(l.total) })),
    });
  }
  return result;
}
