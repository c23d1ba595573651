/**
 * Running balances of the transactions on one page: the balance of each transaction's account
 * just after it, taking the account's transactions in (date, id) order. They are counted from the
 * period's own totals (balance before `from`, balance at `to`) plus the rows between the page and
 * the nearer period edge — never the account's whole history. A page no filter thinned out holds
 * every transaction of its stretch of each account, so one sum up to its edge row is enough and
 * the rest follows row by row; a filtered page skips rows, so each row's sum is counted from the
 * stored daily totals between it and the edge, and its own day's rows up to it.
 */
import type { Kysely } from 'kysely';
import type { BalanceState } from '../../domain/statement-balances.js';
import { emptyPeriodSums, type AccountPeriodSums } from '../../store/banking.js';
import { dailyMovements, sameDayRead, sameDayThrough, sumBeyond, type RunningAnchor } from '../../store/bank-running.js';
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

type PageRow = Pick<BankTransactionRow, 'id' | 'bank_account_id' | 'date' | 'amount'>;

/** One account's rows of a page, in the page's order, and the period they lie in. */
interface AccountStretch {
  organisationId: string;
  accountId: string;
  rows: PageRow[];
  order: 'newest' | 'oldest';
  period: { from: string; to: string };
}

export async function runningBalances(
  db: Kysely<Database>,
  organisationId: string,
  rows: PageRow[],
  sums: Map<string, AccountPeriodSums>,
  period: { from: string; to: string },
  order: 'newest' | 'oldest',
  /** the page holds every transaction of the accounts and period in its stretch (no status, search or amount filter) */
  unfiltered: boolean,
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
      const ids = accountRows.map((r) => r.id);
      // a newest-first page sits near the period's end and counts back from it, an oldest-first
      // page near its start and counts forward
      const stretch: AccountStretch = { organisationId, accountId, rows: accountRows, order, period };
      const partial = unfiltered ? await walk(db, stretch) : await acrossDays(db, stretch);
      for (const id of ids) {
        const value = partial.get(id);
        if (value === undefined) throw new Error(`running sum missing for bank transaction ${id}`);
        balances.set(id, order === 'oldest' ? opening + value : closing - value);
      }
    }),
  );
  return balances;
}

/**
 * The partial sums for rows that are consecutive in the account's order, in the page's order (newest or
 * oldest first): the sum between the period edge and the page's row nearest to it, once, then
 * each row's from its neighbour's.
 */
async function walk(db: Kysely<Database>, { organisationId, accountId, rows, order, period }: AccountStretch): Promise<Map<string, number>> {
  const nearest = { date: rows[0]!.date, id: rows[0]!.id };
  const anchor: RunningAnchor =
    order === 'newest' ? { kind: 'backward', to: period.to, since: nearest } : { kind: 'forward', from: period.from, through: nearest };
  let sum = await sumBeyond(db, organisationId, accountId, anchor);
  const sums = new Map<string, number>();
  // forward: through each row, itself included; backward: after each row, itself left out
  for (const row of rows) {
    if (order === 'oldest') sum += Number(row.amount);
    sums.set(row.id, sum);
    if (order === 'newest') sum += Number(row.amount);
  }
  return sums;
}

/**
 * The partial sums for any rows of one account (a filtered page skips some): forward, the sum from
 * the period's start through each row; backward, the sum of what follows each row up to the
 * period's end. Each is the days' net amounts between the row's day and the edge (stored daily
 * totals) and the row's own day up to it (sameDayThrough): what is read grows with the page's days
 * and the stretch's days, not with the transactions between the page and the edge.
 */
async function acrossDays(db: Kysely<Database>, { organisationId, accountId, rows, order, period }: AccountStretch): Promise<Map<string, number>> {
  let first = rows[0]!.date;
  let last = first;
  for (const row of rows) {
    if (row.date < first) first = row.date;
    if (row.date > last) last = row.date;
  }
  const [from, to] = order === 'oldest' ? [period.from, last] : [first, period.to];
  const movements = await dailyMovements(db, organisationId, accountId, from, to);
  const through = await sameDayThrough(
    db,
    organisationId,
    accountId,
    rows.map((r) => r.id),
    sameDayRead(
      rows.map((r) => r.date),
      movements,
    ),
  );
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
    const sameDay = through.get(row.id);
    // every page row is a line of this account in the snapshot, so its day was read
    if (sameDay === undefined) throw new Error(`same-day sum missing for bank transaction ${row.id}`);
    const upTo = before.get(row.date)! + sameDay;
    // forward: everything from the start through the row; backward: everything after it to the end
    sums.set(row.id, order === 'oldest' ? upTo : total - upTo);
  }
  return sums;
}
