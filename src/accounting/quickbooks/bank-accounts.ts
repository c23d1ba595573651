/**
 * QuickBooks' bank and card accounts as the interface's SystemBankAccount: the chart's active
 * Account entities of AccountType Bank and Credit Card, with their balance at a date: QuickBooks'
 * own CurrentBalance (in the account's currency, CurrencyRef), which counts every transaction of
 * the account whatever its date (future-dated ones too), less the account's movement dated after
 * that date in the mirror's ledger (`later`, in the account's currency, debit positive). QuickBooks
 * keeps a card's balance as what is owed, positive; the interface wants money held positive, so a
 * card's balance is negated. QuickBooks' API says
 * nothing of which lines are reconciled (no cleared or reconciled status on the v3 entities), so
 * the reconciled balance is 0 and the connector has no reconciledLines.
 */
import { addDays, type IsoDate } from '../../domain/dates.js';
import { LISTED_TYPES, OTHER_TYPES, type LedgerLine, type LineQuery, type SystemBankAccount } from '../types.js';
import { minorUnits } from './mapping.js';
import type { QbRef } from './purchases.js';

export interface QbBankAccount {
  Id: string;
  Name: string;
  AcctNum?: string;
  AccountType?: string;
  Active?: boolean;
  CurrencyRef?: QbRef;
  CurrentBalance?: number;
}

function bankAndCardAccounts<T extends QbBankAccount>(accounts: T[]): T[] {
  return accounts.filter((a) => (a.AccountType === 'Bank' || a.AccountType === 'Credit Card') && a.Active !== false);
}

function bankAccountsOf(accounts: QbBankAccount[], homeCurrency: string, later: Map<string, number>): SystemBankAccount[] {
  return bankAndCardAccounts(accounts)
    .map((a): SystemBankAccount => {
      const currency = a.CurrencyRef?.value ?? homeCurrency;
      const card = a.AccountType === 'Credit Card';
      const balance = minorUnits(a.CurrentBalance, currency);
      return {
        accountId: a.Id,
        name: a.Name,
        number: a.AcctNum?.trim() ?? '',
        type: card ? 'credit_card' : 'bank',
        currency,
        // a card's CurrentBalance is what is owed on it; what is dated after the date asked is not in its balance then
        balance: (card ? -balance : balance) - (later.get(a.Id) ?? 0),
        reconciledBalance: 0,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.accountId.localeCompare(b.accountId));
}

/**
 * The accounts at asAt: each one's movement in the mirror's ledger dated after asAt, in its own
 * currency (a foreign-currency account's lines are in its currency: QuickBooks keeps an account's
 * transactions in the account's currency), taken off its CurrentBalance.
 */
export async function bankAccountsAt(
  accounts: QbBankAccount[],
  homeCurrency: string,
  asAt: IsoDate,
  lines: (query: LineQuery, limit: number) => Promise<LedgerLine[]>,
): Promise<SystemBankAccount[]> {
  const banks = bankAndCardAccounts(accounts);
  const later = new Map<string, number>();
  if (banks.length > 0) {
    const currencyOf = new Map(banks.map((a) => [a.Id, a.CurrencyRef?.value ?? homeCurrency]));
    // every line dated after asAt: for today, the few future-dated ones
    const after = await lines(
      { accountIds: banks.map((a) => a.Id), from: addDays(asAt, 1), to: '9999-12-31', types: [...LISTED_TYPES, ...OTHER_TYPES] },
      Number.MAX_SAFE_INTEGER,
    );
    for (const l of after) {
      const own = currencyOf.get(l.accountId) === homeCurrency ? l.amount : l.amountInCurrency;
      later.set(l.accountId, (later.get(l.accountId) ?? 0) + own);
    }
  }
  return bankAccountsOf(accounts, homeCurrency, later);
}
