/**
 * Running balances of the transactions on one page: the balance of each transaction's account
 * just after it, taking the account's transactions in (date, id) order. They are counted from the
 * period's own totals (balance before `from`, balance at `to`) plus one windowed sum per account
 * over the rows between the page and the nearer period edge — never the account's whole history.
 */
import type { Kysely } from 'kysely';
import { runningSums, type AccountPeriodSums, type RunningAnchor } from '../../store/banking.js';
import type { BankTransactionRow, Database } from '../../store/schema.js';

type PageRow = Pick<BankTransactionRow, 'id' | 'bank_account_id' | 'date'>;

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
      const ids = accountRows.map((r) => r.id);
      // a newest-first page sits near the period's end, an oldest-first page near its start
      const anchor: RunningAnchor =
        order === 'newest'
          ? { kind: 'backward', to: period.to, since: edgeRow(accountRows, 'first') }
          : { kind: 'forward', from: period.from, through: edgeRow(accountRows, 'last') };
      const partial = await runningSums(db, organisationId, accountId, ids, anchor);
      for (const id of ids) {
        const value = partial.get(id);
        if (value === undefined) throw new Error(`running sum missing for bank transaction ${id}`);
        balances.set(id, anchor.kind === 'forward' ? opening + value : closing - value);
      }
    }),
  );
  return balances;
}

/** The earliest or latest of the rows in (date, id) order. */
function edgeRow(rows: PageRow[], which: 'first' | 'last'): { date: string; id: string } {
  const later = (a: PageRow, b: PageRow) => a.date > b.date || (a.date === b.date && a.id > b.id);
  let edge = rows[0]!;
  for (const row of rows) if (which === 'first' ? later(edge, row) : later(row, edge)) edge = row;
  return { date: edge.date, id: edge.id };
}
