/**
 * The web pages' tables (migration 003-web): their rows are in schema-web.ts, part of schema.ts's
 * Database like every other table.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export type { AuditLogRow, WebSessionRow, WebTables } from './schema-web.js';

/** Database itself: the web tables are part of it. */
export type WebDatabase = Database;

/** The handle as given: Database holds the web tables (kept for the callers that still name them). */
export function withWebTables(db: Kysely<Database>): Kysely<WebDatabase> {
  return db;
}
