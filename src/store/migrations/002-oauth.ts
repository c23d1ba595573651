import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * The authorization server's state: clients (ours, with the metadata oidc-provider reads), the
 * provider's own records (tokens, codes, grants, sessions; token ids hashed), consents with the
 * organisations they cover, and secrets generated for the embedded default.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    // api_client (an organisation's own, client_credentials) | app (registered by an admin, verified)
    // | dynamic (self-registered) | metadata_document (a Client ID Metadata Document URL)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('organisation_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_clients_org').on('oauth_clients').columns(['organisation_id']).execute();

  await db.schema
    .createTable('oauth_store')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('account_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oauth_store_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_store_grant').on('oauth_store').columns(['grant_id']).execute();
  await db.schema.createIndex('oauth_store_client').on('oauth_store').columns(['client_id']).execute();
  await db.schema.createIndex('oauth_store_uid').on('oauth_store').columns(['uid']).execute();
  await db.schema.createIndex('oauth_store_expires').on('oauth_store').columns(['expires_at']).execute();

  await db.schema
    .createTable('oauth_consents')
    .addColumn('grant_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('all_organisations', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_consents_user').on('oauth_consents').columns(['user_id']).execute();
  await db.schema.createIndex('oauth_consents_client').on('oauth_consents').columns(['client_id']).execute();

  await db.schema
    .createTable('oauth_consent_organisations')
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_consents.grant_id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('oauth_consent_organisations_pk', ['grant_id', 'organisation_id'])
    .execute();

  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
