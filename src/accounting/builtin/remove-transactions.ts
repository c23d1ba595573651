/**
 * Taking transactions out of the ledger (a vendor's mirror pass, banking.unmatch): their lines, and
 * what they added to the stored aggregates, in the caller's database transaction.
 */
import type { Transaction } from 'kysely';
import { monthKey } from '../../domain/dates.js';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import { addLineAggregates } from './line-aggregates.js';

export async function removeTransactions(
  trx: Transaction<Database>,
  dialect: DialectCapabilities,
  organisationId: string,
  ids: readonly string[],
): Promise<void> {
  for (const chunk of chunks([...ids], 500)) {
    const old = await trx
      .selectFrom('acct_lines')
      .select(['organisation_id', 'account_id', 'date', 'type', 'contact_id', 'amount'])
      .where('organisation_id', '=', organisationId)
      .where('transaction_id', 'in', chunk)
      .execute();
    if (old.length === 0) continue;
    await addLineAggregates(
      trx,
      dialect,
      old.map((l) => ({ ...l, amount: Number(l.amount) })),
      -1,
    );
    await trx.deleteFrom('acct_lines').where('organisation_id', '=', organisationId).where('transaction_id', 'in', chunk).execute();
    await trx.deleteFrom('acct_transactions').where('organisation_id', '=', organisationId).where('id', 'in', chunk).execute();
    await dropEmptyAggregates(trx, organisationId, old);
  }
}

/**
 * After lines were taken off: the aggregate rows they leave with nothing in them, so an account the
 * vendor no longer posts to has no movement rather than a movement of zero. The month and the day
 * tables differ only in their period column and in what a totals row sums: a month's line totals, a
 * day's lines.
 */
async function dropEmptyAggregates(trx: Transaction<Database>, organisationId: string, lines: { account_id: string; date: string }[]): Promise<void> {
  const accounts = [...new Set(lines.map((l) => l.account_id))];
  const periods = { month: [...new Set(lines.map((l) => monthKey(l.date)))], date: [...new Set(lines.map((l) => l.date))] };
  for (const table of ['acct_month_line_totals', 'acct_day_line_totals'] as const) {
    await trx.deleteFrom(table).where('organisation_id', '=', organisationId).where('account_id', 'in', accounts).where('count', '=', 0).execute();
  }
  for (const { table, period, sums } of EMPTY_TOTALS) {
    // typed per table Kysely cannot follow a correlated subquery over a union of tables (as addCounted in line-aggregates.ts)
    await (trx as Transaction<any>)
      .deleteFrom(table)
      .where('organisation_id', '=', organisationId)
      .where('account_id', 'in', accounts)
      .where(period, 'in', periods[period])
      .where('amount', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${sums} as s`)
              .select('s.account_id')
              .whereRef('s.organisation_id', '=', `${table}.organisation_id`)
              .whereRef('s.account_id', '=', `${table}.account_id`)
              .whereRef(`s.${period}`, '=', `${table}.${period}`),
          ),
        ),
      )
      .execute();
  }
}

const EMPTY_TOTALS = [
  { table: 'acct_month_totals', period: 'month', sums: 'acct_month_line_totals' },
  { table: 'acct_day_totals', period: 'date', sums: 'acct_lines' },
] as const;
