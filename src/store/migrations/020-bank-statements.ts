import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Statement balances, import batches and bank-to-book links (issue 40).
 *
 * - bank_imports: one row per imported file (a batch): the file, its format, what it added, who
 *   imported it and when. Its lines (bank_transactions.import_id) and statements are removed with it.
 * - bank_statements: each statement's own balances (opening and closing with their dates, the
 *   available balance OFX gives, the difference between its lines and its balances), and the
 *   opening balance an admin enters for an account (kind 'opening_balance', no import). The
 *   account's balance is anchored on the earliest of them (store/bank-balances.ts).
 * - bank_transactions.import_id: the batch a line came in with; null for lines from before and the demo's.
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('bank_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull())
    .addColumn('already_present', 'integer', (c) => c.notNull())
    .addColumn('skipped', 'integer', (c) => c.notNull())
    // no foreign key: who imported stays on record after the person is gone; null from the command line
    .addColumn('created_by', 'text')
    .addColumn('created_via', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_imports_account').on('bank_imports').columns(['organisation_id', 'bank_account_id', 'created_at']).execute();

  await db.schema
    .createTable('bank_statements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('import_id', 'text', (c) => c.references('bank_imports.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('opening_amount', 'bigint')
    .addColumn('opening_home', 'bigint')
    .addColumn('opening_date', 'text')
    .addColumn('opening_derived', 'integer', (c) => c.notNull())
    .addColumn('closing_amount', 'bigint')
    .addColumn('closing_date', 'text')
    .addColumn('available_amount', 'bigint')
    .addColumn('available_date', 'text')
    .addColumn('entries_amount', 'bigint', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull())
    .addColumn('difference', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_statements_account').on('bank_statements').columns(['organisation_id', 'bank_account_id', 'start_date']).execute();
  await db.schema.createIndex('bank_statements_import').on('bank_statements').columns(['import_id']).execute();

  await db.schema.alterTable('bank_transactions').addColumn('import_id', 'text').execute();
  await db.schema.createIndex('bank_transactions_import').on('bank_transactions').columns(['organisation_id', 'import_id']).execute();
}
