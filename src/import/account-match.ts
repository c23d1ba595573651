/**
 * Which statements of a file belong to the account being imported into. Banks write one account
 * number many ways (an IBAN or the national part of it, a sort code with or without dashes, a
 * masked card number), so numbers are compared on their letters and digits, a shorter one may be
 * the end of a longer one, and a masked number is compared on its last four digits.
 */
import { ImportRefusal } from './refusal.js';
import type { SkippedLine, Statement } from './statement.js';

export function normaliseAccountNumber(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

const MASK = /[•*·]|[xX]{3,}/;

/** True when the number carries no digits a comparison could use (`XXXXXXXXXX`). */
export function isFullyMasked(text: string): boolean {
  return MASK.test(text) && !/\d/.test(text);
}

export function sameAccountNumber(stored: string, fromFile: string): boolean {
  const a = normaliseAccountNumber(stored);
  const b = normaliseAccountNumber(fromFile);
  if (!a || !b) return false;
  if (a === b) return true;
  if (MASK.test(stored) || MASK.test(fromFile)) {
    const lastDigits = (s: string) => s.replace(/\D/g, '').slice(-4);
    return lastDigits(stored).length === 4 && lastDigits(stored) === lastDigits(fromFile);
  }
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 4 && longer.endsWith(shorter);
}

export interface Selection {
  statements: Statement[];
  skipped: SkippedLine[];
  /** the file's one account identifier, for a new account's number */
  accountId: string | null;
}

/**
 * The statements to import: those whose account matches `number`. An account without a number
 * takes a file about one account; a file about several needs the number to choose. A file about
 * other accounts only is refused.
 */
export function selectStatements(statements: Statement[], number: string, accountName: string): Selection {
  const usable = (s: Statement) => s.accountId !== null && !isFullyMasked(s.accountId);
  const ids = [...new Set(statements.filter(usable).map((s) => s.accountId!))];
  if (!number.trim()) {
    if (ids.length > 1) {
      throw new ImportRefusal(
        'wrong_account',
        `the file holds statements for ${ids.length} accounts (${ids.join(', ')}) and account "${accountName}" has no number to choose one by; give it ` +
          `the number of the one to import`,
      );
    }
    return { statements, skipped: [], accountId: ids[0] ?? null };
  }
  const chosen: Statement[] = [];
  const skipped: SkippedLine[] = [];
  for (const s of statements) {
    if (!usable(s) || sameAccountNumber(number, s.accountId!)) chosen.push(s);
    else skipped.push({ where: s.where, reason: `statement of another account (${s.accountId}, ${s.lines.length} transactions)` });
  }
  if (chosen.length === 0) {
    const named = statements.map((s) => `${s.where}: account ${s.accountId}`).join('; ');
    throw new ImportRefusal(
      'wrong_account',
      `the file is not about account "${accountName}" (number ${number}): ${named}`,
      statements.map((s) => ({ where: s.where, message: `account ${s.accountId}` })),
    );
  }
  return { statements: chosen, skipped, accountId: ids.length === 1 ? ids[0]! : null };
}
