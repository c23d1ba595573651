/**
 * Why a statement file is refused. A refusal always means nothing from the file was written, and
 * its message names the line or element at fault so the person importing can look at it.
 */

export type RefusalCode =
  /** the file cannot be read as the format it claims or seems to be */
  | 'malformed'
  /** the format is not one Ledgerline imports, or cannot be told from the content */
  | 'unsupported_format'
  /** the statement belongs to another account than the one imported into */
  | 'wrong_account'
  /** the statement's currency is not the account's */
  | 'wrong_currency'
  /** opening balance plus the entries is not the closing balance; a journal transaction whose postings do not sum to zero */
  | 'unbalanced'
  /** a journal names an account the organisation's chart has not (and no new accounts were allowed) */
  | 'unknown_account'
  /** a journal amount in a currency that is not ISO 4217 */
  | 'unknown_currency'
  /** a journal's balance assertion does not hold */
  | 'assertion_failed'
  /** larger than the import size limit */
  | 'too_large'
  /** an entry or posting larger than the largest amount the service takes in (domain/money.ts MAX_AMOUNT_MINOR), in its currency or the home currency */
  | 'amount_too_large'
  /** an XML document type declaration (entity expansion, external entities) */
  | 'unsafe_xml'
  /** a bank id already imported with another date or amount */
  | 'conflict'
  /** a foreign-currency account needs an exchange rate to the home currency */
  | 'rate_required'
  /** the options given do not fit the file (an unknown preset, a column that is not there) */
  | 'bad_options'
  /** another process kept the database's writer longer than the import would wait (SQLite); nothing is wrong with the file */
  | 'busy'
  /** an import (batch) to remove that the organisation does not have */
  | 'not_found'
  /** an import to remove with lines reconciled or matched to a document */
  | 'reconciled';

export interface Problem {
  /** `line 12`, `<STMTTRN> at line 41`, `Stmt 1 / Ntry 3 at line 77` */
  where: string;
  message: string;
}

/** How many problems one refusal lists; past that the count is given. */
const LISTED = 20;

export class ImportRefusal extends Error {
  override name = 'ImportRefusal';
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }

  /** One refusal for a list of problems found while reading the file. */
  static of(code: RefusalCode, summary: string, problems: Problem[]): ImportRefusal {
    const listed = problems.slice(0, LISTED).map((p) => `${p.where}: ${p.message}`);
    const more = problems.length > LISTED ? `; and ${problems.length - LISTED} more` : '';
    return new ImportRefusal(code, `${summary}: ${listed.join('; ')}${more}`, problems);
  }
}

/** Collects per-element problems while a file is read, so one refusal names all of them. */
export class Problems {
  readonly list: Problem[] = [];
  add(where: string, message: string): void {
    this.list.push({ where, message });
  }
  get any(): boolean {
    return this.list.length > 0;
  }
  throwIfAny(summary: string): void {
    if (this.any) throw ImportRefusal.of('malformed', summary, this.list);
  }
}
