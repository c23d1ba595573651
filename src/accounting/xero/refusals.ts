/**
 * Xero's refusal of a write (a 400 ValidationException, writes.ts) as AccountingRefused naming the
 * field of the document (or payment) it is about. Xero says which in words only, so the field is
 * read from them: a lock date or closed period is the date; an account code (or id) Xero names is
 * the line coded to it, or the account paid from; then the contact, the currency, the number, the
 * file and the amounts. A message naming none of them leaves the field null.
 */
import { AccountingRefused } from '../types.js';
import type { XeroRefusal } from './writes.js';

/** What the request carried that a message may name: each line's account (code and id), the bank account's. */
export interface SentFacts {
  lines?: { code: string | null; id: string }[];
  /** the field the bank or card account is (paidFromAccountId for a spend, bankAccountId for a payment) */
  bank?: { field: string; code: string | null; id: string };
  /** the field the amount is, when one amount was sent (a payment) */
  amountField?: string;
}

const LOCK = /lock date|locked|period (is )?closed|closed period|end of year|financial year/i;

function fieldOf(message: string, sent: SentFacts): string | null {
  if (LOCK.test(message)) return 'date';
  const names = (code: string | null, id: string) =>
    (code !== null && new RegExp(`(^|[^\\w])${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`).test(message)) || message.includes(id);
  if (sent.bank && /bank ?account|account.*(bank|payment)/i.test(message) && !sent.lines?.some((l) => names(l.code, l.id))) return sent.bank.field;
  if (/account|tax ?type|tax rate/i.test(message)) {
    const index = sent.lines?.findIndex((l) => names(l.code, l.id)) ?? -1;
    if (index >= 0) return `lines[${index}].accountId`;
    if (sent.bank && names(sent.bank.code, sent.bank.id)) return sent.bank.field;
    if (sent.lines?.length === 1) return 'lines[0].accountId';
  }
  if (/contact|supplier/i.test(message)) return 'contact';
  if (/currency|exchange rate/i.test(message)) return 'currency';
  if (/invoice ?number|credit ?note ?number|reference|number/i.test(message)) return 'number';
  if (/attachment|file/i.test(message)) return 'file';
  if (/date/i.test(message)) return 'date';
  if (/amount|total|add up|outstanding/i.test(message)) return sent.amountField ?? 'total';
  return null;
}

/** The refusal as the interface's AccountingRefused: Xero's words, the first field they name. */
export function refused(refusal: XeroRefusal, sent: SentFacts): AccountingRefused {
  const field = refusal.messages.map((m) => fieldOf(m, sent)).find((f) => f !== null) ?? null;
  return new AccountingRefused(`Xero refused it: ${refusal.messages.join('; ')}`, field);
}
