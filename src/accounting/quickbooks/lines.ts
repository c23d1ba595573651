/**
 * QuickBooks transactions as ledger lines: each transaction posted from its own fields (Bill,
 * BillPayment, VendorCredit, Purchase, Deposit, Transfer, JournalEntry, Invoice, Payment,
 * SalesReceipt, RefundReceipt, CreditMemo), debit positive in the home currency, one transaction
 * per entity record (`<Entity>:<Id>`).
 *
 * A sale's lines as Intuit's schema defines them (docs/quickbooks.md, "Sales"): an item line
 * (`SalesItemLineDetail`) on its `ItemAccountRef`, else its Item's `IncomeAccountRef` (the first
 * version skipped an item line without ItemAccountRef, losing every item-based sale: issue 38,
 * item 3); a group line's own lines (`GroupLineDetail.Line`), not the group line itself; a discount
 * line (`DiscountLineDetail`) on its `DiscountAccountRef`, against the sale; the tax it charges
 * (`TxnTaxDetail.TaxLine`) on its agency's `TaxTrackedOnSalesAccountRef`; subtotal and description
 * lines post nothing. An invoice and a credit memo post against accounts receivable, a sales
 * receipt and a refund receipt against the account the money went into or came out of (Undeposited
 * Funds when they name none, as QuickBooks does); so does a customer payment naming none. A
 * deposit's line that brings in such a payment or receipt (LinkedTxn, no account of its own) takes
 * it out of Undeposited Funds.
 */
import { sum } from '../../domain/money.js';
import type { LedgerLine } from '../types.js';
import { homeAmount, linkFor, minorUnits, transactionTypeFor, type TransactionEntity } from './mapping.js';
import { NO_PURCHASE_ACCOUNTS, purchaseAccounts, taxLinesOf, type PurchaseAccounts, type QbItem, type QbTaxAgency, type QbTaxRate } from './purchases.js';
import type { QbAccount, QbLine, QbTransaction, Ref } from './records.js';

export interface PostingDefaults {
  homeCurrency: string;
  /** the company's Accounts Payable account (a bill without APAccountRef posts to it) */
  payable?: string | undefined;
  /** the company's Accounts Receivable account */
  receivable?: string | undefined;
  /** Undeposited Funds (AccountSubType UndepositedFunds): where a receipt naming no account went, and what a deposit of it takes out */
  undeposited?: string | undefined;
  /** where item lines and tax post (purchases.ts) */
  purchases: PurchaseAccounts;
}

/** The accounts QuickBooks posts to when a transaction names none (the first active one of the type), and those of items and tax. */
export function postingDefaults(
  homeCurrency: string,
  lists: { accounts: QbAccount[]; items?: QbItem[]; taxRates?: QbTaxRate[]; taxAgencies?: QbTaxAgency[] },
): PostingDefaults {
  const first = (type: string) => lists.accounts.find((a) => a.AccountType === type && a.Active !== false)?.Id;
  const undeposited = lists.accounts.find((a) => a.AccountSubType === 'UndepositedFunds' && a.Active !== false)?.Id;
  const purchases = lists.items || lists.taxRates ? purchaseAccounts(lists.items ?? [], lists.taxRates ?? [], lists.taxAgencies ?? []) : NO_PURCHASE_ACCOUNTS;
  return { homeCurrency, payable: first('Accounts Payable'), receivable: first('Accounts Receivable'), undeposited, purchases };
}

const SALES = new Set<TransactionEntity>(['Invoice', 'SalesReceipt', 'RefundReceipt', 'CreditMemo']);

/** A sale's lines that post, a group line's own lines in its place (a group line cannot hold groups). */
function salesLines(lines: QbLine[]): QbLine[] {
  return lines.flatMap((l) => (l.GroupLineDetail ? (l.GroupLineDetail.Line ?? []) : [l]));
}

export const transactionIdOf = (entity: TransactionEntity, id: string) => `${entity}:${id}`;

