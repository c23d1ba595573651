import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Verification of an app by one organisation's admins, for that organisation only. Until now an
 * admin's "Verify" set oauth_clients.verified, which every organisation's consent screen read; that
 * column now means the operator's verification alone (`ledgerline apps register` / `apps verify`).
 *
 * Existing data: an app an admin registered on an organisation's page (kind app with an
 * organisation) and a self-registered app an admin verified become verifications by that
 * organisation, the latter found in the audit log (app.verified, with the organisation, the admin
 * and the time). A self-registered app marked verified with no such entry cannot be attributed, so
 * its mark is cleared: showing it unverified is the safe side, and an admin verifies it again in
 * one click.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('oauth_client_verifications')
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // no foreign key: who verified stays on record after the person is gone, as in the audit log
    .addColumn('verified_by', 'text')
    .addColumn('verified_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_client_verifications_pk', ['client_id', 'organisation_id'])
    .execute();
  await db.schema.createIndex('oauth_client_verifications_org').on('oauth_client_verifications').columns(['organisation_id']).execute();

  const organisations = new Set((await db.selectFrom('organisations').select('id').execute()).map((o: { id: string }) => o.id));
  const rows = new Map<string, { client_id: string; organisation_id: string; verified_by: string | null; verified_at: string }>();
  const keep = (r: { client_id: string; organisation_id: string | null; verified_by: string | null; verified_at: string }) => {
    if (!r.organisation_id || !organisations.has(r.organisation_id)) return;
    rows.set(`${r.client_id} ${r.organisation_id}`, { ...r, organisation_id: r.organisation_id });
  };

  const registered = await db
    .selectFrom('oauth_clients')
    .select(['client_id', 'organisation_id', 'created_by', 'created_at'])
    .where('kind', '=', 'app')
    .where('organisation_id', 'is not', null)
    .where('verified', '=', 1)
    .execute();
  for (const r of registered) keep({ client_id: r.client_id, organisation_id: r.organisation_id, verified_by: r.created_by, verified_at: r.created_at });

  const verifiedSelf = await db
    .selectFrom('oauth_clients')
    .select('client_id')
    .where('kind', 'in', ['dynamic', 'metadata_document'])
    .where('verified', '=', 1)
    .execute();
  const ids = verifiedSelf.map((r: { client_id: string }) => r.client_id);
  if (ids.length) {
    // oldest first, so the newest verification by an organisation is the one kept
    const audited = await db
      .selectFrom('audit_log')
      .select(['target', 'organisation_id', 'actor_user_id', 'created_at'])
      .where('action', '=', 'app.verified')
      .where('target', 'in', ids)
      .orderBy('created_at')
      .execute();
    for (const a of audited) keep({ client_id: a.target, organisation_id: a.organisation_id, verified_by: a.actor_user_id, verified_at: a.created_at });
  }

  if (rows.size)
    await db
      .insertInto('oauth_client_verifications')
      .values([...rows.values()])
      .execute();
  // the column is the operator's mark from now on: organisations' marks leave it
  await db
    .updateTable('oauth_clients')
    .set({ verified: 0 })
    .where((eb) => eb.or([eb('kind', 'in', ['dynamic', 'metadata_document']), eb.and([eb('kind', '=', 'app'), eb('organisation_id', 'is not', null)])]))
    .execute();
}
