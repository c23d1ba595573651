/**
 * QuickBooks Online's vocabulary to Ledgerline's, as docs/quickbooks.md lists it: account types
 * (QuickBooks' AccountType values are the spec's own), classifications, transaction entities to
 * transaction types, decimal amounts to minor units, and links to QuickBooks' own pages.
 */
import { vendorAmounts } from '../vendor-amounts.js';
import { ACCOUNT_TYPES, AccountingSystemError, type AccountType, type Classification, type TransactionType } from '../types.js';

/** When QuickBooks adds an AccountType: its Classification still places the account. */
const BY_CLASSIFICATION: Record<string, AccountType> = {
  Asset: 'Other Current Asset',
  Liability: 'Other Current Liability',
  Equity: 'Equity',
  Revenue: 'Income',
  Expense: 'Expense',
};

export interface QuickBooksAccountFacts {
  Name?: string;
  AccountType?: string;
  Classification?: string;
}

/** QuickBooks' AccountType is one of the spec's types (Non-Posting accounts are left out of the chart before this). */
export function accountTypeFor(account: QuickBooksAccountFacts): AccountType {
  if (account.AccountType && Object.hasOwn(ACCOUNT_TYPES, account.AccountType)) return account.AccountType as AccountType;
  const byClass = account.Classification ? BY_CLASSIFICATION[account.Classification] : undefined;
  if (!byClass)
    throw new AccountingSystemError(`the QuickBooks account "${account.Name ?? '?'}" has the type "${account.AccountType}", which Ledgerline does not know`);
  return byClass;
}

export function classificationOf(type: AccountType): Classification {
  return ACCOUNT_TYPES[type];
}

/** The transaction entities the connector reads, and the type each one's lines get. */
export const TRANSACTION_ENTITIES = [
  'Bill',
  'BillPayment',
  'VendorCredit',
  'Purchase',
  'Deposit',
  'Transfer',
  'JournalEntry',
  'Invoice',
  'Payment',
  'SalesReceipt',
  'RefundReceipt',
  'CreditMemo',
] as const;
export type TransactionEntity = (typeof TRANSACTION_ENTITIES)[number];

export function transactionTypeFor(entity: TransactionEntity, purchase?: { PaymentType?: string; Credit?: boolean }): TransactionType {
  switch (entity) {
    case 'Bill':
      return 'bill';
    case 'VendorCredit':
      return 'supplier_credit';
    case 'BillPayment':
    case 'Payment':
      return 'payment';
    case 'Deposit':
    case 'SalesReceipt':
      return 'deposit';
    case 'Transfer':
      return 'transfer';
    case 'Invoice':
    case 'CreditMemo':
      // a customer credit, as Xero's ACCRECCREDIT: what the organisation billed, less
      return 'invoice';
    case 'RefundReceipt':
      // money paid back to a customer
      return 'expense';
    case 'JournalEntry':
      return 'journal';
    case 'Purchase':
      switch (purchase?.PaymentType) {
        case 'CreditCard':
          return purchase.Credit ? 'card_refund' : 'card_charge';
        case 'Check':
          return 'cheque';
        default:
          // Cash, and the Expense/Other kinds some regions use
          return 'expense';
      }
  }
}

/** QuickBooks' page of a transaction (app.qbo.intuit.com), by entity; a Check purchase opens as a cheque. */
export function linkFor(entity: TransactionEntity, id: string, paymentType?: string): string {
  const page: Record<TransactionEntity, string> = {
    Bill: 'bill',
    BillPayment: 'billpayment',
    VendorCredit: 'vendorcredit',
    Purchase: paymentType === 'Check' ? 'check' : paymentType === 'CreditCard' ? 'creditcardcharge' : 'expense',
    Deposit: 'deposit',
    Transfer: 'transfer',
    JournalEntry: 'journal',
    Invoice: 'invoice',
    Payment: 'recvpayment',
    SalesReceipt: 'salesreceipt',
    RefundReceipt: 'refundreceipt',
    CreditMemo: 'creditmemo',
  };
  return `https://app.qbo.intuit.com/app/${page[entity]}?txnId=${encodeURIComponent(id)}`;
}

const amounts = vendorAmounts('QuickBooks');
/** A decimal amount of QuickBooks' as minor units of the currency (vendor-amounts.ts). */
export const minorUnits = amounts.minorUnits;
/** An amount of QuickBooks' times its ExchangeRate (home per unit of the amount's currency) as home-currency minor units (vendor-amounts.ts). */
export const homeAmount = (value: number, rate: number, homeCurrency: string): number => amounts.homeAmount(value, rate, 'times', homeCurrency);
