import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Blocking an app for one organisation (issue 36). Until now an admin's "Block" set
 * oauth_clients.blocked, which the token check read for every organisation, so one tenant's admin
 * could cut every other tenant off an app (and undo another tenant's block). That column now means
 * the operator's block alone (`ledgerline apps block`); an organisation's block is a row here and
 * holds for that organisation only.
 *
 * Existing data: a blocked self-registered app whose block is found in the audit log (its newest
 * app.blocked / app.unblocked entry per organisation is a block) becomes a block by each such
 * organisation, and the global mark is cleared. A blocked app with no such entry cannot be
 * attributed and keeps the global mark: staying blocked is the safe side, and only the operator
 * can clear it.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('oauth_client_blocks')
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // no foreign key: who blocked stays on record after the person is gone, as in the audit log
    .addColumn('blocked_by', 'text')
    .addColumn('blocked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_client_blocks_pk', ['client_id', 'organisation_id'])
    .execute();
  await db.schema.createIndex('oauth_client_blocks_org').on('oauth_client_blocks').columns(['organisation_id']).execute();

  const blocked: string[] = (await db.selectFrom('oauth_clients').select('client_id').where('blocked', '=', 1).execute()).map(
    (r: { client_id: string }) => r.client_id,
  );
  if (!blocked.length) return;
  const organisations = new Set((await db.selectFrom('organisations').select('id').execute()).map((o: { id: string }) => o.id));
  // oldest first, so each organisation's newest entry decides
  const audited: { target: string; organisation_id: string | null; actor_user_id: string | null; action: string; created_at: string }[] = await db
    .selectFrom('audit_log')
    .select(['target', 'organisation_id', 'actor_user_id', 'action', 'created_at'])
    .where('action', 'in', ['app.blocked', 'app.unblocked'])
    .where('target', 'in', blocked)
    .orderBy('created_at')
    .execute();
  const latest = new Map<string, (typeof audited)[number]>();
  for (const a of audited) if (a.organisation_id && organisations.has(a.organisation_id)) latest.set(`${a.target} ${a.organisation_id}`, a);
  const rows = [...latest.values()]
    .filter((a) => a.action === 'app.blocked')
    .map((a) => ({ client_id: a.target, organisation_id: a.organisation_id!, blocked_by: a.actor_user_id, blocked_at: a.created_at }));
  if (!rows.length) return;
  await db.insertInto('oauth_client_blocks').values(rows).execute();
  await db
    .updateTable('oauth_clients')
    .set({ blocked: 0 })
    .where('client_id', 'in', [...new Set(rows.map((r) => r.client_id))])
    .execute();
}
