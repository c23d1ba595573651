/** The service's bank tables: accounts, who holds them, their lines, the lines' matches and their daily and monthly totals (schema.ts re-exports them). */

export interface BankAccountRow {
  id: string;
  organisation_id: string;
  name: string;
  number: string;
  /** bank | credit_card */
  type: string;
  bank: string;
  currency: string;
  is_default: number;
  ledger_account_id: string | null;
  created_at: string;
}

export interface BankAccountHolderRow {
  bank_account_id: string;
  organisation_id: string;
  user_id: string;
}

export interface BankTransactionRow {
  id: string;
  organisation_id: string;
  bank_account_id: string;
  date: string;
  description: string;
  /** account currency minor units, negative for money spent */
  amount: number;
  /** home currency minor units */
  home_amount: number;
  /** to_reconcile | reconciled */
  status: string;
  /** service | accounting_system | outside_service, null while to_reconcile */
  reconciled_in: string | null;
  suggested_match: number;
  document_id: string | null;
  /** where the transaction came from: a statement or feed, shown as `report` */
  source: string;
  /** the bank's own id (FITID, AcctSvcrRef), when it has one */
  external_id: string | null;
  /** unique per account: what makes an import idempotent */
  fingerprint: string;
  created_at: string;
  /** the import (bank_imports) the line came in with; null or absent for lines from before it and the demo's */
  import_id?: string | null;
  /** the match (bank_matches) the line belongs to; null while it is not matched in the service */
  match_id?: string | null;
  /** the service's suggestion for a line to reconcile: the candidate document, its score (0-100) and why, in words */
  suggested_document_id?: string | null;
  suggestion_score?: number | null;
  suggestion_reasons?: string | null;
  /** the account's lines on this date up to and including this one, in id order, summed (store/bank-day-through.ts); kept by the store */
  day_through?: number | string;
}

export interface BankMatchRow {
  id: string;
  organisation_id: string;
  bank_account_id: string;
  document_id: string;
  /** document: the lines are the document's own spend or refund; payment: they pay a bill or expense claim */
  kind: string;
  /** minor units of the bank account's currency */
  amount: number;
  difference: number;
  /** fee | rounding, when there is a difference */
  difference_kind: string | null;
  difference_account_id: string | null;
  payment_id: string | null;
  payment_link: string | null;
  payment_key: string | null;
  bill_id: string | null;
  bill_amount_due_before: number | null;
  created_by: string | null;
  created_at: string;
}

/** Per bank account and day, the sums of its transactions (migration 004-bank-totals; store/bank-totals.ts keeps them). */
export interface BankDailyTotalRow {
  organisation_id: string;
  bank_account_id: string;
  /** yyyy-MM-dd */
  date: string;
  /** account currency minor units: the sum of the day's positive amounts */
  amount_in: number;
  /** account currency minor units: the sum of the sizes of the day's negative amounts (positive) */
  amount_out: number;
  /** the same in home currency, split by the sign of home_amount */
  home_in: number;
  home_out: number;
  transactions: number;
  to_reconcile: number;
}

/** The month's days summed (014-bank-month-totals); `last_date` is the month's last day with transactions. */
export interface BankMonthTotalRow extends Omit<BankDailyTotalRow, 'date'> {
  /** yyyy-MM */
  month: string;
  last_date: string;
}

export interface BankTotalsTables {
  bank_daily_totals: BankDailyTotalRow;
  bank_month_totals: BankMonthTotalRow;
}
