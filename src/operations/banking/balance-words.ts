/**
 * What a bank account's figures are, in words a person or a model reads (issue 40 item 5): the
 * bank's balance and the date it is at, what it is counted from, what is missing, the books'
 * balance of the linked account at that date, and what is still to reconcile.
 */
import { formatMoney } from '../../domain/money.js';
import type { BalanceState } from '../../domain/statement-balances.js';

export interface FiguresToSay {
  currency: string;
  balance: number;
  balanceDate: string | null;
  state: BalanceState;
  book: { name: string; balance: number | null; why: string | null } | null;
  /** why there is no book figure when the account is not linked, or the books could not be read */
  noBook: string | null;
}

export function basisWords(state: BalanceState, currency: string): string {
  const anchor = state.anchor;
  if (state.basis === 'statements' && anchor) {
    const how = anchor.openingDerived ? 'its closing balance less its lines' : 'its opening balance';
    return `counted from the bank's own balance: ${formatMoney(anchor.opening!, currency)} before ${anchor.start} (${anchor.source}, ${how})`;
  }
  if (state.basis === 'opening_balance' && anchor)
    return `counted from the opening balance entered for the account: ${formatMoney(anchor.opening!, currency)} before ${anchor.start}`;
  return (
    'the sum of the imported transactions only: no statement with a balance has been imported and no opening balance entered, so it may differ ' +
    'from what the bank holds'
  );
}

export function incompleteWords(state: BalanceState, currency: string): string | null {
  if (state.incompleteFrom === null) return null;
  const first = state.problems[0]!;
  const what = {
    gap: 'transactions are missing between two statements',
    unbalanced: "a statement's own lines do not take its opening balance to its closing balance",
    differs: "the transactions held over a statement's days are not its lines",
  }[first.kind];
  const total = state.unexplained
    ? `; in all the bank's latest balance is ${formatMoney(Math.abs(state.unexplained), currency)} ${state.unexplained > 0 ? 'more' : 'less'} than the ` +
      `transactions give`
    : '';
  return `The balance is incomplete from ${state.incompleteFrom}: ${what} (${first.source}, ${formatMoney(first.amount, currency)})${total}.`;
}

export function figuresWords(f: FiguresToSay): string {
  const at = f.balanceDate ? ` at ${f.balanceDate}` : '';
  const parts = [`Bank balance ${formatMoney(f.balance, f.currency)}${at}, ${basisWords(f.state, f.currency)}.`];
  const incomplete = incompleteWords(f.state, f.currency);
  if (incomplete) parts.push(incomplete);
  if (f.book && f.book.balance !== null) {
    const difference = f.balance - f.book.balance;
    parts.push(
      `Book balance ${formatMoney(f.book.balance, f.currency)}${at} in the books' account ${f.book.name}; ` +
        (difference === 0
          ? 'the two agree, nothing to reconcile.'
          : `${formatMoney(difference, f.currency)} still to reconcile (bank balance less book balance).`),
    );
  } else if (f.book) parts.push(`Linked to the books' account ${f.book.name}, whose balance is not given: ${f.book.why ?? 'unknown'}.`);
  else if (f.noBook) parts.push(f.noBook);
  return parts.join(' ');
}
