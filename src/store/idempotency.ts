/**
 * Idempotency keys: a create sent again with the same Idempotency-Key (after a lost answer, a
 * timeout, a retry) gets the first answer back instead of making a second record. A key is one
 * caller's, in one organisation, for 24 hours. The key is claimed before the work starts, so two
 * copies of one request racing each other cannot both create: the second sees it in progress.
 */
import type { Kysely } from 'kysely';
import { nowIso } from './ids.js';
import type { Database } from './schema.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyKey {
  organisationId: string;
  caller: string;
  key: string;
  operation: string;
  /** what the request asked, so the same key sent with another request is refused, not answered */
  requestHash: string;
}

export type Claim = { state: 'claimed' } | { state: 'answered'; answer: unknown } | { state: 'in_progress' } | { state: 'other_request' };

function own(db: Kysely<Database>, k: IdempotencyKey) {
  return db.deleteFrom('idempotency_keys').where('organisation_id', '=', k.organisationId).where('caller', '=', k.caller).where('key', '=', k.key);
}

export async function claimIdempotencyKey(db: Kysely<Database>, k: IdempotencyKey, now: Date = new Date()): Promise<Claim> {
  // keys past their window are forgotten before the claim, so an old key can be used afresh
  const expired = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  await db.deleteFrom('idempotency_keys').where('organisation_id', '=', k.organisationId).where('created_at', '<', expired).execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      organisation_id: k.organisationId,
      caller: k.caller,
      key: k.key,
      operation: k.operation,
      request_hash: k.requestHash,
      answer: null,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['organisation_id', 'caller', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { state: 'claimed' };
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['operation', 'request_hash', 'answer'])
    .where('organisation_id', '=', k.organisationId)
    .where('caller', '=', k.caller)
    .where('key', '=', k.key)
    .executeTakeFirst();
  // gone between the two statements: the first request failed and let it go; claim it again
  if (!row) return claimIdempotencyKey(db, k, now);
  if (row.operation !== k.operation || row.request_hash !== k.requestHash) return { state: 'other_request' };
  if (row.answer === null) return { state: 'in_progress' };
  return { state: 'answered', answer: JSON.parse(row.answer) };
}

export async function recordIdempotentAnswer(db: Kysely<Database>, k: IdempotencyKey, answer: unknown): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(answer) })
    .where('organisation_id', '=', k.organisationId)
    .where('caller', '=', k.caller)
    .where('key', '=', k.key)
    .execute();
}

/** The request failed: the key is free for the retry that should follow. */
export async function releaseIdempotencyKey(db: Kysely<Database>, k: IdempotencyKey): Promise<void> {
  await own(db, k).where('answer', 'is', null).execute();
}
