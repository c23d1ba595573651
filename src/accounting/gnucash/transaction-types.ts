/**
 * Which of the spec's transaction types a GnuCash transaction is. GnuCash records no such type for
 * transactions typed into a register, so they are read from what the transaction does; the posted
 * transactions of GnuCash's business documents and its payments say what they are. In order:
 *
 * 1. the posted transaction of a vendor bill or an employee expense voucher: bill, or
 *    supplier_credit for a credit note; of a customer invoice (or its credit note): invoice;
 * 2. a business payment or lot link (txn_type P or L), or any other transaction on an accounts
 *    receivable or payable account: payment;
 * 3. bank (or cash) and credit card accounts only, or both in one transaction: transfer;
 * 4. bank with other accounts: money out is a cheque when the number is all digits, else an
 *    expense; money in is a deposit;
 * 5. credit card with other accounts: card_charge when the card's balance grows, card_refund when
 *    it shrinks;
 * 6. anything else (no bank, card, receivable or payable account): journal.
 */
import type { AccountType, TransactionType } from '../types.js';
import { signOf, sumOf, type Fraction } from './fractions.js';

export type OwnerKind = 'supplier' | 'customer' | 'employee';

export interface TransactionFacts {
  /** present when the transaction is the posted transaction of a business document */
  document?: { ownerKind: OwnerKind | undefined; creditNote: boolean };
  /** GnuCash's trans-txn-type: I (invoice), P (payment), L (lot link), or null */
  txnType: string | null;
  num: string | null;
  /** every counted split: its account's type and its value (signs are all that matter) */
  splits: { type: AccountType; value: Fraction }[];
}

export function transactionType(facts: TransactionFacts): TransactionType {
  if (facts.document) {
    const { ownerKind, creditNote } = facts.document;
    if (ownerKind === 'customer') return 'invoice';
    return creditNote ? 'supplier_credit' : 'bill';
  }
  if (facts.txnType === 'P' || facts.txnType === 'L') return 'payment';
  if (facts.splits.some((s) => s.type === 'Accounts Receivable' || s.type === 'Accounts Payable')) return 'payment';
  const bank = facts.splits.filter((s) => s.type === 'Bank');
  const card = facts.splits.filter((s) => s.type === 'Credit Card');
  const others = facts.splits.length - bank.length - card.length;
  if (bank.length > 0 && card.length > 0) return 'transfer';
  if (bank.length > 0) {
    if (others === 0) return 'transfer';
    const net = signOf(sumOf(bank.map((s) => s.value)));
    if (net < 0) return facts.num !== null && /^\d+$/.test(facts.num.trim()) ? 'cheque' : 'expense';
    return net > 0 ? 'deposit' : 'transfer';
  }
  if (card.length > 0) {
    if (others === 0) return 'transfer';
    const net = signOf(sumOf(card.map((s) => s.value)));
    return net < 0 ? 'card_charge' : net > 0 ? 'card_refund' : 'transfer';
  }
  return 'journal';
}
