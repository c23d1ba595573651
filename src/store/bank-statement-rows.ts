/**
 * The rows of statement imports and their balances (migration 020, issue 40), kept beside
 * schema.ts (which holds every other table) and added to its Database by declaration merging.
 */
/** One imported file: a batch, removed whole (store/bank-imports.ts). */
export interface BankImportRow {
  id: string;
  organisation_id: string;
  bank_account_id: string;
  file_name: string;
  format: string;
  /** the lines it added */
  lines: number;
  already_present: number;
  skipped: number;
  /** the user who imported it; null from the command line */
  created_by: string | null;
  /** 'page' or 'command line' */
  created_via: string;
  created_at: string;
}

/**
 * A statement's own balances (kind 'statement', with the import it came in), or an opening balance
 * an admin entered (kind 'opening_balance', no import). Amounts in minor units of the account's currency.
 */
export interface BankStatementRow {
  id: string;
  organisation_id: string;
  bank_account_id: string;
  import_id: string | null;
  kind: string;
  source: string;
  /** the first and last day the statement covers: its lines, its period and its balances' dates */
  start_date: string;
  end_date: string;
  /** the balance before the statement's first day; derived (closing less the lines) where the file gives only a closing one */
  opening_amount: number | null;
  /** the same in home currency, at the import's rate */
  opening_home: number | null;
  opening_date: string | null;
  opening_derived: number;
  closing_amount: number | null;
  closing_date: string | null;
  /** OFX AVAILBAL: what the bank says may be spent, not a ledger balance */
  available_amount: number | null;
  available_date: string | null;
  /** the sum of the statement's lines (all of them, already present ones too) */
  entries_amount: number;
  lines: number;
  /** closing - (opening + entries) when the statement gives both; 0 when it reconciles */
  difference: number | null;
  created_at: string;
}

declare module './schema.js' {
  interface Database {
    bank_imports: BankImportRow;
    bank_statements: BankStatementRow;
  }
}
