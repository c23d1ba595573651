/**
 * GnuCash account types to Ledgerline's account types (and so classifications and report places).
 * GnuCash has one generic type where Ledgerline's reports distinguish several (ASSET: current or
 * fixed; LIABILITY: current or long term; INCOME: trading or other; EXPENSE: cost of sales,
 * operating or other); the account's own name and its ancestors' names decide, the way GnuCash's
 * own account templates name those branches. The rules are documented in docs/gnucash.md.
 */
import { ACCOUNT_TYPES, AccountingSystemError, type AccountType, type Classification } from '../types.js';

const FIXED_ASSETS = /\bfixed assets?\b|\bnon[- ]?current assets?\b/i;
const LONG_TERM = /\blong[- ]?term\b|\bnon[- ]?current liabilit|\bmortgages?\b/i;
const OTHER_INCOME = /\bother income\b/i;
const COST_OF_SALES = /\bcost of (sales|goods( sold)?)\b|\bcogs\b/i;
const OTHER_EXPENSES = /\bother expenses?\b/i;

const DIRECT: Record<string, AccountType> = {
  BANK: 'Bank',
  CASH: 'Bank',
  CHECKING: 'Bank',
  SAVINGS: 'Bank',
  MONEYMRKT: 'Bank',
  RECEIVABLE: 'Accounts Receivable',
  STOCK: 'Other Asset',
  MUTUAL: 'Other Asset',
  CURRENCY: 'Other Asset',
  CREDIT: 'Credit Card',
  CREDITLINE: 'Other Current Liability',
  PAYABLE: 'Accounts Payable',
  EQUITY: 'Equity',
  // GnuCash's balance sheet shows trading accounts with equity
  TRADING: 'Equity',
};

/**
 * @param gnucashType accounts.account_type, e.g. "BANK"
 * @param path the names from the top-level account down to this one
 */
export function accountTypeFor(gnucashType: string, path: string[]): AccountType {
  const direct = DIRECT[gnucashType];
  if (direct) return direct;
  const named = (pattern: RegExp) => path.some((name) => pattern.test(name));
  switch (gnucashType) {
    case 'ASSET':
      return named(FIXED_ASSETS) ? 'Fixed Asset' : 'Other Current Asset';
    case 'LIABILITY':
      return named(LONG_TERM) ? 'Long Term Liability' : 'Other Current Liability';
    case 'INCOME':
      return named(OTHER_INCOME) ? 'Other Income' : 'Income';
    case 'EXPENSE':
      return named(COST_OF_SALES) ? 'Cost of Goods Sold' : named(OTHER_EXPENSES) ? 'Other Expense' : 'Expense';
    default:
      throw new AccountingSystemError(`the GnuCash account "${path.join(':')}" has the type "${gnucashType}", which GnuCash does not define`);
  }
}

export function classificationOf(type: AccountType): Classification {
  return ACCOUNT_TYPES[type];
}

/** The equity account that holds the profit of earlier years (GnuCash's Close Book target). */
export const RETAINED_EARNINGS = /\bretained (earnings|profits?)\b/i;
