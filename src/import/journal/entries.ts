/**
 * What a general-journal file says, before any of it is checked against the books: transactions
 * with their postings, as text where the file had text, each with the line it came from so a
 * refusal can name it. Both readers (csv-journal.ts, hledger.ts) produce this; settle.ts turns it
 * into exact minor units and resolve.ts into the organisation's accounts.
 */
import type { AccountType } from '../../domain/chart.js';

export interface JournalPosting {
  /** `line 12` */
  where: string;
  /** full name, Parent:Child, or an account number (CSV) */
  account: string;
  /** a plain decimal in major units, or null where the file leaves it to balance the transaction */
  amount: string | null;
  /** the commodity as written (ISO 4217 code or a symbol such as £); null = the home currency */
  currency: string | null;
  /** what the amount is worth in the home currency, when it is in another */
  price: Price | null;
  description: string | null;
  /** the posting's own date (hledger's and Ledger's `; date: DATE` on a posting); null = the transaction's */
  date: string | null;
  /** a balance the account must have after this posting, in `currency` (hledger's `= AMOUNT`) */
  assertion: Assertion | null;
}

/**
 * hledger's balance assertions: `=` the account's balance in the amount's commodity, `==` and
 * nothing in any other commodity, `=*` and `==*` the same of the account with its sub-accounts.
 */
export interface Assertion {
  amount: string;
  currency: string | null;
  /** `==`: no other commodity either */
  total: boolean;
  /** `=*`: the account and its sub-accounts */
  inclusive: boolean;
}

/** hledger's `@ unit price` / `@@ total price`, or a CSV rate (a unit price with no commodity). */
export interface Price {
  /** a plain unsigned decimal */
  amount: string;
  /** must be the home currency where given */
  commodity: string | null;
  per: 'unit' | 'total';
}

export interface JournalEntry {
  where: string;
  date: string;
  number: string | null;
  /** a Ledgerline transaction type, as the file names it; null = told from the postings (infer-type.ts) */
  type: string | null;
  contact: string | null;
  /**
   * hledger's payee where the file names no contact (no `PAYEE | NOTE`, no `contact:` tag): the
   * whole description, taken as the contact of a typed transaction (load.ts); null in CSV files,
   * whose contact column says it
   */
  payee: string | null;
  /** hledger's `closing:` tag on the transaction: true (any value but no/false/keep), false (to keep a closing entry), null (none) */
  closing: boolean | null;
  description: string;
  postings: JournalPosting[];
}

export interface DeclaredAccount {
  where: string;
  name: string;
  type: AccountType | null;
}

export interface ParsedJournal {
  format: JournalFormat;
  entries: JournalEntry[];
  /** accounts the file declares (hledger `account` directives); created with the entries' accounts */
  accounts: DeclaredAccount[];
  notes: string[];
}

export const JOURNAL_FORMATS = ['csv', 'journal'] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];
