import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Membership by invitation (issue 36, finding 2). Until now an admin added any existing user to
 * their organisation without asking them, and an "all organisations" consent of that user then
 * covered it: its admin saw the user's connections and could end them everywhere.
 *
 * - invitations: one row per invitation an admin makes; the link's secret is kept as its SHA-256
 *   only, so a copy of the database accepts nothing.
 * - memberships.joined_by: how the person came in — 'invitation' (accepted), 'creator' (made the
 *   organisation), 'operator' (`ledgerline members add`); null for memberships from before. An
 *   "all organisations" consent covers the memberships the person had when they gave it and the
 *   ones they later made themselves (invitation, creator), never ones they were put in since.
 * - oauth_consent_exclusions: an organisation's admin disconnecting an "all organisations"
 *   connection takes that organisation out of it, not the whole connection.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('joined_by', 'text').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // no foreign keys: who invited and who accepted stay on record after the person is gone
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text')
    .execute();
  await db.schema.createIndex('invitations_org').on('invitations').columns(['organisation_id', 'created_at']).execute();

  await db.schema
    .createTable('oauth_consent_exclusions')
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_consents.grant_id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('oauth_consent_exclusions_pk', ['grant_id', 'organisation_id'])
    .execute();
}
