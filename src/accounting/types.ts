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

export interface DateRange {
  /** inclusive; undefined = from the beginning of the books */
  from?: IsoDate;
  /** inclusive */
  to: IsoDate;
}

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
}

export interface AccountingSystem {
  readonly kind: string;
  chartOfAccounts(): Promise<ChartAccount[]>;
  contacts(): Promise<Contact[]>;
  /** For each account with any movement, its debit-positive movement in each range, in order. */
  accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>>;
  /** Sum and count of the matching lines by domain/ledger-groups.ts groupKey (supplier: the contact); groups without lines are left out. */
  lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]>;
  /** The matching lines, newest first, at most `limit` of them. */
  lines(query: LineQuery, limit: number): Promise<LedgerLine[]>;
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
    readonly code: Extract<ProblemCode, 'accounting_unavailable' | 'accounting_timeout'> = 'accounting_unavailable',
  ) {
    super(message);
    this.name = 'AccountingSystemError';
  }
}
