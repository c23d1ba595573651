/**
 * The accounting system boundary. The service reads the chart of accounts, reports and ledger lines
 * "live from the accounting system" through this interface only; each connected system (the builtin
 * ledger, a GnuCash book, …) implements it without leaking its own storage.
 *
 * Amounts are integer minor units of the organisation's home currency, signed debit-positive.
 */
import type { IsoDate } from '../domain/dates.js';
import type { LedgerGrouping, LineGroup } from '../domain/ledger-groups.js';
import type { ProblemCode } from '../domain/problems.js';
import type { DateRange } from '../domain/range-split.js';

export type { LedgerGrouping, LineGroup };

export { ACCOUNT_TYPES, CLASSIFICATIONS, type AccountType, type ChartAccount, type Classification } from '../domain/chart.js';
import type { ChartAccount } from '../domain/chart.js';

/**
 * Ledger transaction types. The first seven are the ones ledger.account_transactions lists; the
 * rest exist in the books and are what `reconcile` explains.
 */
export const LISTED_TYPES = ['bill', 'expense', 'cheque', 'card_charge', 'card_refund', 'supplier_credit', 'deposit'] as const;
export const OTHER_TYPES = ['journal', 'invoice', 'payment', 'transfer'] as const;
export type ListedType = (typeof LISTED_TYPES)[number];
export type TransactionType = ListedType | (typeof OTHER_TYPES)[number];

export interface Contact {
  id: string;
  name: string;
  kind: 'supplier' | 'customer' | 'employee';
}

export type { DateRange };

export interface LineQuery {
  accountIds: string[];
  from: IsoDate;
  to: IsoDate;
  types: readonly TransactionType[];
  /** only lines of these contacts ('' = lines with no contact) */
  contactIds?: string[];
}

export interface LedgerLine {
  transactionId: string;
  lineNo: number;
  date: IsoDate;
  type: TransactionType;
  number: string | null;
  contactId: string | null;
  contactName: string | null;
  description: string;
  accountId: string;
  /** home currency, debit positive */
  amount: number;
  currency: string;
  /** in `currency`, debit positive */
  amountInCurrency: number;
  /** a link to the transaction in the accounting system's own interface, if it has one */
  link: string | null;
  /** the system's own purchase document the transaction posted (SystemDocument.documentId), if any */
  documentId?: string | null;
}

/**
 * A bill or expense claim the connected system holds that still has something to pay: a document of
 * the system's own (GnuCash: a posted vendor bill or employee expense voucher). Credit notes are
 * not listed: what they credit is already taken off the bills they were applied to.
 */
export interface PayableBill {
  /** the system's id of the document (GnuCash: the invoice's guid) */
  documentId: string;
  /** the transaction that published it, as ledger lines carry it (GnuCash: the posted transaction's guid) */
  transactionId: string;
  kind: 'bill' | 'expense_claim';
  /** the supplier; for an expense claim the employee and the claim */
  supplier: string;
  /** the supplier's invoice number, else the system's document number */
  number: string;
  date: IsoDate;
  dueDate: IsoDate;
  /** the document's own currency */
  currency: string;
  /** minor units of `currency` */
  originalAmount: number;
  /** after part payments and credits, home-currency minor units */
  amountDue: number;
  note: string | null;
}

/**
 * A customer invoice (or credit note) the connected system holds as a document of its own that is
 * still open at a date: its balance after the payments and credit notes applied to it by then.
 */
export interface OpenReceivable {
  documentId: string;
  transactionId: string;
  contactId: string;
  contactName: string;
  number: string;
  date: IsoDate;
  /** the invoice's due date; its date when it has none */
  dueDate: IsoDate;
  /** home-currency minor units still owed to the organisation (negative for a credit note not yet applied) */
  amountDue: number;
}

/** What a document line was published with: one split of the published transaction. */
export interface SystemCodedLine {
  id: string;
  description: string;
  accountId: string;
  account: string;
  /** minor units of the document's currency, positive for what the document charges */
  amount: number;
  /** true when the line is the tax the document charges */
  isTax: boolean;
}

/** One line of the document as issued (GnuCash: one entry of the bill). */
export interface SystemInvoiceLine {
  id: string;
  description: string;
  unit: string | null;
  quantity: number;
  /** minor units of the document's currency (unit prices may carry more digits: kept as GnuCash has them) */
  unitPrice: number;
  tax: number;
  amount: number;
}

