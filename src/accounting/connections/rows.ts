/**
 * Row types of the accounting connection tables (migration 010): kept in store/schema-accounting.ts,
 * part of store/schema.ts's Database; `withConnectionTables` is the handle as given.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export type { AccountingConnectionRequestRow, AccountingConnectionRow, ConnectionTables } from '../../store/schema-accounting.js';

export const withConnectionTables = (db: Kysely<Database>): Kysely<Database> => db;
