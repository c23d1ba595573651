/** The readiness probe's reads: one row of the service's own tables, and of the builtin ledger's. */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function readsOrganisations(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('organisations').select('id').limit(1).execute();
}

export async function readsLedger(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('acct_accounts').select('id').limit(1).execute();
}

/** A statement that needs no table: the database answers at all (checked at start, before migrating). */
export async function answers(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
