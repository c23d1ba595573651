/**
 * What the organisation overview shows ("Books at a glance", issue 18 item 4), gathered from the
 * operations the API answers with, called as the signed-in admin (operation-for-page.ts): so the
 * numbers are the API's, and a role the organisation's policy leaves out of an operation sees that
 * part refused, as it would be over the API.
 */
import type { z } from 'zod';
import { addDays, addMonths, endOfMonth, startOfMonth, todayIn } from '../domain/dates.js';
import { bankingAccounts } from '../operations/banking-accounts.js';
import { bankingTransactions } from '../operations/banking-transactions.js';
import { billsListToPay } from '../operations/bills-list-to-pay.js';
import type { OrganisationOperation } from '../operations/operation.js';
import type { ReportOutput } from '../operations/report-output.js';
import { reportsBalanceSheet } from '../operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../operations/reports-profit-and-loss.js';
import { getOrganisation } from '../store/organisations.js';
import { operationForPage, type PageAnswer, type PagePerson } from './operation-for-page.js';
import type { WebContext } from './web-context.js';

/** How many complete months the page looks back over. */
export const OVERVIEW_MONTHS = 12;
/** How many of the next bills due are listed (count and total cover them all). */
export const OVERVIEW_BILLS = 10;

export type BillsAnswer = z.infer<(typeof billsListToPay)['output']>;
type ListedAccount = z.infer<(typeof bankingAccounts)['output']>['accounts'][number];

type Run = <O extends z.ZodType>(op: OrganisationOperation<any, O>, input: Record<string, unknown>) => Promise<PageAnswer<z.infer<O>>>;

export interface AccountHistory {
  account: ListedAccount;
  /** the balance at each month end, oldest first, in the account's currency; null when it cannot be told */
  monthEnds: (number | null)[] | null;
  /** why there is no history, when there is none */
  note: string | null;
}

export interface BooksOverview {
  currency: string;
  /** the organisation's local today, as the operations take it */
  today: string;
  /** the complete months looked at, oldest first */
  months: { from: string; to: string }[];
  /** the reports' own answers: their periods and amounts are current first */
  profitAndLoss: PageAnswer<ReportOutput>;
  balanceSheet: PageAnswer<ReportOutput>;
  bank: PageAnswer<AccountHistory[]>;
  bills: PageAnswer<BillsAnswer>;
}

/** The twelve complete months before today's month, oldest first: the reports' last_month and the eleven before it. */
export function overviewMonths(today: string): { from: string; to: string }[] {
  const lastEnd = addDays(startOfMonth(today), -1);
  return Array.from({ length: OVERVIEW_MONTHS }, (_, i) => {
    const to = endOfMonth(addMonths(lastEnd, i - (OVERVIEW_MONTHS - 1)));
    return { from: startOfMonth(to), to };
  });
}

export async function booksOverview(w: WebContext, person: PagePerson, organisationId: string): Promise<BooksOverview> {
  const row = (await getOrganisation(w.service.db, organisationId))!;
  const env = w.service.env;
  const today = env.today ?? todayIn(row.time_zone, env.now?.() ?? new Date());
  const months = overviewMonths(today);
  const run: Run = (op, input) => operationForPage(w, person, organisationId, op, input);
  // the same questions an API caller would ask: last month compared with the eleven before it
  const monthly = { period: 'last_month', comparePeriods: OVERVIEW_MONTHS - 1, compareBy: 'month' };
  const [profitAndLoss, balanceSheet, accounts, bills] = await Promise.all([
    run(reportsProfitAndLoss, monthly),
    run(reportsBalanceSheet, monthly),
    run(bankingAccounts, {}),
    run(billsListToPay, { limit: OVERVIEW_BILLS }),
  ]);
  const bank: PageAnswer<AccountHistory[]> = accounts.ok ? { ok: true, value: await histories(run, accounts.value.accounts, months) } : accounts;
  return { currency: row.home_currency, today, months, profitAndLoss, balanceSheet, bank, bills };
}

/**
 * Each account's balance at each month end: banking.transactions' closing balance for that month
 * (its opening balance counts everything before the month, so the closing one is the balance at its
 * end). One account at a time, so a page does not hold many database connections at once.
 */
async function histories(run: Run, accounts: ListedAccount[], months: { from: string; to: string }[]): Promise<AccountHistory[]> {
  const out: AccountHistory[] = [];
  for (const account of accounts) {
    // an account of the connected books with nothing imported yet (id "<system>:<id>") has only the books' balance
    if (account.transactions === 0 && account.id.includes(':')) {
      out.push({ account, monthEnds: null, note: 'Only its balance in the books today: no statement has been imported into it.' });
      continue;
    }
    const monthEnds: (number | null)[] = [];
    let note: string | null = null;
    for (const m of months) {
      const answer = await run(bankingTransactions, { account: account.id, period: 'custom', from: m.from, to: m.to, limit: 1 });
      if (!answer.ok) {
        note = answer.message;
        break;
      }
      monthEnds.push(answer.value.totals.closingBalance);
    }
    out.push(note === null ? { account, monthEnds, note } : { account, monthEnds: null, note });
  }
  return out;
}
