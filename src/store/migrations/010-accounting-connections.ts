import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Accounting connections (issue 16): an organisation's OAuth connection to a Xero tenant or a
 * QuickBooks company, its tokens sealed with LEDGERLINE_CONNECTION_KEYS (src/accounting/connections/
 * keys.ts), a version that grows with every rotation and a refresh claim (lease) so one instance
 * refreshes at a time; and the sign-ins in progress (state, PKCE verifier, tokens before a tenant is
 * chosen), sealed too.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('accounting_connections')
    .addColumn('organisation_id', 'text', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
    // xero | quickbooks
    .addColumn('vendor', 'text', (c) => c.notNull())
    // Xero's tenant id, QuickBooks' realm id
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('tenant_name', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('access_expires_at', 'text', (c) => c.notNull())
    // active | reconnect (the vendor refused the refresh token)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('problem', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounting_connection_requests')
    // SHA-256 of the state sent to the vendor
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // sealed JSON: the PKCE verifier; after the callback, the tokens and the tenants to choose from
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}
