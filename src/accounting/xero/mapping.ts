/**
 * Xero's vocabulary to Ledgerline's, as docs/xero.md lists it: account types (and so
 * classifications and report places), journal source types to transaction types, Xero's
 * "/Date(ms+0000)/" dates and decimal amounts.
 */
import type { IsoDate } from '../../domain/dates.js';
import { vendorAmounts } from '../vendor-amounts.js';
import { ACCOUNT_TYPES, AccountingSystemError, type AccountType, type Classification, type TransactionType } from '../types.js';

/** Xero's Account.Type values, each to the Ledgerline type whose report place matches Xero's own report. */
const ACCOUNT_TYPE: Record<string, AccountType> = {
  BANK: 'Bank',
  CURRENT: 'Other Current Asset',
  INVENTORY: 'Other Current Asset',
  PREPAYMENT: 'Other Current Asset',
  FIXED: 'Fixed Asset',
  NONCURRENT: 'Other Asset',
  CURRLIAB: 'Other Current Liability',
  LIABILITY: 'Other Current Liability',
  PAYG: 'Other Current Liability',
  TERMLIAB: 'Long Term Liability',
  EQUITY: 'Equity',
  REVENUE: 'Income',
  SALES: 'Income',
  OTHERINCOME: 'Other Income',
  DIRECTCOSTS: 'Cost of Goods Sold',
  EXPENSE: 'Expense',
  OVERHEADS: 'Expense',
  DEPRECIATN: 'Expense',
};

/** When Xero adds a type: its Class still places the account. */
const BY_CLASS: Record<string, AccountType> = {
  ASSET: 'Other Current Asset',
  LIABILITY: 'Other Current Liability',
  EQUITY: 'Equity',
  REVENUE: 'Income',
  EXPENSE: 'Expense',
};

export interface XeroAccountFacts {
  Type?: string;
  Class?: string;
  SystemAccount?: string;
  Name?: string;
}

export function accountTypeFor(account: XeroAccountFacts): AccountType {
  if (account.SystemAccount === 'DEBTORS') return 'Accounts Receivable';
  if (account.SystemAccount === 'CREDITORS') return 'Accounts Payable';
  const type = (account.Type && ACCOUNT_TYPE[account.Type]) ?? (account.Class && BY_CLASS[account.Class]);
  if (!type) throw new AccountingSystemError(`the Xero account "${account.Name ?? '?'}" has the type "${account.Type}", which Ledgerline does not know`);
  return type;
}

export function classificationOf(type: AccountType): Classification {
  return ACCOUNT_TYPES[type];
}

/**
 * Journal.SourceType to a transaction type. Spend and receive money on a credit card account
 * (BankAccountType CREDITCARD) are card_charge and card_refund; elsewhere expense and deposit.
 */
export function transactionTypeFor(sourceType: string | undefined, onCard: boolean): TransactionType {
  switch (sourceType) {
    case 'ACCPAY':
      return 'bill';
    case 'ACCPAYCREDIT':
      return 'supplier_credit';
    case 'CASHPAID':
    case 'EXTERNALSPENDMONEY':
      return onCard ? 'card_charge' : 'expense';
    case 'CASHREC':
      return onCard ? 'card_refund' : 'deposit';
    case 'EXPCLAIM':
      return 'expense';
    case 'ACCREC':
    case 'ACCRECCREDIT':
      return 'invoice';
    case 'ACCRECPAYMENT':
    case 'ACCPAYPAYMENT':
    case 'ARCREDITPAYMENT':
    case 'APCREDITPAYMENT':
    case 'ARPREPAYMENT':
    case 'APPREPAYMENT':
    case 'AROVERPAYMENT':
    case 'APOVERPAYMENT':
    case 'EXPPAYMENT':
    case 'INTEGRATEDPAYROLLPTPAYMENT':
      return 'payment';
    case 'TRANSFER':
      return 'transfer';
    default:
      // MANJOURNAL, payroll (PAYSLIP, WAGEPAYABLE, INTEGRATEDPAYROLL*) and anything newer
      return 'journal';
  }
}

/** Xero's "/Date(1539993600000+0000)/" (or an ISO text) as the calendar date it stands for, in UTC. */
export function xeroDate(value: string | undefined): IsoDate | null {
  if (!value) return null;
  const ms = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  const time = ms ? Number(ms[1]) : Date.parse(value);
  if (Number.isNaN(time)) return null;
  return new Date(time).toISOString().slice(0, 10);
}

const amounts = vendorAmounts('Xero');
/** A decimal amount of Xero's as minor units of the currency (vendor-amounts.ts). */
export const minorUnits = amounts.minorUnits;
/** An amount of Xero's converted at a rate of Xero's to home-currency minor units (vendor-amounts.ts). */
export const homeAmount = amounts.homeAmount;
