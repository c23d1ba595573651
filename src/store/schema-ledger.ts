/**
 * Row types of the builtin ledger's aggregates beside acct_month_totals (schema.ts), joined into its
 * Database (accounting/builtin/line-aggregates.ts keeps them):
 * - acct_day_totals (migration 005): per account and day;
 * - acct_month_line_totals (005): per account, month, transaction type and contact, with the count;
 * - acct_day_line_totals (015): the same per day.
 */

export interface AcctDayTotalRow {
  organisation_id: string;
  account_id: string;
  /** yyyy-MM-dd */
  date: string;
  /** home currency minor units, debit positive */
  amount: number;
}

export interface AcctMonthLineTotalRow {
  organisation_id: string;
  account_id: string;
  /** yyyy-MM */
  month: string;
  type: string;
  /** the lines' contact, '' for lines without one */
  contact_key: string;
  amount: number;
  count: number;
}

/** acct_month_line_totals' row per day rather than month */
export type AcctDayLineTotalRow = Omit<AcctMonthLineTotalRow, 'month'> & {
  /** yyyy-MM-dd */
  date: string;
};

export interface LedgerAggregateTables {
  acct_day_totals: AcctDayTotalRow;
  acct_month_line_totals: AcctMonthLineTotalRow;
  acct_day_line_totals: AcctDayLineTotalRow;
}
