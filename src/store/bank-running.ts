/**
 * What a page's running balances are counted from (operations/banking/running-balances.ts) besides
 * each row's own stored sum through its day: the accounts' movement per day between the page and a
 * period edge, from the stored daily totals, never the lines themselves.
 */
import { sql, type Kysely } from 'kysely';
import { paddedSet, preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

/**
 * The given accounts' net movement (money in less money out) on each day from `from` through `to`
 * that has any, by account and date: one statement for a page's accounts, from the stored daily
 * totals, read by their key.
 */
export async function dailyNets(
  db: Kysely<Database>,
  organisationId: string,
  accountIds: string[],
  from: string,
  to: string,
): Promise<Map<string, Map<string, number>>> {
  const nets = new Map<string, Map<string, number>>(accountIds.map((id) => [id, new Map()]));
  if (accountIds.length === 0) return nets;
  // the ids are a set: a repeated one changes nothing, so they are padded to a few lengths (one statement each)
  const rows = await dailyStatement(db, '', { organisationId, accountIds: paddedSet(accountIds), from, to });
  for (const r of rows) nets.get(r.bank_account_id)?.set(r.date, Number(r.net));
  return nets;
}

const dailyStatement = preparedShapes((db, v: { organisationId: string; accountIds: string[]; from: string; to: string }) =>
  db
    .selectFrom('bank_daily_totals')
    .select(['bank_account_id', 'date', sql<number | string>`amount_in - amount_out`.as('net')])
    .where('organisation_id', '=', v.organisationId)
    .where('bank_account_id', 'in', v.accountIds)
    .where('date', '>=', v.from)
    .where('date', '<=', v.to)
    .compile(),
);