/** A document behind a published transaction, in the connected system. */
export interface SystemDocument {
  documentId: string;
  transactionId: string;
  number: string;
  type: 'bill' | 'expense_claim' | 'supplier_credit';
  supplier: string;
  date: IsoDate;
  dueDate: IsoDate | null;
  currency: string;
  /** minor units of `currency` */
  subtotal: number;
  tax: number;
  total: number;
  codedLines: SystemCodedLine[];
  invoiceLines: SystemInvoiceLine[];
  /** a link the system keeps to the original (GnuCash's document link); never a file the service can hand out */
  attachmentLink: string | null;
  /** true when the system holds the original file and hands it out (AccountingSystem.documentFile) */
  hasFile?: boolean;
}

/** A bank or card account of the connected books, which statements can be imported against. */
export interface SystemBankAccount {
  /** the ledger account's id (GnuCash: the account's guid), what bank_accounts.ledger_account_id links to */
  accountId: string;
  name: string;
  /** the account's code in the books ('' when it has none) */
  number: string;
  type: 'bank' | 'credit_card';
  /** the account's own currency */
  currency: string;
  /** minor units of `currency`, money held positive (a card's balance owed is negative), at the date bankAccounts was asked for */
  balance: number;
  /** the part of the balance made of lines reconciled in the books, same units, at that date too */
  reconciledBalance: number;
}

/**
 * A service document to write to the books as the transaction its type is (documents.publish):
 * a bill or expense claim as a bill owed to the supplier or employee, a receipt as a spend from a
 * bank or card account, a supplier credit as a credit note. Amounts are minor units of `currency`,
 * positive; every line is coded to an account of the chart.
 */
export interface DocumentToPublish {
  /** the service's document id */
  documentId: string;
  /**
   * The key every try of this publish is sent under (Xero's Idempotency-Key, QuickBooks'
   * requestid), and the mark the system's record carries (findPublished looks it up by it).
   */
  key: string;
  kind: 'bill' | 'spend' | 'credit';
  type: 'bill' | 'receipt' | 'expense_claim' | 'supplier_credit';
  /** the supplier (an employee for an expense claim); id null when it is new to the books and is to be created */
  contact: { id: string | null; name: string; kind: 'supplier' | 'employee' };
  /** the supplier's invoice or receipt number */
  number: string;
  date: IsoDate;
  dueDate: IsoDate | null;
  currency: string;
  /** home units per unit of `currency` (decimal text) when it is not the home currency; null otherwise */
  exchangeRate: string | null;
  lines: { description: string; accountId: string; taxCodeId: string | null; quantity: string; subtotal: number; tax: number; total: number }[];
  subtotal: number;
  tax: number;
  total: number;
  /** a spend's bank or card account (its ledger account id); null for the other kinds */
  paidFromAccountId: string | null;
  /** the original, attached where the system takes attachments */
  file: { fileName: string; contentType: string; data: Buffer } | null;
}

/** What a publish wrote in the system. */
export interface PublishedTransaction {
  /** the transaction as the system's ledger lines carry it (LedgerLine.transactionId) */
  transactionId: string;
  /** the system's id of the document (Xero's InvoiceID, BankTransactionID or CreditNoteID; QuickBooks' Bill, Purchase or VendorCredit Id) */
  documentId: string;
  /** the transaction in the system's own interface */
  link: string | null;
}

/** banking.match: a published bill or expense claim paid from a bank or card account. */
export interface BillPayment {
  /** the key every try of this payment is sent under (idempotency), and the mark its record carries */
  key: string;
  /** PublishedTransaction.documentId of the bill */
  billDocumentId: string;
  /** the bill's supplier (or employee) as published */
  contact: { id: string | null; name: string };
  /** the bank or card account paid from (ledger account id) */
  bankAccountId: string;
  date: IsoDate;
  /** minor units of `currency` (the bill's and the account's), positive: what the bill is paid */
  amount: number;
  currency: string;
  /** words the system shows with the payment (the bank narration) */
  reference: string;
}

/**
 * The system refused a write (a validation error, a closed period or lock date, an archived
 * account): nothing was written. `field` names the document's field the refusal is about, where
 * the system says.
 */
export class AccountingRefused extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'AccountingRefused';
  }
}

