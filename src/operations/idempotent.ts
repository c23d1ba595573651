/**
 * Idempotency-Key for creates (store/idempotency.ts keeps the keys): the first request with a key
 * runs and its answer is kept; the same request again gets that answer; the key sent with another
 * request, or while the first still runs, is refused. Updates and deletes need no key: doing one
 * twice leaves the records as doing it once does.
 */
import { reviveLinks } from './links.js';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { claimIdempotencyKey, recordIdempotentAnswer, releaseIdempotencyKey } from '../store/idempotency.js';
import type { Database } from '../store/schema.js';
import type { Principal } from './context.js';
import { invalidParameter, OperationError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Printable ASCII without spaces, as the IETF draft's examples and every major API's keys are (UUIDs and the like). */
export function checkIdempotencyKey(key: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw invalidParameter(IDEMPOTENCY_HEADER, 'must be 1 to 255 printable ASCII characters without spaces, e.g. a UUID');
  return key;
}

/**
 * Keeps the answer of the run with what the run wrote: `keep` records it through the run's own
 * transaction (OperationContext.keepAnswer), so a failure after the commit cannot free the key and let
 * the retry create a second record; the retry is answered what the first wrote. A run that does not
 * keep its answer has it recorded after it returns, as before.
 */
export async function runIdempotent(
  db: Kysely<Database>,
  scope: { organisationId: string; principal: Principal; operation: string; key: string; input: unknown },
  run: (keep: (trx: Kysely<Database>, answer: unknown) => Promise<void>) => Promise<unknown>,
): Promise<unknown> {
  const p = scope.principal;
  const k = {
    organisationId: scope.organisationId,
    caller: p.kind === 'user' ? `user:${p.userId}` : `client:${p.clientId}`,
    key: scope.key,
    operation: scope.operation,
    requestHash: createHash('sha256').update(JSON.stringify(scope.input)).digest('hex'),
  };
  const claim = await claimIdempotencyKey(db, k);
  // the answer as it was kept, its links (stored as what they point at: links.ts) links again
  if (claim.state === 'answered') return reviveLinks(claim.answer);
  if (claim.state === 'in_progress')
    throw new OperationError('idempotency_key_in_use', `a request with Idempotency-Key ${scope.key} is still being processed; retry in a moment`);
  if (claim.state === 'other_request')
    throw new OperationError(
      'idempotency_key_reused',
      `Idempotency-Key ${scope.key} was used for a different request in the last 24 hours; use a new key for a new request`,
    );
  let kept = false;
  const keep = async (trx: Kysely<Database>, answer: unknown) => {
    await recordIdempotentAnswer(trx, k, answer);
    kept = true;
  };
  try {
    const answer = await run(keep);
    // kept inside a transaction that committed (the run returned); otherwise recorded now
    if (!kept) await recordIdempotentAnswer(db, k, answer);
    return answer;
  } catch (error) {
    // only a key without an answer is let go: one kept with a committed write stays for the retry
    await releaseIdempotencyKey(db, k);
    throw error;
  }
}
