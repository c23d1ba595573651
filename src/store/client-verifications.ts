/**
 * Who vouches for an app. The operator's verification (oauth_clients.verified, set by `ledgerline
 * apps register` and `apps verify`) holds for everyone; an organisation admin's holds for that
 * organisation only (oauth_client_verifications), since one tenant's admins cannot speak for another's.
 */
import type { Kysely } from 'kysely';
import { nowIso } from './ids.js';
import type { Database } from './schema.js';

/** Records that an admin of this organisation verified the app; verifying again keeps the first record. */
export async function verifyForOrganisation(db: Kysely<Database>, v: { clientId: string; organisationId: string; userId: string | null }): Promise<void> {
  await db
    .insertInto('oauth_client_verifications')
    .values({ client_id: v.clientId, organisation_id: v.organisationId, verified_by: v.userId, verified_at: nowIso() })
    .onConflict((oc) => oc.columns(['client_id', 'organisation_id']).doNothing())
    .execute();
}

/** Of these organisations, the ones whose admins verified the app. */
export async function organisationsVerifying(db: Kysely<Database>, clientId: string, organisationIds: string[]): Promise<Set<string>> {
  if (organisationIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('oauth_client_verifications')
    .select('organisation_id')
    .where('client_id', '=', clientId)
    .where('organisation_id', 'in', organisationIds)
    .execute();
  return new Set(rows.map((r) => r.organisation_id));
}

/** For each of these apps, the organisations whose admins verified it. */
export async function verificationsOf(db: Kysely<Database>, clientIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (clientIds.length === 0) return out;
  const rows = await db
    .selectFrom('oauth_client_verifications')
    .select(['client_id', 'organisation_id'])
    .where('client_id', 'in', [...new Set(clientIds)])
    .execute();
  for (const r of rows) out.set(r.client_id, (out.get(r.client_id) ?? new Set()).add(r.organisation_id));
  return out;
}

/** The apps this organisation's admins verified. */
export async function clientsVerifiedBy(db: Kysely<Database>, organisationId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('oauth_client_verifications').select('client_id').where('organisation_id', '=', organisationId).execute();
  return new Set(rows.map((r) => r.client_id));
}

/** The operator's verification, for every organisation; false when there is no such client. */
export async function setOperatorVerification(db: Kysely<Database>, clientId: string, verified: boolean): Promise<boolean> {
  const r = await db
    .updateTable('oauth_clients')
    .set({ verified: verified ? 1 : 0 })
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