export interface AccountingSystem {
  readonly kind: string;
  chartOfAccounts(): Promise<ChartAccount[]>;
  contacts(): Promise<Contact[]>;
  /** For each account with any movement, its debit-positive movement in each range, in order. */
  accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>>;
  /** Sum and count of the matching lines by domain/ledger-groups.ts groupKey (supplier: the contact); groups without lines are left out. */
  lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]>;
  /**
   * The matching lines, newest first (date, then transaction id descending, then line number), at
   * most `limit` of them after the first `offset` (default 0) in that order are skipped: a page.
   */
  lines(query: LineQuery, limit: number, offset?: number): Promise<LedgerLine[]>;
  /**
   * Bills and expense claims still to pay that the system holds as documents of its own, in no
   * particular order. Systems without such documents (the builtin ledger: the service's own bills
   * are its documents) answer an empty list or leave the method out.
   */
  payables?(): Promise<PayableBill[]>;
  /**
   * Customer invoices and credit notes open at `asAt` that the system holds as documents of its own
   * (GnuCash: posted customer invoices with a balance on their lot). Systems without such documents
   * leave the method out: receivables are then read from the receivable accounts' lines.
   */
  receivables?(asAt: IsoDate): Promise<OpenReceivable[]>;
  /** The purchase documents with these ids (PayableBill.documentId); unknown ids are left out. */
  documents?(documentIds: string[]): Promise<SystemDocument[]>;
  /**
   * The original file of one of the system's documents (SystemDocument.documentId), as the system
   * holds it; null when the document is unknown or has no file the system hands out. `size`, when
   * given, is the length the system records: over documents.file's 10 MB, `data` may be left unread.
   */
  documentFile?(documentId: string): Promise<{ fileName: string; contentType: string; data: Buffer; size?: number } | null>;
  /**
   * The books' active bank and card accounts with their balances at `asAt`: what the books hold on
   * each dated on or before it, never a line dated later (a future-dated payment is not in today's
   * balance). Left out by systems whose bank accounts are the service's own.
   */
  bankAccounts?(asAt: IsoDate): Promise<SystemBankAccount[]>;
  /**
   * The lines of a bank or card account the books mark reconciled, dated from..to: date and amount
   * (minor units of the account's currency, money in positive), one per line.
   */
  reconciledLines?(accountId: string, from: IsoDate, to: IsoDate): Promise<{ date: IsoDate; amount: number }[]>;
  /**
   * The system's own balance sheet totals at a date, read live from its report (Xero's and
   * QuickBooks' BalanceSheet): Total Assets, Total Liabilities, Total Equity and Total Liabilities
   * and Equity in home-currency minor units, to check Ledgerline's against (`ledgerline
   * check-books`). Left out by systems whose reports are Ledgerline's own.
   */
  ownBalanceSheetTotals?(asAt: IsoDate): Promise<{ label: string; amount: number }[]>;
  /**
   * Writes a document to the books (documents.publish) and brings the service's copy of the books
   * (the mirror) up to date with it. Left out by systems whose books cannot be written through
   * Ledgerline (GnuCash: read from its file). The builtin ledger is written by the operation itself,
   * in the database transaction that marks the document published.
   * Throws AccountingRefused when the system refuses, AccountingSystemError when the outcome is unknown.
   */
  publish?(doc: DocumentToPublish): Promise<PublishedTransaction>;
  /** The transaction an earlier try of this publish (same key) made, when its outcome was not known; null when there is none. */
  findPublished?(doc: DocumentToPublish): Promise<PublishedTransaction | null>;
  /** Records a published bill's payment from a bank account (banking.match); answers the system's payment id. */
  payBill?(payment: BillPayment): Promise<{ paymentId: string; link: string | null }>;
  /** The payment an earlier try of this payment (same key) made, when its outcome was not known; null when there is none. */
  findPayment?(payment: BillPayment): Promise<{ paymentId: string; link: string | null } | null>;
  /** Undoes a payment payBill made (banking.unmatch): the bill is owed again. */
  removePayment?(paymentId: string): Promise<void>;
  /** Is the system reachable and readable? */
  check(): Promise<void>;
  /**
   * Text that changes whenever the books change, so answers can be reused while it stands; null
   * (or no method) when the system cannot tell, and then nothing is reused. Systems stored in
   * Ledgerline's own database answer a constant: their changes move organisations.data_version.
   */
  changeToken?(): Promise<string | null>;
}

export class AccountingSystemError extends Error {
  constructor(
    message: string,
    readonly code: Extract<ProblemCode, 'accounting_unavailable' | 'accounting_timeout' | 'accounting_rate_limited'> = 'accounting_unavailable',
    /** seconds until the system will answer again, where it says (a rate limit) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AccountingSystemError';
  }
}
