/**
 * What a user approved an app for: the organisations picked on the consent screen (or all of
 * them, which also covers organisations they join later themselves: store/consent-cover.ts),
 * keyed by oidc-provider's grant id.
 */
import type { Kysely } from 'kysely';
import { nowIso } from '../store/ids.js';
import type { Database } from '../store/schema.js';

export interface Consent {
  grantId: string;
  userId: string;
  clientId: string;
  allOrganisations: boolean;
  organisationIds: string[];
  scope: string;
}

export async function saveConsent(db: Kysely<Database>, consent: Consent): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oauth_consents').where('grant_id', '=', consent.grantId).execute();
    await trx
      .insertInto('oauth_consents')
      .values({
        grant_id: consent.grantId,
        user_id: consent.userId,
        client_id: consent.clientId,
        all_organisations: consent.allOrganisations ? 1 : 0,
        scope: consent.scope,
        created_at: nowIso(),
      })
      .execute();
    if (!consent.allOrganisations && consent.organisationIds.length) {
      await trx
        .insertInto('oauth_consent_organisations')
        .values(consent.organisationIds.map((organisation_id) => ({ grant_id: consent.grantId, organisation_id })))
        .execute();
    }
  });
}

export async function findConsent(db: Kysely<Database>, grantId: string): Promise<Consent | undefined> {
  const row = await db.selectFrom('oauth_consents').selectAll().where('grant_id', '=', grantId).executeTakeFirst();
  if (!row) return undefined;
  const orgs = row.all_organisations
    ? []
    : await db.selectFrom('oauth_consent_organisations').select('organisation_id').where('grant_id', '=', grantId).execute();
  return {
    grantId: row.grant_id,
    userId: row.user_id,
    clientId: row.client_id,
    allOrganisations: row.all_organisations === 1,
    organisationIds: orgs.map((o) => o.organisation_id),
    scope: row.scope,
  };
}

/** Revokes a consent at once: the grant and every token issued under it. */
export async function revokeConsent(db: Kysely<Database>, grantId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oauth_store').where('grant_id', '=', grantId).execute();
    await trx.deleteFrom('oauth_store').where('model', '=', 'Grant').where('id', '=', grantId).execute();
    const deleted = await trx.deleteFrom('oauth_consents').where('grant_id', '=', grantId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  });
}

/**
 * An organisation's admin disconnects a connection for their organisation only: it no longer
 * covers that organisation, and goes on covering the person's others. A connection that named no
 * other organisation ends (nothing is left for it to do); one for "all organisations" keeps
 * covering the person's other organisations, and ones they join later themselves.
 */
export async function removeOrganisationFromConsent(db: Kysely<Database>, grantId: string, organisationId: string): Promise<'narrowed' | 'ended'> {
  const ended = await db.transaction().execute(async (trx) => {
    const consent = await trx.selectFrom('oauth_consents').select('all_organisations').where('grant_id', '=', grantId).executeTakeFirst();
    if (!consent) return true;
    if (consent.all_organisations === 1) {
      await trx
        .insertInto('oauth_consent_exclusions')
        .values({ grant_id: grantId, organisation_id: organisationId })
        .onConflict((oc) => oc.columns(['grant_id', 'organisation_id']).doNothing())
        .execute();
      return false;
    }
    await trx.deleteFrom('oauth_consent_organisations').where('grant_id', '=', grantId).where('organisation_id', '=', organisationId).execute();
    const left = await trx.selectFrom('oauth_consent_organisations').select('organisation_id').where('grant_id', '=', grantId).limit(1).executeTakeFirst();
    return !left;
  });
  if (!ended) return 'narrowed';
  await revokeConsent(db, grantId);
  return 'ended';
}
