import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * The web pages' state: people's sessions (the cookie's value is never stored, only its SHA-256)
 * and the audit log of every change made through the pages.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // password | external
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    // the absolute end, whatever the activity
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').columns(['user_id']).execute();
  await db.schema.createIndex('web_sessions_expires').on('web_sessions').columns(['expires_at']).execute();

  // no foreign keys: the log outlives the users and clients it names
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text')
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_organisation').on('audit_log').columns(['organisation_id', 'created_at']).execute();
}
