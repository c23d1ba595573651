import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * A mirror whose passes fail is backed off (issue 38, item 1; src/accounting/mirror/; migration 021, after 020-bank-statements): how many
 * passes in a row have failed, when the next may run in the background (the warm-up), and what the
 * last one failed with. Kept on the mirror's row, so every instance (and a restart) backs off the
 * same organisation alike instead of trying it every 30 s and spending its vendor's call budget.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .alterTable('accounting_mirrors')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('accounting_mirrors').addColumn('retry_at', 'text').execute();
  await db.schema.alterTable('accounting_mirrors').addColumn('problem', 'text').execute();
}
