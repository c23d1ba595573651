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
 * vendor no longer posts to has no movement rather than a movement of zero.
 */
async function dropEmptyAggregates(trx: Transaction<Database>, organisationId: string, lines: { account_id: string; date: string }[]): Promise<void> {
  const adb = trx;
  const accounts = [...new Set(lines.map((l) => l.account_id))];
  const months = [...new Set(lines.map((l) => monthKey(l.date)))];
  const dates = [...new Set(lines.map((l) => l.date))];
  await adb
    .deleteFrom('acct_month_line_totals')
    .where('organisation_id', '=', organisationId)
    .where('account_id', 'in', accounts)
    .where('count', '=', 0)
    .execute();
  await adb
    .deleteFrom('acct_day_line_totals')
    .where('organisation_id', '=', organisationId)
    .where('account_id', 'in', accounts)
    .where('count', '=', 0)
    .execute();
  await adb
    .deleteFrom('acct_month_totals')
    .where('organisation_id', '=', organisationId)
    .where('account_id', 'in', accounts)
    .where('month', 'in', months)
    .where('amount', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('acct_month_line_totals as m')
            .select('m.count')
            .whereRef('m.organisation_id', '=', 'acct_month_totals.organisation_id')
            .whereRef('m.account_id', '=', 'acct_month_totals.account_id')
            .whereRef('m.month', '=', 'acct_month_totals.month'),
        ),
      ),
    )
    .execute();
  await adb
    .deleteFrom('acct_day_totals')
    .where('organisation_id', '=', organisationId)
    .where('account_id', 'in', accounts)
    .where('date', 'in', dates)
    .where('amount', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('acct_lines as l')
            .select('l.id')
            .whereRef('l.organisation_id', '=', 'acct_day_totals.organisation_id')
            .whereRef('l.account_id', '=', 'acct_day_totals.account_id')
            .whereRef('l.date', '=', 'acct_day_totals.date'),
        ),
      ),
    )
    .execute();
}