/** One transaction's lines as QuickBooks posts it: its detail lines, and the account on the other side. */
export function postTransaction(
  entity: TransactionEntity,
  t: QbTransaction,
  { homeCurrency, payable, receivable, undeposited, purchases }: PostingDefaults,
): LedgerLine[] {
  if (!t.TxnDate) return [];
  const currency = t.CurrencyRef?.value ?? homeCurrency;
  const rate = currency === homeCurrency ? 1 : (t.ExchangeRate ?? 1);
  const type = transactionTypeFor(entity, t);
  const transactionId = transactionIdOf(entity, t.Id);
  const header = t.PrivateNote || t.Memo || '';
  const party = t.VendorRef ?? t.CustomerRef ?? t.EntityRef;
  const out: LedgerLine[] = [];
  const push = (accountId: string | undefined, amount: number, amountInCurrency: number, description: string, contact: Ref | undefined) => {
    if (!accountId) return;
    out.push({
      transactionId,
      lineNo: out.length + 1,
      date: t.TxnDate!,
      type,
      number: t.DocNumber || null,
      contactId: contact?.value ?? null,
      contactName: contact?.name ?? null,
      description,
      accountId,
      amount,
      currency,
      amountInCurrency,
      link: linkFor(entity, t.Id, t.PaymentType),
      // a bill or supplier credit is a document documents.get shows (documents.ts)
      documentId: entity === 'Bill' || entity === 'VendorCredit' ? transactionId : null,
    });
  };
  const add = (accountId: string | undefined, major: number, description: string, contact: Ref | undefined) =>
    push(accountId, rate === 1 ? minorUnits(major, currency) : homeAmount(major, rate, homeCurrency), minorUnits(major, currency), description, contact);
  const detail = (l: QbLine) =>
    l.AccountBasedExpenseLineDetail?.AccountRef?.value ??
    l.DepositLineDetail?.AccountRef?.value ??
    l.JournalEntryLineDetail?.AccountRef?.value ??
    purchases.itemAccount(l.ItemBasedExpenseLineDetail?.ItemRef?.value);
  const posted = (t.Line ?? []).filter((l) => detail(l) !== undefined);
  if (entity === 'JournalEntry') {
    for (const l of posted) {
      const d = l.JournalEntryLineDetail!;
      add(detail(l), (d.PostingType === 'Credit' ? -1 : 1) * (l.Amount ?? 0), l.Description || header, d.Entity?.EntityRef);
    }
    return out;
  }
  if (entity === 'BillPayment') {
    const from = t.PayType === 'CreditCard' ? t.CreditCardPayment?.CCAccountRef?.value : t.CheckPayment?.BankAccountRef?.value;
    add(t.APAccountRef?.value ?? payable, t.TotalAmt ?? 0, header, party);
    add(from, -(t.TotalAmt ?? 0), header, party);
    return out;
  }
  if (entity === 'Payment') {
    // a customer payment: into the bank (or Undeposited Funds), off what the customer owes
    add(t.DepositToAccountRef?.value ?? undeposited, t.TotalAmt ?? 0, header, party);
    add(t.ARAccountRef?.value ?? receivable, -(t.TotalAmt ?? 0), header, party);
    return out;
  }
  if (entity === 'Transfer') {
    add(t.ToAccountRef?.value, t.Amount ?? 0, header, undefined);
    add(t.FromAccountRef?.value, -(t.Amount ?? 0), header, undefined);
    return out;
  }
  if (SALES.has(entity)) {
    // invoices and sales receipts credit their income lines; refund receipts and credit memos debit them
    const sign = entity === 'Invoice' || entity === 'SalesReceipt' ? -1 : 1;
    for (const l of salesLines(t.Line ?? [])) {
      const item = l.SalesItemLineDetail;
      if (item) add(item.ItemAccountRef?.value ?? purchases.salesAccount(item.ItemRef?.value), sign * (l.Amount ?? 0), l.Description || header, party);
      // a discount reduces the sale: it goes against the income lines
      else if (l.DiscountLineDetail) add(l.DiscountLineDetail.DiscountAccountRef?.value, -sign * (l.Amount ?? 0), l.Description || header, party);
    }
    for (const x of taxLinesOf(t)) add(purchases.salesTaxAccount(x.rateId), sign * x.amount, x.rate, party);
    const other = entity === 'Invoice' || entity === 'CreditMemo' ? (t.ARAccountRef?.value ?? receivable) : (t.DepositToAccountRef?.value ?? undeposited);
    const total = (k: 'amount' | 'amountInCurrency') => sum(out.map((l) => l[k]));
    push(other, -total('amount'), -total('amountInCurrency'), header, party);
    return out;
  }
  // bills and purchases debit their lines; supplier credits, card refunds and deposits credit them
  const sign = entity === 'Bill' || (entity === 'Purchase' && !t.Credit) ? 1 : -1;
  for (const l of posted) {
    add(detail(l), sign * (l.Amount ?? 0), l.Description || header, l.DepositLineDetail?.Entity ?? party);
  }
  // a deposit's line bringing in a payment or sales receipt received into Undeposited Funds takes it out of there
  if (entity === 'Deposit')
    for (const l of t.Line ?? []) if (detail(l) === undefined && l.LinkedTxn?.length) add(undeposited, -(l.Amount ?? 0), l.Description || header, party);
  // the tax a purchase document charges, on its tax agency's account (purchases.ts)
  if (entity === 'Bill' || entity === 'VendorCredit' || entity === 'Purchase')
    for (const x of taxLinesOf(t)) add(purchases.taxAccount(x.rateId), sign * x.amount, x.rate, party);
  const other =
    entity === 'Bill' || entity === 'VendorCredit'
      ? (t.APAccountRef?.value ?? payable)
      : entity === 'Purchase'
        ? t.AccountRef?.value
        : t.DepositToAccountRef?.value;
  // the other side carries the document's contact (a deposit's only when its lines name no other)
  const contacts = new Set(posted.map((l) => l.DepositLineDetail?.Entity?.value));
  const depositContact = contacts.size === 1 ? posted[0]?.DepositLineDetail?.Entity : undefined;
  // in minor units, so the transaction balances to the cent
  const total = (k: 'amount' | 'amountInCurrency') => sum(out.map((l) => l[k]));
  push(other, -total('amount'), -total('amountInCurrency'), header, entity === 'Deposit' ? depositContact : party);
  return out;
}
