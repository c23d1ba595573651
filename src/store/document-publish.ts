/**
 * A publish's record on its document (documents.publish). For a system outside the database the
 * intent is written before the system is called (publish_state 'pending' with the key every try is
 * sent under), the result after; a try that finds the intent already there is a retry of a publish
 * whose outcome was not known, and looks it up before it writes anything (exactly once).
 */
import type { Kysely } from 'kysely';
import { newId, nowIso } from './ids.js';
import type { Database, DocumentRow } from './schema.js';

type Db = Kysely<Database>;

export interface PublishPlanStored {
  paidFrom: string | null;
  exchangeRate: string | null;
}

export type PublishStart =
  | { state: 'new'; key: string; plan: PublishPlanStored }
  /** an earlier try's outcome is unknown: its key and what it was sent with */
  | { state: 'retry'; key: string; plan: PublishPlanStored }
  | { state: 'published'; row: DocumentRow }
  | { state: 'gone' };

/**
 * Records the intent to publish (in the builtin ledger's case, inside the transaction that then
 * writes the books, where it is the row's claim), or finds the earlier one. The update is conditional, so of two
 * tries at once one records the intent and the other reads it as a retry: both send the same key,
 * and the system's idempotency makes one transaction of them.
 */
export async function startPublish(db: Db, organisationId: string, documentId: string, plan: PublishPlanStored): Promise<PublishStart> {
  const key = newId('pub');
  const started = await db
    .updateTable('documents')
    .set({ publish_state: 'pending', publish_key: key, publish_started_at: nowIso(), paid_from: plan.paidFrom, exchange_rate: plan.exchangeRate })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', documentId)
    .where('publish_state', 'is', null)
    .where('published_at', 'is', null)
    .executeTakeFirst();
  if (Number(started.numUpdatedRows) === 1) return { state: 'new', key, plan };
  const row = await db.selectFrom('documents').selectAll().where('organisation_id', '=', organisationId).where('id', '=', documentId).executeTakeFirst();
  if (!row) return { state: 'gone' };
  if (row.published_at !== null) return { state: 'published', row };
  return { state: 'retry', key: row.publish_key!, plan: { paidFrom: row.paid_from ?? null, exchangeRate: row.exchange_rate ?? null } };
}

/** Marks the document published under the key its intent holds; false when another try already did. */
export async function finishPublish(
  db: Db,
  organisationId: string,
  documentId: string,
  key: string,
  result: { transactionId: string; documentId: string; link: string | null },
  /** what it was published with: the account a receipt was paid from (its ledger account id), the rate */
  plan: { paidFromAccountId: string | null; exchangeRate: string | null },
): Promise<boolean> {
  const update = await db
    .updateTable('documents')
    .set({
      publish_state: 'published',
      published_at: nowIso(),
      accounting_transaction_id: result.transactionId,
      accounting_document_id: result.documentId,
      accounting_link: result.link,
      paid_from: plan.paidFromAccountId,
      exchange_rate: plan.exchangeRate,
    })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', documentId)
    .where('published_at', 'is', null)
    .where('publish_key', '=', key)
    .executeTakeFirst();
  return Number(update.numUpdatedRows) === 1;
}

/** The system refused the publish: nothing was written, so the intent is dropped and the document may change again. */
export async function abandonPublish(db: Db, organisationId: string, documentId: string, key: string): Promise<void> {
  await db
    .updateTable('documents')
    .set({ publish_state: null, publish_key: null, publish_started_at: null })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', documentId)
    .where('publish_key', '=', key)
    .where('publish_state', '=', 'pending')
    .execute();
}
