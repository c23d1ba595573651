/**
 * What a page's running balances are counted from (operations/banking/running-balances.ts) besides
 * each row's own stored sum through its day: one account's movement per day between the page and a
 * period edge, from the stored daily totals, never the lines themselves.
 */
import { sql, type Kysely } from 'kysely';
import { preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

/** One day's movement of an account, from its stored daily totals. */
export interface DayMovement {
  /** money in less money out */
  net: number;
  transactions: number;
}

/** One account's movement on each day from `from` through `to` that has any, from the stored daily totals, by date. */
export async function dailyMovements(
  db: Kysely<Database>,
  organisationId: string,
  accountId: string,
  from: string,
  to: string,
): Promise<Map<string, DayMovement>> {
  const rows = await dailyStatement(db, '', { organisationId, accountId, from, to });
  return new Map(rows.map((r) => [r.date, { net: Number(r.net), transactions: Number(r.transactions) }]));
}

/** dailyMovements' statement: a range of the account's daily totals, read by their key. */
const dailyStatement = preparedShapes((db, v: { organisationId: string; accountId: string; from: string; to: string }) =>
  db
    .selectFrom('bank_daily_totals')
    .select(['date', sql<number | string>`amount_in - amount_out`.as('net'), 'transactions'])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', '=', v.accountId)
    .where('date', '>=', v.from)
    .where('date', '<=', v.to)
    .compile(),
);
