/**
 * QuickBooks' bank and card accounts as the interface's SystemBankAccount: the chart's active
 * Account entities of AccountType Bank and Credit Card, with QuickBooks' own CurrentBalance (in the
 * account's currency, CurrencyRef). QuickBooks keeps a card's balance as what is owed, positive;
 * the interface wants money held positive, so a card's balance is negated. QuickBooks' API says
 * nothing of which lines are reconciled (no cleared or reconciled status on the v3 entities), so
 * the reconciled balance is 0 and the connector has no reconciledLines.
 */
import type { SystemBankAccount } from '../types.js';
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

export function bankAccountsOf(accounts: QbBankAccount[], homeCurrency: string): SystemBankAccount[] {
  return accounts
    .filter((a) => (a.AccountType === 'Bank' || a.AccountType === 'Credit Card') && a.Active !== false)
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
        // a card's CurrentBalance is what is owed on it
        balance: card ? -balance : balance,
        reconciledBalance: 0,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.accountId.localeCompare(b.accountId));
}
