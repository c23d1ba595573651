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
import { dailyNets } from '../../store/bank-running.js';
import type { BankTransactionRow, Database } from '../../store/schema.js';

/**
 * Adds each account's offset (domain/statement-balances.ts) to its balance before the period, so
 * totals and running balances count from its opening balance; an account with an opening balance
 * and no line up to the period's end is given its balance all the same.
 */
export function withOpeningBalances(sums: Map<string, AccountPeriodSums>, states: ReadonlyMap<string, BalanceState>): void {
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
  const balances = new Map<string, number>();
  if (rows.length === 0) return balances;
  const byAccount = new Map<string, PageRow[]>();
  let first = rows[0]!.date;
  let last = first;
  for (const row of rows) {
    const list = byAccount.get(row.bank_account_id);
    if (list) list.push(row);
    else byAccount.set(row.bank_account_id, [row]);
    if (row.date < first) first = row.date;
    if (row.date > last) last = row.date;
  }
  // a newest-first page sits near the period's end and counts back from it, an oldest-first page near
  // its start and counts forward: the days between the page and that edge, every account's at once
  const [from, to] = order === 'oldest' ? [period.from, last] : [first, period.to];
  const nets = await dailyNets(db, organisationId, [...byAccount.keys()], from, to);
  for (const [accountId, accountRows] of byAccount) {
    const s = sums.get(accountId);
    // every page row lies in the period, so the account has period sums
    if (!s) throw new Error(`no period totals for bank account ${accountId}`);
    const opening = s.openingAmount;
    const closing = s.openingAmount + s.inAmount - s.outAmount;
    for (const [id, value] of partialSums(accountRows, nets.get(accountId)!, order)) balances.set(id, order === 'oldest' ? opening + value : closing - value);
  }
  return balances;
}

/**
 * The partial sums for one account's rows of a page, given its net movement on each day between the
 * page and the period's nearer edge: forward (oldest first), the sum from the period's start through
 * each row; backward (newest first), the sum of what follows each row up to the period's end. Each
 * is the days' nets between the row's day and the edge and the row's own day up to it (its stored
 * day_through).
 */
function partialSums(rows: PageRow[], nets: Map<string, number>, order: 'newest' | 'oldest'): Map<string, number> {
  // the days' sums before each page day (oldest first): the days are few, a row's lookup is a map's
  const days = [...nets.keys()].sort();
  const before = new Map<string, number>();
  let sum = 0;
  const pageDays = [...new Set(rows.map((r) => r.date))].sort();
  let k = 0;
  for (const day of pageDays) {
    while (k < days.length && days[k]! < day) sum += nets.get(days[k++]!)!;
    before.set(day, sum);
  }
  const total = days.reduce((all, day) => all + nets.get(day)!, 0);
  const sums = new Map<string, number>();
  for (const row of rows) {
    const upTo = before.get(row.date)! + Number(row.day_through);
    // forward: everything from the start through the row; backward: everything after it to the end
    sums.set(row.id, order === 'oldest' ? upTo : total - upTo);
  }
  return sums;
}
