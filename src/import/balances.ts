/**
 * A statement checks itself: its opening balance plus its booked entries must give its closing
 * balance, and a running-balance column must follow from the amounts. Only the file's own figures
 * are compared; what Ledgerline already holds for the account is reported beside them, not
 * checked, because an account's history may start after the bank's.
 */
import { formatMoney } from '../domain/money.js';
import type { Problem } from './refusal.js';
import type { Statement } from './statement.js';

export type BalanceStatus = 'reconciled' | 'unbalanced' | 'not_available';

export interface BalanceCheck {
  status: BalanceStatus;
  /** opening + entries, when the statement has an opening balance */
  computedClosing: number | null;
  problems: Problem[];
}

export function checkBalance(statement: Statement, currency: string): BalanceCheck {
  const entries = statement.lines.reduce((sum, l) => sum + l.amount, 0);
  const opening = statement.opening;
  const closing = statement.closing;
  const computedClosing = opening ? opening.amount + entries : null;
  const problems: Problem[] = [...statement.balanceProblems];
  if (opening && closing && computedClosing !== closing.amount) {
    problems.push({
      where: statement.where,
      message:
        `opening balance ${formatMoney(opening.amount, currency)} (${opening.where}) plus the ${statement.lines.length} entries ` +
        `(${formatMoney(entries, currency)}) is ${formatMoney(computedClosing!, currency)}, but the closing balance is ` +
        `${formatMoney(closing.amount, currency)} (${closing.where}): ${formatMoney(closing.amount - computedClosing!, currency)} unexplained`,
    });
  }
  const status: BalanceStatus = problems.length ? 'unbalanced' : opening && closing ? 'reconciled' : 'not_available';
  return { status, computedClosing, problems };
}
