/** The readiness probe's reads: one row of the service's own tables, and of the builtin ledger's. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export async function readsOrganisations(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('organisations').select('id').limit(1).execute();
}

export async function readsLedger(db: Kysely<Database>): Promise<void> {
  await db.selectFrom('acct_accounts').select('id').limit(1).execute();
}
