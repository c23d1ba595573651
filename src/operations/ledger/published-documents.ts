/** The service documents that were published as given accounting transactions, with their coded lines, in major units. */
import type { Kysely } from 'kysely';
import { toMajor } from '../../domain/money.js';
import { documentsByTransaction, type DocumentOfTransaction } from '../../store/documents-by-transaction.js';
import type { Database } from '../../store/schema.js';

/** A published document as the ledger shows it: the stored one's fields, its amounts in major units. */
export type PublishedDocument = DocumentOfTransaction;

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
