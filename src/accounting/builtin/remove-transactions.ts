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
 * vendor no longer posts to has no movement rather than a movement of zero. By period (month, day):
 * a per-line total (per type and contact, with how many lines it sums) is empty when it counts no
 * line; an account's total when it is zero and no per-line total is left in its period (a zero that
 * still sums other lines stays).
 */
async function dropEmptyAggregates(trx: Transaction<Database>, organisationId: string, lines: { account_id: string; date: string }[]): Promise<void> {
  const accounts = [...new Set(lines.map((l) => l.account_id))];
  const months = [...new Set(lines.map((l) => monthKey(l.date)))];
  const dates = [...new Set(lines.map((l) => l.date))];
  // each period's column named as both its tables spell it, so the queries below stay typed
  const byPeriod = [
    {
      lines: 'acct_month_line_totals',
      totals: 'acct_month_totals',
      periods: months,
      linesPeriod: 'acct_month_line_totals.month',
      totalsPeriod: 'acct_month_totals.month',
    },
    {
      lines: 'acct_day_line_totals',
      totals: 'acct_day_totals',
      periods: dates,
      linesPeriod: 'acct_day_line_totals.date',
      totalsPeriod: 'acct_day_totals.date',
    },
  ] as const;
  for (const a of byPeriod) {
    await trx.deleteFrom(a.lines).where('organisation_id', '=', organisationId).where('account_id', 'in', accounts).where('count', '=', 0).execute();
    await trx
      .deleteFrom(a.totals)
      .where('organisation_id', '=', organisationId)
      .where('account_id', 'in', accounts)
      .where(a.totalsPeriod, 'in', a.periods)
      .where('amount', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(a.lines)
              .select(`${a.lines}.count`)
              .whereRef(`${a.lines}.organisation_id`, '=', `${a.totals}.organisation_id`)
              .whereRef(`${a.lines}.account_id`, '=', `${a.totals}.account_id`)
              .whereRef(a.linesPeriod, '=', a.totalsPeriod),
          ),
        ),
      )
      .execute();
  }
}
