/**
 * An organisation's bank and card accounts and their statistics. Both statements are named on
 * PostgreSQL (store/prepared.ts genericPlan): one organisation's accounts and stored monthly
 * totals, whose generic plan costs what a custom one does (docs/performance.md).
 */
import { sql, type Kysely } from 'kysely';
import { everyColumn } from './columns.js';
import { preparedShapes } from './prepared.js';
import type { BankAccountRow, Database } from './schema.js';

const BANK_ACCOUNT_COLUMNS = everyColumn<BankAccountRow>()([
  'id',
  'organisation_id',
  'name',
  'number',
  'type',
  'bank',
  'currency',
  'is_default',
  'ledger_account_id',
  'created_at',
]);

/** The organisation's bank accounts, or only those a user holds; compiled once for each (store/prepared.ts). */
const bankAccountsStatement = preparedShapes(
  (db, v: { organisationId: string; holderUserId: string }, holders) => {
    const query = db.selectFrom('bank_accounts').select(BANK_ACCOUNT_COLUMNS).where('organisation_id', '=', v.organisationId);
    if (holders === 'all') return query.compile();
    return query
      .where('id', 'in', (eb) =>
        eb.selectFrom('bank_account_holders').select('bank_account_id').where('organisation_id', '=', v.organisationId).where('user_id', '=', v.holderUserId),
      )
      .compile();
  },
  { genericPlan: true },
);

export async function listBankAccounts(db: Kysely<Database>, organisationId: string, holderUserId: string | null): Promise<BankAccountRow[]> {
  return bankAccountsStatement(db, holderUserId === null ? 'all' : 'held', { organisationId, holderUserId: holderUserId ?? '' });
}

export interface BankAccountStats {
  transactions: number;
  toReconcile: number;
  lastTransactionDate: string | null;
  /** account currency minor units */
  balance: number;
}

/** bankAccountStats' statement, for every account or some */
const statsStatement = preparedShapes(
  (db, v: { organisationId: string; accountIds: string[] }, accounts) => {
    const query = db
      .selectFrom('bank_month_totals')
      .select((eb) => [
        'bank_account_id',
        eb.fn.sum<number>('transactions').as('transactions'),
        eb.fn.sum<number>('to_reconcile').as('to_reconcile'),
        eb.fn.max('last_date').as('last_date'),
        sql<number>`sum(amount_in - amount_out)`.as('balance'),
      ])
      .where('organisation_id', '=', v.organisationId)
      .groupBy('bank_account_id');
    return (accounts === 'all' ? query : query.where('bank_account_id', 'in', v.accountIds)).compile();
  },
  { genericPlan: true },
);

/**
 * Counts, last date and balance of each account, over all of its transactions: read from the
 * monthly totals, so the cost follows the number of months with transactions, not of transactions.
 */
export async function bankAccountStats(db: Kysely<Database>, organisationId: string, accountIds: string[] | null): Promise<Map<string, BankAccountStats>> {
  const stats = new Map<string, BankAccountStats>();
  if (accountIds !== null && accountIds.length === 0) return stats;
  const rows = await statsStatement(db, accountIds === null ? 'all' : 'some', { organisationId, accountIds: accountIds ?? [] });
  for (const row of rows) {
    stats.set(row.bank_account_id, {
      transactions: Number(row.transactions),
      toReconcile: Number(row.to_reconcile),
      lastTransactionDate: row.last_date ?? null,
      balance: Number(row.balance),
    });
  }
  return stats;
}
