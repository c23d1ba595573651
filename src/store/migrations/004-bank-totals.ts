import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * Banking at scale: per account and day, the sums the banking totals and balances need
 * (bank_daily_totals, kept by src/store/bank-totals.ts in the writers' own transactions), filled
 * from the transactions already imported; the organisation-wide (date, id) order that a page of
 * every account's transactions is read in; and the account's (date, id) order carrying the amount,
 * so running balances are summed from the index alone (it replaces bank_transactions_account_date).
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  await withTotalsColumns(db.schema.createTable('bank_daily_totals'), 'date')
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

/**
 * The columns a table of an account's totals per period has (the day here, the month in migration
 * 014): the sums in and out in the account's currency and in the home one, and the counts of lines
 * and of those to reconcile. Migration 014 builds on it, so the two tables cannot drift apart. It
 * is migration 004's own code, as frozen as the rest of it: what it makes must never change.
 */
export function withTotalsColumns<T extends string>(table: CreateTableBuilder<T>, period: 'date' | 'month') {
  return table
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn(period, 'text', (c) => c.notNull())
    .addColumn('amount_in', 'bigint', (c) => c.notNull())
    .addColumn('amount_out', 'bigint', (c) => c.notNull())
    .addColumn('home_in', 'bigint', (c) => c.notNull())
    .addColumn('home_out', 'bigint', (c) => c.notNull())
    .addColumn('transactions', 'integer', (c) => c.notNull())
    .addColumn('to_reconcile', 'integer', (c) => c.notNull());
}
