import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Read paths at scale (measured in docs/performance.md), each filled from the lines already there:
 * - acct_day_totals: per account and day, the sum of its lines, so the partial months at the ends
 *   of a report's ranges cost a few hundred rows instead of every line of those days;
 * - acct_month_line_totals: per account, month, transaction type and contact, the sum and count of
 *   the lines, so the ledger's totals over whole months (overall, by supplier, by month) read a few
 *   hundred rows instead of tens of thousands of lines. Both are written with the lines by
 *   src/accounting/builtin/line-aggregates.ts;
 * - acct_month_totals by (organisation, month) carrying the amount, so a report's months are one
 *   index range read without the table;
 * - the ledger's account index also carries the contact, so lines by supplier never touch the table
 *   (it replaces acct_lines_account_date, whose columns are its prefix but for the amount);
 * - documents by (organisation, id): "these ids of this organisation" as two equalities on one
 *   index, which the planner picks even without statistics (it otherwise walked every document of
 *   the organisation through documents_org_txn).
 */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  // SQLite: the table is its primary key's b-tree, so a key range is read with its values
  const clustered = dialect.name === 'sqlite' ? sql`without rowid` : sql``;

  await db.schema
    .createTable('acct_day_totals')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('acct_day_totals_pk', ['organisation_id', 'account_id', 'date'])
    .modifyEnd(clustered)
    .execute();
  await sql`
    insert into acct_day_totals (organisation_id, account_id, date, amount)
    select organisation_id, account_id, date, sum(amount) from acct_lines group by organisation_id, account_id, date`.execute(db);
  // every account's days of a range, read from the index alone
  await db.schema.createIndex('acct_day_totals_date').on('acct_day_totals').columns(['organisation_id', 'date', 'account_id', 'amount']).execute();

  await db.schema
    .createTable('acct_month_line_totals')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contact_key', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('acct_month_line_totals_pk', ['organisation_id', 'account_id', 'month', 'type', 'contact_key'])
    .modifyEnd(clustered)
    .execute();
  await sql`
    insert into acct_month_line_totals (organisation_id, account_id, month, type, contact_key, amount, count)
    select organisation_id, account_id, substr(date, 1, 7), type, coalesce(contact_id, ''), sum(amount), count(*)
    from acct_lines group by organisation_id, account_id, substr(date, 1, 7), type, coalesce(contact_id, '')`.execute(db);

  await db.schema.createIndex('acct_month_totals_month').on('acct_month_totals').columns(['organisation_id', 'month', 'account_id', 'amount']).execute();

  await db.schema
    .createIndex('acct_lines_account_contact')
    .on('acct_lines')
    .columns(['organisation_id', 'account_id', 'date', 'type', 'contact_id', 'amount'])
    .execute();
  await db.schema.dropIndex('acct_lines_account_date').execute();

  await db.schema.createIndex('documents_org_id').on('documents').columns(['organisation_id', 'id']).execute();
}
