/** What a caller asks of an import: the file, the account it goes into, and how strictly to check. */
import type { Transaction } from 'kysely';
import type { BankAccountRow, Database, OrganisationRow } from '../store/schema.js';
import type { ParseOptions } from './parse.js';

export interface NewBankAccount {
  name: string;
  type: 'bank' | 'credit_card';
  currency: string;
  bank?: string;
  /** defaults to the account identifier of the file */
  number?: string;
  /** the ledger account of the organisation's books it is (e.g. a GnuCash bank account's guid), if any */
  ledgerAccountId?: string;
  /**
   * the balance before the transactions of `date` (minor units of `currency`), as the admin knows
   * it: the account's balance starts from it unless a statement starts earlier
   */
  openingBalance?: { amount: number; date: string };
}

export interface ImportOptions extends ParseOptions {
  /** no longer needed: a statement whose balances do not reconcile is imported with its difference shown (kept for callers that still pass it) */
  allowUnbalanced?: boolean;
  /** refuse a statement whose balances do not reconcile instead of importing it with the difference shown */
  refuseUnbalanced?: boolean;
  /** who imports: a user of the page, or the command line; listed with the import (store/bank-imports.ts) */
  importedBy?: { userId: string | null; via: string };
  /** check and report, write nothing */
  dryRun?: boolean;
  /** home-currency units per unit of the account's currency, decimal text; needed for a foreign-currency account */
  rate?: string;
  /** SQLite: how long to wait for another process's write (another import) before refusing as busy; default write-turn.ts WRITER_WAIT_MS */
  waitMs?: number;
  /** called once if the file has to wait for another process's write */
  onWait?: () => void;
  /** more to write in the import's own transaction once the lines are in (its audit entry): it commits with them or not at all */
  alsoWrite?: (trx: Transaction<Database>, written: WrittenSummary) => Promise<void>;
}

/** What an import wrote, as its audit entry says it. */
export interface WrittenSummary {
  account: BankAccountRow;
  created: boolean;
  format: string;
  new: number;
  alreadyPresent: number;
  /** the import (batch) it was recorded as; null when it added no line and no statement */
  importId: string | null;
}

export interface ImportRequest {
  organisation: OrganisationRow;
  /** an existing account, or one to create in the same database transaction as the import */
  account: BankAccountRow | { create: NewBankAccount };
  fileName: string;
  bytes: Uint8Array;
  options?: ImportOptions;
}
