/**
 * Per bank account and day, the sums of its transactions (migration 004-bank-totals), and per
 * month the sums of those days (014-bank-month-totals): what the banking totals, balances and
 * counts read instead of the account's whole history. Every writer of bank_transactions calls
 * refreshBankDailyTotals in the same database transaction as its insert, and it recomputes the
 * touched days from bank_transactions itself, then their months from the days, so both tables are
 * always exactly the aggregate of the rows, whatever was inserted, skipped or inserted twice; and
 * the touched days' lines' sums through their day (store/bank-day-through.ts) with them.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { dayThroughFill } from './bank-day-through.js';
import { chunks } from './chunks.js';
import { mergeSearchTable } from './search-merge.js';
import type { BankTransactionRow, Database } from './schema.js';

export type { BankDailyTotalRow, BankMonthTotalRow, BankTotalsTables } from './schema-banking.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Days per statement: well under both dialects' parameter limits. */
const DAYS_PER_STATEMENT = 500;

/**
 * Recomputes the given days of one account from bank_transactions. Call it inside the transaction
 * that wrote those days (at the default READ COMMITTED on PostgreSQL). It first takes the account's
 * row lock, so two imports into one account recompute one after the other and the later one's
 * aggregate sees the earlier one's committed rows; SQLite has a single writer anyway.
 */
export async function refreshBankDailyTotals(trx: Db, organisationId: string, bankAccountId: string, dates: Iterable<string>): Promise<void> {
  const days = [...new Set(dates)].sort();
  if (days.length === 0) return;
  // every write of bank lines passes here: the narrations' trigram table is kept in few segments
  await mergeSearchTable(trx, 'bank_narration_search');
  const db = trx;
  // a no-op update: the portable way to take the row lock (SQLite has no SELECT … FOR UPDATE)
  await db
    .updateTable('bank_accounts')
    .set({ is_default: sql`is_default` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', bankAccountId)
    .execute();
  await replaceTotals(db, { table: 'bank_daily_totals', key: 'date' }, organisationId, bankAccountId, days, async (chunk) => {
    await db
      .insertInto('bank_daily_totals')
      .columns(['organisation_id', 'bank_account_id', 'date', 'amount_in', 'amount_out', 'home_in', 'home_out', 'transactions', 'to_reconcile'])
      .expression(
        db
          .selectFrom('bank_transactions')
          .select([
            'organisation_id',
            'bank_account_id',
            'date',
            sql<number>`sum(case when amount > 0 then amount else 0 end)`.as('amount_in'),
            sql<number>`sum(case when amount < 0 then -amount else 0 end)`.as('amount_out'),
            sql<number>`sum(case when home_amount > 0 then home_amount else 0 end)`.as('home_in'),
            sql<number>`sum(case when home_amount < 0 then -home_amount else 0 end)`.as('home_out'),
            sql<number>`count(*)`.as('transactions'),
            sql<number>`sum(case when status = 'to_reconcile' then 1 else 0 end)`.as('to_reconcile'),
          ])
          .where('organisation_id', '=', organisationId)
          .where('bank_account_id', '=', bankAccountId)
          .where('date', 'in', chunk)
          .groupBy(['organisation_id', 'bank_account_id', 'date']),
      )
      .execute();
    // the lines' sums through their day, for the page's running balances, from the same lines
    await dayThroughFill({ organisationId, accountId: bankAccountId, dates: chunk }).execute(db);
  });
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  await replaceTotals(db, { table: 'bank_month_totals', key: 'month' }, organisationId, bankAccountId, months, async (chunk) => {
    const month = sql<string>`substr(date, 1, 7)`;
    await db
      .insertInto('bank_month_totals')
      .columns(['organisation_id', 'bank_account_id', 'month', 'amount_in', 'amount_out', 'home_in', 'home_out', 'transactions', 'to_reconcile', 'last_date'])
      .expression(
        db
          .selectFrom('bank_daily_totals')
          .select((eb) => [
            'organisation_id',
            'bank_account_id',
            month.as('month'),
            eb.fn.sum<number>('amount_in').as('amount_in'),
            eb.fn.sum<number>('amount_out').as('amount_out'),
            eb.fn.sum<number>('home_in').as('home_in'),
            eb.fn.sum<number>('home_out').as('home_out'),
            eb.fn.sum<number>('transactions').as('transactions'),
            eb.fn.sum<number>('to_reconcile').as('to_reconcile'),
            eb.fn.max('date').as('last_date'),
          ])
          .where('organisation_id', '=', organisationId)
          .where('bank_account_id', '=', bankAccountId)
          .where(month, 'in', chunk)
          .groupBy(['organisation_id', 'bank_account_id', month]),
      )
      .execute();
  });
}

/**
 * One account's rows of a totals table for the keys given (days or months), removed and summed
 * again by `insert`, a chunk of keys at a time.
 */
async function replaceTotals(
  db: Db,
  totals: { table: 'bank_daily_totals'; key: 'date' } | { table: 'bank_month_totals'; key: 'month' },
  organisationId: string,
  bankAccountId: string,
  keys: string[],
  insert: (chunk: string[]) => Promise<void>,
): Promise<void> {
  for (const chunk of chunks(keys, DAYS_PER_STATEMENT)) {
    await db
      .deleteFrom(totals.table)
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', bankAccountId)
      .where(sql.ref(totals.key), 'in', chunk)
      .execute();
    await insert(chunk);
  }
}

/** Refreshes every (account, day) the rows touch, accounts in id order so concurrent writers lock alike. */
export async function refreshBankDailyTotalsFor(
  trx: Db,
  rows: Iterable<Pick<BankTransactionRow, 'organisation_id' | 'bank_account_id' | 'date'>>,
): Promise<void> {
  const touched = new Map<string, { organisationId: string; accountId: string; dates: Set<string> }>();
  for (const row of rows) {
    const key = `${row.organisation_id}\u0000${row.bank_account_id}`;
    let entry = touched.get(key);
    if (!entry) touched.set(key, (entry = { organisationId: row.organisation_id, accountId: row.bank_account_id, dates: new Set() }));
    entry.dates.add(row.date);
  }
  const ordered = [...touched.values()].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  for (const t of ordered) await refreshBankDailyTotals(trx, t.organisationId, t.accountId, t.dates);
}
