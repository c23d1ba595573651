import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Banking at scale: per account and day, the sums the banking totals and balances need
 * (bank_daily_totals, kept by src/store/bank-totals.ts in the writers' own transactions), filled
 * from the transactions already imported; the organisation-wide (date, id) order that a page of
 * every account's transactions is read in; and the account's (date, id) order carrying the amount,
 * so running balances are summed from the index alone (it replaces bank_transactions_account_date).
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('bank_daily_totals')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('amount_in', 'bigint', (c) => c.notNull())
    .addColumn('amount_out', 'bigint', (c) => c.notNull())
    .addColumn('home_in', 'bigint', (c) => c.notNull())
    .addColumn('home_out', 'bigint', (c) => c.notNull())
    .addColumn('transactions', 'integer', (c) => c.notNull())
    .addColumn('to_reconcile', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('bank_daily_totals_pk', ['organisation_id', 'bank_account_id', 'date'])
    .execute();

  await sql`
    insert into bank_daily_totals (organisation_id, bank_account_id, date, amount_in, amount_out, home_in, home_out, transactions, to_reconcile)
    select organisation_id, bank_account_id, date,
      sum(case when amount > 0 then amount else 0 end),
      sum(case when amount < 0 then -amount else 0 end),
      sum(case when home_amount > 0 then home_amount else 0 end),
      sum(case when home_amount < 0 then -home_amount else 0 end),
      count(*),
      sum(case when status = 'to_reconcile' then 1 else 0 end)
    from bank_transactions
    group by organisation_id, bank_account_id, date`.execute(db);

  await db.schema.createIndex('bank_transactions_org_date').on('bank_transactions').columns(['organisation_id', 'date', 'id']).execute();
  await db.schema
    .createIndex('bank_transactions_account_amount')
    .on('bank_transactions')
    .columns(['organisation_id', 'bank_account_id', 'date', 'id', 'amount'])
    .execute();
  await db.schema.dropIndex('bank_transactions_account_date').execute();
}
