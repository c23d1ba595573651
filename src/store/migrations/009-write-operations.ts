import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Write operations: who created a document (a submitter may change only their own), the keys that
 * make a retried create safe (Idempotency-Key), and the default role policy of the new operations
 * for every organisation that exists already (new ones are seeded from the operations themselves).
 * The roles are written out here, not read from the operations, so this migration does the same
 * thing whenever it runs.
 */
const NEW_OPERATION_ROLES: Record<string, string[]> = {
  'documents.create': ['super_admin', 'admin', 'submitter'],
  'documents.update': ['super_admin', 'admin', 'submitter'],
  'documents.delete': ['super_admin', 'admin', 'submitter'],
  'bills.create_saved_filter': ['super_admin', 'admin'],
  'bills.update_saved_filter': ['super_admin', 'admin'],
  'bills.delete_saved_filter': ['super_admin', 'admin'],
};

export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  // a user id, or client:<client id> for an organisation's own API client; null for older documents
  await db.schema.alterTable('documents').addColumn('created_by', 'text').execute();
  await db.schema.alterTable('documents').addColumn('updated_at', 'text').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    // user:<id> or client:<id>: one caller's key never answers another caller
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // the answer as JSON, null while the first request is still running
    .addColumn('answer', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['organisation_id', 'caller', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').columns(['organisation_id', 'created_at']).execute();

  await db.schema.createIndex('bills_org_document').on('bills').columns(['organisation_id', 'document_id']).execute();
  await db.schema.createIndex('bill_filters_org_name').on('bill_filters').columns(['organisation_id', 'name']).execute();

  const organisations = (await db.selectFrom('organisations').select('id').execute()) as { id: string }[];
  const rows = organisations.flatMap((o) =>
    Object.entries(NEW_OPERATION_ROLES).flatMap(([operation, roles]) => roles.map((role) => ({ organisation_id: o.id, operation, role }))),
  );
  for (let i = 0; i < rows.length; i += 300) {
    await db
      .insertInto('operation_roles')
      .values(rows.slice(i, i + 300))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}
