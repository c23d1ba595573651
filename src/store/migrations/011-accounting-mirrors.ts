import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * The local mirror of a Xero or QuickBooks organisation's books (issue 16, src/accounting/mirror/):
 * - accounting_mirrors: one row per mirrored organisation, what the last pass reached (the vendor's
 *   own cursors, JSON), a version that grows with every pass that changed something (the connector's
 *   changeToken, so kept answers stay right), whether the first full copy is done, and a lease so
 *   one instance at a time runs a pass;
 * - accounting_mirror_records: the vendor's records as the vendor sent them (JSON), by list and id,
 *   with `ref` the record it belongs to (a Xero journal's source document), for what is read from
 *   the records themselves (bills to pay, documents, bank accounts).
 * The ledger lines, chart and contacts are written into the builtin ledger's acct_* tables under
 * ids prefixed with the organisation's id, so the same indexed statements and stored totals answer
 * them; acct_transactions gains the vendor's link and the system document a transaction posted.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('accounting_mirrors')
    .addColumn('organisation_id', 'text', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('complete', 'integer', (c) => c.notNull())
    .addColumn('synced_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .execute();

  await db.schema
    .createTable('accounting_mirror_records')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('accounting_mirror_records_pk', ['organisation_id', 'list', 'id'])
    .execute();
  await db.schema.createIndex('accounting_mirror_records_ref').on('accounting_mirror_records').columns(['organisation_id', 'list', 'ref']).execute();

  await db.schema.alterTable('acct_transactions').addColumn('link', 'text').execute();
  await db.schema.alterTable('acct_transactions').addColumn('document_id', 'text').execute();
}
