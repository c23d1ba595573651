/**
 * The books' side of a bank account (issue 40 item 2): the ledger account a bank account is linked
 * to (bank_accounts.ledger_account_id: the builtin chart's account, or the connected system's bank
 * account itself), and its balance in the books at a date, in the account's currency, money held
 * positive (a card's balance owed is negative, as the bank's is). Books that cannot be read leave
 * the book figures out with the reason, rather than failing the whole list.
 */
import { LISTED_TYPES, OTHER_TYPES, AccountingSystemError } from '../../accounting/types.js';
import type { OperationContext } from '../context.js';

/** The most lines summed for a foreign-currency account's balance in its own currency. */
const FOREIGN_LINES_MAX = 50_000;

export interface BookBalance {
  ledgerAccount: { id: string; name: string; fullName: string };
  /** minor units of the bank account's currency; null when it cannot be told (see why) */
  balance: number | null;
  why: string | null;
}

export interface BookBalances {
  byAccount: Map<string, BookBalance>;
  /** set when the books could not be read at all */
  unreadable: string | null;
}

/** For each linked account (its ledger account id, currency and the date asked), its book balance. */
export async function bookBalances(
  ctx: OperationContext,
  linked: { id: string; ledgerAccountId: string; currency: string; date: string }[],
): Promise<BookBalances> {
  const byAccount = new Map<string, BookBalance>();
  if (linked.length === 0) return { byAccount, unreadable: null };
  try {
    const chart = new Map((await ctx.accounting.chartOfAccounts()).map((a) => [a.id, a]));
    const home = linked.filter((l) => l.currency === ctx.organisation.homeCurrency);
    const dates = [...new Set(home.map((l) => l.date))].sort();
    const totals = home.length
      ? await ctx.accounting.accountTotals(
          dates.map((to) => ({ to })),
          [...new Set(home.map((l) => l.ledgerAccountId))],
        )
      : new Map<string, number[]>();
    for (const l of linked) {
      const account = chart.get(l.ledgerAccountId);
      const ledgerAccount = { id: l.ledgerAccountId, name: account?.name ?? l.ledgerAccountId, fullName: account?.fullName ?? l.ledgerAccountId };
      if (!account) {
        byAccount.set(l.id, { ledgerAccount, balance: null, why: `its linked account ${l.ledgerAccountId} is not in the books' chart of accounts` });
      } else if (l.currency === ctx.organisation.homeCurrency) {
        byAccount.set(l.id, { ledgerAccount, balance: totals.get(l.ledgerAccountId)?.[dates.indexOf(l.date)] ?? 0, why: null });
      } else {
        byAccount.set(l.id, { ledgerAccount, ...(await foreignBalance(ctx, l.ledgerAccountId, l.date)) });
      }
    }
    return { byAccount, unreadable: null };
  } catch (error) {
    if (error instanceof AccountingSystemError) return { byAccount, unreadable: `the books (${ctx.accounting.kind}) could not be read: ${error.message}` };
    throw error;
  }
}

/** A foreign-currency account's balance in its own currency: its lines' amounts in that currency, summed. */
async function foreignBalance(ctx: OperationContext, ledgerAccountId: string, date: string): Promise<{ balance: number | null; why: string | null }> {
  const lines = await ctx.accounting.lines(
    { accountIds: [ledgerAccountId], from: '1000-01-01', to: date, types: [...LISTED_TYPES, ...OTHER_TYPES] },
    FOREIGN_LINES_MAX + 1,
  );
  if (lines.length > FOREIGN_LINES_MAX)
    return { balance: null, why: `the account has more than ${FOREIGN_LINES_MAX} lines in the books to sum in its own currency` };
  return { balance: lines.reduce((sum, l) => sum + l.amountInCurrency, 0), why: null };
}
