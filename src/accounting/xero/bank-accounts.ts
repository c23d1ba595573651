/**
 * A Xero organisation's bank and card accounts (docs/xero.md, "Bank accounts"): accounts of Type
 * BANK that are ACTIVE, a credit card being BankAccountType CREDITCARD. The balance at a date is the
 * sum of the account's journal lines dated on or before it (debit positive: money held positive, a
 * card's balance owed negative; the reader passes them, and the reconciled lines, up to that date),
 * which are in the home currency; so only accounts kept in the home currency are listed
 * (a foreign-currency account's balance in its own currency is in no list the connector reads).
 * Reconciled lines are the bank transactions and payments Xero marks IsReconciled (money out
 * negative, money in positive, in the bank account's currency).
 */
import type { IsoDate } from '../../domain/dates.js';
import type { SystemBankAccount } from '../types.js';
import { minorUnits, xeroDate } from './mapping.js';

export interface XeroBankAccountFacts {
  AccountID: string;
  Code?: string;
  Name: string;
  Type?: string;
  Status?: string;
  BankAccountType?: string;
  CurrencyCode?: string;
}

export interface XeroBankLine {
  BankTransactionID: string;
  Type?: string;
  Status?: string;
  BankAccount?: { AccountID?: string };
  Date?: string;
  Total?: number;
  CurrencyCode?: string;
  IsReconciled?: boolean;
}

export interface XeroPayment {
  PaymentID?: string;
  PaymentType?: string;
  Status?: string;
  Account?: { AccountID?: string };
  Date?: string;
  Amount?: number;
  /** in the bank account's currency */
  BankAmount?: number;
  CurrencyRate?: number;
  IsReconciled?: boolean;
}

/** Payments that bring money into the bank account (a customer paying, a supplier refunding); the rest take it out. */
const PAYMENTS_IN = new Set(['ACCRECPAYMENT', 'APCREDITPAYMENT', 'APOVERPAYMENTPAYMENT', 'APPREPAYMENTPAYMENT']);

interface Reconciled {
  accountId: string;
  date: IsoDate;
  amount: number;
}

/** Xero's reconciled bank transactions and payments, signed as money in positive. */
function reconciled(transactions: XeroBankLine[], payments: XeroPayment[], homeCurrency: string): Reconciled[] {
  const paid = payments.flatMap((p) => {
    const date = xeroDate(p.Date);
    const accountId = p.Account?.AccountID;
    if (!p.IsReconciled || !date || !accountId || p.Status === 'DELETED') return [];
    const sign = PAYMENTS_IN.has(p.PaymentType ?? '') ? 1 : -1;
    // BankAmount is in the bank account's currency; without it, Amount is (a payment in the home currency)
    return [{ accountId, date, amount: sign * minorUnits(p.BankAmount ?? p.Amount, homeCurrency) }];
  });
  return paid.concat(
    transactions.flatMap((t) => {
      const date = xeroDate(t.Date);
      const accountId = t.BankAccount?.AccountID;
      if (!t.IsReconciled || !date || !accountId || t.Status === 'DELETED' || t.Status === 'VOIDED') return [];
      // RECEIVE, RECEIVE-OVERPAYMENT, RECEIVE-PREPAYMENT, RECEIVE-TRANSFER bring money in; the SPEND kinds take it out
      const sign = t.Type?.startsWith('RECEIVE') ? 1 : -1;
      return [{ accountId, date, amount: sign * minorUnits(t.Total, t.CurrencyCode ?? homeCurrency) }];
    }),
  );
}

/** `balances`: each account's journal balance at the date asked (debit positive, home currency), by AccountID. */
export function xeroBankAccounts(
  accounts: XeroBankAccountFacts[],
  balances: Map<string, number>,
  transactions: XeroBankLine[],
  payments: XeroPayment[],
  homeCurrency: string,
): SystemBankAccount[] {
  const banks = accounts.filter((a) => a.Type === 'BANK' && a.Status === 'ACTIVE' && (a.CurrencyCode ?? homeCurrency) === homeCurrency);
  const cleared = new Map<string, number>();
  for (const r of reconciled(transactions, payments, homeCurrency)) cleared.set(r.accountId, (cleared.get(r.accountId) ?? 0) + r.amount);
  return banks
    .map((a) => ({
      accountId: a.AccountID,
      name: a.Name,
      number: a.Code?.trim() ?? '',
      type: a.BankAccountType === 'CREDITCARD' ? ('credit_card' as const) : ('bank' as const),
      currency: homeCurrency,
      balance: balances.get(a.AccountID) ?? 0,
      reconciledBalance: cleared.get(a.AccountID) ?? 0,
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.accountId.localeCompare(b.accountId));
}

export function xeroReconciledLines(
  transactions: XeroBankLine[],
  payments: XeroPayment[],
  homeCurrency: string,
  accountId: string,
  from: IsoDate,
  to: IsoDate,
): { date: IsoDate; amount: number }[] {
  return reconciled(transactions, payments, homeCurrency)
    .filter((r) => r.accountId === accountId && r.date >= from && r.date <= to)
    .map(({ date, amount }) => ({ date, amount }));
}
