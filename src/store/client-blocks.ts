/**
 * Who blocks an app. The operator's block (oauth_clients.blocked, set by `ledgerline apps block`)
 * holds for everyone and no organisation can clear it; an organisation admin's holds for that
 * organisation only (oauth_client_blocks), as verification does (client-verifications.ts): one
 * tenant's admins cannot speak for another's. The token check reads both (auth/token-check.ts).
 */
import type { Kysely } from 'kysely';
import { nowIso } from './ids.js';
import type { Database } from './schema.js';

/** An admin of this organisation blocks the app for it; blocking again keeps the first record. */
export async function blockForOrganisation(db: Kysely<Database>, b: { clientId: string; organisationId: string; userId: string | null }): Promise<void> {
  await db
    .insertInto('oauth_client_blocks')
    .values({ client_id: b.clientId, organisation_id: b.organisationId, blocked_by: b.userId, blocked_at: nowIso() })
    .onConflict((oc) => oc.columns(['client_id', 'organisation_id']).doNothing())
    .execute();
}

/** Takes this organisation's block back; the operator's block, if any, stays. */
export async function unblockForOrganisation(db: Kysely<Database>, b: { clientId: string; organisationId: string }): Promise<void> {
  await db.deleteFrom('oauth_client_blocks').where('client_id', '=', b.clientId).where('organisation_id', '=', b.organisationId).execute();
}

/** The apps this organisation's admins blocked. */
export async function clientsBlockedBy(db: Kysely<Database>, organisationId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('oauth_client_blocks').select('client_id').where('organisation_id', '=', organisationId).execute();
  return new Set(rows.map((r) => r.client_id));
}

/** Of these organisations, the ones whose admins blocked the app. */
export async function organisationsBlocking(db: Kysely<Database>, clientId: string, organisationIds: string[]): Promise<Set<string>> {
  if (organisationIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('oauth_client_blocks')
    .select('organisation_id')
    .where('client_id', '=', clientId)
    .where('organisation_id', 'in', organisationIds)
    .execute();
  return new Set(rows.map((r) => r.organisation_id));
}

/** The operator's block, for every organisation; false when there is no such client. */
export async function setOperatorBlock(db: Kysely<Database>, clientId: string, blocked: boolean): Promise<boolean> {
  const r = await db
    .updateTable('oauth_clients')
    .set({ blocked: blocked ? 1 : 0 })
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
