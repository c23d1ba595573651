/**
 * Running balances of the transactions on one page: the balance of each transaction's account
 * just after it, taking the account's transactions in (date, id) order. They are counted from the
 * period's own totals (balance before `from`, balance at `to`), the stored daily totals between
 * the row's day and the nearer period edge, and the row's stored sum through its own day
 * (store/bank-day-through.ts): never the account's history, nor any line between the page and the
 * edge, so a page's cost does not follow how many lines a day or a period holds.
 */
import type { Kysely } from 'kysely';
import type { BalanceState } from '../../domain/statement-balances.js';
import { emptyPeriodSums, type AccountPeriodSums } from '../../store/banking.js';
import { dailyMovements } from '../../store/bank-running.js';
import type { BankTransactionRow, Database } from '../../store/schema.js';

/**
 * Adds each account's offset (domain/statement-balances.ts) to its balance before the period, so
 * totals and running balances count from its opening balance; an account with an opening balance
 * and no line up to the period's end is given its balance all the same.
 */
export function withOpeningBalances(sums: Map<string, AccountPeriodSums>, states: Map<string, BalanceState>): void {
  for (const [accountId, state] of states) {
    if (state.offset === 0 && state.offsetHome === 0) continue;
    const s = sums.get(accountId) ?? emptyPeriodSums();
    s.openingAmount += state.offset;
    s.openingHome += state.offsetHome;
    sums.set(accountId, s);
  }
}

type PageRow = Pick<BankTransactionRow, 'id' | 'bank_account_id' | 'date'> & { day_through: number | string };

export async function runningBalances(
  db: Kysely<Database>,
  organisationId: string,
  rows: PageRow[],
  sums: Map<string, AccountPeriodSums>,
  period: { from: string; to: string },
  order: 'newest' | 'oldest',
): Promise<Map<string, number>> {
  const byAccount = new Map<string, PageRow[]>();
  for (const row of rows) {
    const list = byAccount.get(row.bank_account_id);
    if (list) list.push(row);
    else byAccount.set(row.bank_account_id, [row]);
  }
  const balances = new Map<string, number>();
  await Promise.all(
    [...byAccount].map(async ([accountId, accountRows]) => {
      const s = sums.get(accountId);
      // every page row lies in the period, so the account has period sums
      if (!s) throw new Error(`no period totals for bank account ${accountId}`);
      const opening = s.openingAmount;
      const closing = s.openingAmount + s.inAmount - s.outAmount;
      const partial = await acrossDays(db, organisationId, accountId, accountRows, order, period);
      for (const [id, value] of partial) balances.set(id, order === 'oldest' ? opening + value : closing - value);
    }),
  );
  return balances;
}

/**
 * The partial sums for one account's rows of a page: forward (oldest first, a page near the
 * period's start), the sum from the period's start through each row; backward (newest first, near
 * its end), the sum of what follows each row up to the period's end. Each is the days' net amounts
 * between the row's day and the edge (stored daily totals) and the row's own day up to it (its
 * stored day_through): what is read grows with the days between the page and the edge, not with
 * the transactions.
 */
async function acrossDays(
  db: Kysely<Database>,
  organisationId: string,
  accountId: string,
  rows: PageRow[],
  order: 'newest' | 'oldest',
  period: { from: string; to: string },
): Promise<Map<string, number>> {
  let first = rows[0]!.date;
  let last = first;
  for (const row of rows) {
    if (row.date < first) first = row.date;
    if (row.date > last) last = row.date;
  }
  const [from, to] = order === 'oldest' ? [period.from, last] : [first, period.to];
  const movements = await dailyMovements(db, organisationId, accountId, from, to);
  // the days' sums before each page day (oldest first): the days are few, a row's lookup is a map's
  const days = [...movements.keys()].sort();
  const before = new Map<string, number>();
  let sum = 0;
  const pageDays = [...new Set(rows.map((r) => r.date))].sort();
  let k = 0;
  for (const day of pageDays) {
    while (k < days.length && days[k]! < day) sum += movements.get(days[k++]!)!.net;
    before.set(day, sum);
  }
  const total = days.reduce((all, day) => all + movements.get(day)!.net, 0);
  const sums = new Map<string, number>();
  for (const row of rows) {
    const upTo = before.get(row.date)! + Number(row.day_through);
    // forward: everything from the start through the row; backward: everything after it to the end
    sums.set(row.id, order === 'oldest' ? upTo : total - upTo);
  }
  return sums;
}
