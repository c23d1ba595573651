/**
 * The transaction type of a journal transaction whose file names none (no `type:` tag, an empty
 * CSV Type cell), told from its postings as QuickBooks, Xero and GnuCash would have recorded it.
 * In order, the first rule that applies:
 *
 * 1. an opening or closing entry (its description says "opening balance(s)", "closing
 *    balance(s)" or "closing entry"): journal;
 * 2. Accounts Payable and Accounts Receivable together, or either with an equity account: journal;
 * 3. Accounts Payable with a bank or card account: payment (a bill payment); without one, a
 *    credit to payables is a bill and a debit a supplier_credit;
 * 4. Accounts Receivable with a bank or card account: payment (a customer's payment); without
 *    one: invoice (a credit note is an invoice with a negative amount, as Xero's ACCRECCREDIT);
 * 5. bank or cash and card accounts only (or both): transfer;
 * 6. a bank or cash account with other accounts: money out is a cheque when the transaction's
 *    number is all digits, else an expense; money in is a deposit;
 * 7. a card with other accounts: card_charge when what is owed on the card grows, card_refund when
 *    it shrinks;
 * 8. anything else: journal.
 *
 * Rules 5 to 8 are GnuCash's (src/accounting/gnucash/transaction-types.ts), which reads register
 * transactions the same way. Pure.
 */
import { ACCOUNT_TYPES, type AccountType } from '../../domain/chart.js';
import type { TransactionType } from '../../accounting/types.js';

export interface TypedPosting {
  /** the type of the account the posting is on */
  accountType: AccountType;
  /** home minor units, debit positive */
  amount: number;
}

const OPENING_OR_CLOSING = /\b(opening|closing)\s+balances?\b|\bclosing\s+(entry|entries)\b/i;

export function inferTransactionType(postings: readonly TypedPosting[], number: string | null, description: string): TransactionType {
  if (OPENING_OR_CLOSING.test(description)) return 'journal';
  const net = (type: AccountType) => postings.filter((p) => p.accountType === type).reduce((s, p) => s + p.amount, 0);
  const has = (type: AccountType) => postings.some((p) => p.accountType === type);
  const payable = has('Accounts Payable');
  const receivable = has('Accounts Receivable');
  const bank = has('Bank');
  const card = has('Credit Card');
  const equity = has('Equity');
  if (payable && receivable) return 'journal';
  if (payable || receivable) {
    if (bank || card) return 'payment';
    if (equity) return 'journal';
    if (receivable) return 'invoice';
    const owed = net('Accounts Payable');
    return owed < 0 ? 'bill' : owed > 0 ? 'supplier_credit' : 'journal';
  }
  const others = postings.filter((p) => p.accountType !== 'Bank' && p.accountType !== 'Credit Card').length;
  if ((bank || card) && others === 0) return 'transfer';
  if (bank && card) return 'transfer';
  if (bank) {
    const moved = net('Bank');
    if (moved < 0) return number !== null && /^\d+$/.test(number.trim()) ? 'cheque' : 'expense';
    return moved > 0 ? 'deposit' : 'transfer';
  }
  if (card) {
    const moved = net('Credit Card');
    return moved < 0 ? 'card_charge' : moved > 0 ? 'card_refund' : 'transfer';
  }
  return 'journal';
}

/** Types a transaction has a contact on: every one but journals and transfers. */
export function hasCounterparty(type: TransactionType): boolean {
  return type !== 'journal' && type !== 'transfer';
}

/**
 * A closing entry: a transaction that moves a period's income and expenses to equity (retained
 * earnings), as `hledger close` writes one ("closing balances"). Ledgerline closes each financial
 * year itself (the balance sheet's retained earnings are the profit of earlier years), so such an
 * entry would only zero the year's profit and loss; load.ts leaves it out of the books. It is one
 * when its postings are on income or expense accounts and equity accounts only, at least one of
 * each, and it says so: a `closing:` tag, or a description naming a closing, a year end or
 * retained earnings. A `closing: no` tag keeps it.
 */
export function isClosingEntry(postings: readonly TypedPosting[], description: string, tag: boolean | null): boolean {
  if (tag === false) return false;
  const profitAndLoss = postings.filter((p) => ACCOUNT_TYPES[p.accountType] === 'Revenue' || ACCOUNT_TYPES[p.accountType] === 'Expense').length;
  const equity = postings.filter((p) => p.accountType === 'Equity').length;
  if (profitAndLoss === 0 || equity === 0 || profitAndLoss + equity !== postings.length) return false;
  return tag === true || CLOSING.test(description);
}

const CLOSING = /\b(clos(e|es|ed|ing)|year[ -]?end|retained earnings|retain earnings)\b/i;
