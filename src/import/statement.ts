/**
 * What every format is read into: statements of one account each, with their own balances and
 * booked lines in integer minor units. The importer works only with this shape, so the account,
 * currency, balance and duplicate rules are written once for every format.
 */

export const FORMATS = ['ofx', 'camt', 'csv', 'mt940', 'qif'] as const;
export type FormatName = (typeof FORMATS)[number];

export interface StatementLine {
  /** where in the file, for messages: `line 12`, `<STMTTRN> at line 41` */
  where: string;
  /** booking date, yyyy-MM-dd */
  date: string;
  /** minor units of the statement's currency; negative for money out */
  amount: number;
  /** the bank's narration, as given (joined from the format's fields) */
  description: string;
  /** the bank's own id for the transaction (FITID, AcctSvcrRef, MT940 bank reference), when it gives one */
  externalId: string | null;
}

export interface SkippedLine {
  where: string;
  reason: string;
}

export interface Balance {
  /** minor units of the statement's currency */
  amount: number;
  date: string | null;
  where: string;
}

export interface Statement {
  /** where the statement starts in the file */
  where: string;
  /** the bank's account identifier (ACCTID, IBAN, :25:), when the file gives one */
  accountId: string | null;
  /** `credit_card` when the format says so (OFX CCSTMTRS) */
  accountKind: 'bank' | 'credit_card' | null;
  bankName: string | null;
  /** ISO 4217; null when the file does not say (most CSV, QIF) and the account's is assumed */
  currency: string | null;
  /** the period the statement says it covers */
  period: { from: string | null; to: string | null };
  opening: Balance | null;
  closing: Balance | null;
  /** OFX AVAILBAL: what may be spent (holds and limits counted), kept and shown, not a ledger balance */
  available: Balance | null;
  /**
   * Disagreements found inside the statement beyond opening + entries = closing, such as a CSV
   * running balance that does not follow from the amounts. Any of them makes the statement unbalanced.
   */
  balanceProblems: { where: string; message: string }[];
  lines: StatementLine[];
  skipped: SkippedLine[];
}

export interface ParsedFile {
  /** e.g. `OFX 1.02`, `camt.053.001.04`, `CSV (preset bank-of-ireland)` */
  format: string;
  /** the short name used in source labels: OFX, CAMT.053, CSV, MT940, QIF */
  label: string;
  statements: Statement[];
  notes: string[];
}

/**
 * Joins narration parts (payee, memo, remittance text…) the way a person would read them: empty
 * parts dropped, and a part already contained in another (a NAME repeated inside the MEMO) given once.
 */
export function joinNarration(parts: Array<string | null | undefined>, separator = ' / '): string {
  const kept: Array<{ text: string; lower: string }> = [];
  for (const raw of parts) {
    const text = (raw ?? '').trim();
    if (!text) continue;
    const lower = text.toLowerCase();
    if (kept.some((k) => containsWords(k.lower, lower))) continue;
    for (let i = kept.length - 1; i >= 0; i--) if (containsWords(lower, kept[i]!.lower)) kept.splice(i, 1);
    kept.push({ text, lower });
  }
  return kept.map((k) => k.text).join(separator);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);

/** `needle` occurs in `haystack` (both lower case) as whole words: "sepa-ueberw" is not in "sepa-ueberweisung". */
function containsWords(haystack: string, needle: string): boolean {
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if (!(isWordChar(before) && isWordChar(needle[0])) && !(isWordChar(after) && isWordChar(needle[needle.length - 1]))) return true;
  }
  return false;
}

export function emptyStatement(where: string): Statement {
  return {
    where,
    accountId: null,
    accountKind: null,
    bankName: null,
    currency: null,
    period: { from: null, to: null },
    opening: null,
    closing: null,
    available: null,
    balanceProblems: [],
    lines: [],
    skipped: [],
  };
}
