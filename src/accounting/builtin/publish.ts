/**
 * Publishing a service document to the builtin ledger (documents.publish), and a bill's payment
 * (banking.match): balanced transactions written inside the caller's database transaction, the
 * one that marks the document published or the lines matched, so the books and the service never
 * disagree about what was written.
 */
import type { Transaction } from 'kysely';
import { convert } from '../../domain/money.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import type { Database } from '../../store/schema.js';
import type { DocumentToPublish, PublishedTransaction, TransactionType } from '../types.js';
import { LedgerWriter, type NewLine } from './writer.js';

export interface BuiltinAccounts {
  /** the Accounts Payable account bills and credits are owed on; null for a spend, paid from its own account */
  payableId: string | null;
  /** where a document's tax goes; null when the document has none */
  taxId: string | null;
  /** the paid-from account's type, for a spend (a card's spend is a card charge) */
  paidFromType?: 'Bank' | 'Credit Card' | null;
}

/**
 * The document's ledger lines, debit positive in home units: each coded line's subtotal to its
 * account, the tax to the tax account, and the total against the counter account (payable, or the
 * bank or card paid from). A foreign document is converted line by line at its rate; the cent that
 * rounding leaves is put on the largest line, so the home total is the total converted once.
 */
export function documentLines(doc: DocumentToPublish, counterId: string, taxId: string | null, homeCurrency: string): NewLine[] {
  const rate = doc.currency === homeCurrency ? null : doc.exchangeRate;
  const home = (minor: number) => (rate === null ? minor : convert(minor, doc.currency, rate, homeCurrency));
  const lines: NewLine[] = doc.lines.map((l) => ({
    accountId: l.accountId,
    amount: home(l.subtotal),
    amountInCurrency: l.subtotal,
    description: l.description,
  }));
  if (doc.tax !== 0) {
    if (!taxId) throw new Error('a document with tax needs a tax account');
    lines.push({ accountId: taxId, amount: home(doc.tax), amountInCurrency: doc.tax, description: `Tax on ${doc.number}` });
  }
  const homeTotal = home(doc.total);
  const difference = homeTotal - lines.reduce((s, l) => s + l.amount, 0);
  if (difference !== 0) {
    const largest = lines.reduce((a, b) => (Math.abs(b.amount) > Math.abs(a.amount) ? b : a));
    largest.amount += difference;
  }
  lines.push({ accountId: counterId, amount: -homeTotal, amountInCurrency: -doc.total, description: doc.contact.name });
  // a credit note turns every line round: the payable is debited, the expenses credited
  const direction = doc.kind === 'credit' ? -1 : 1;
  return lines.map((l) => ({ ...l, amount: direction * l.amount, amountInCurrency: direction * (l.amountInCurrency ?? l.amount) }));
}

function transactionType(doc: DocumentToPublish, accounts: BuiltinAccounts): TransactionType {
  if (doc.kind === 'credit') return 'supplier_credit';
  if (doc.kind === 'spend') return accounts.paidFromType === 'Credit Card' ? 'card_charge' : 'expense';
  return 'bill';
}

/** Writes the document's transaction (and its contact, when new); answers it as the ledger's lines carry it. */
export async function publishToLedger(
  trx: Transaction<Database>,
  dialect: DialectCapabilities,
  organisation: { id: string; homeCurrency: string },
  doc: DocumentToPublish,
  accounts: BuiltinAccounts,
): Promise<PublishedTransaction> {
  const books = new LedgerWriter(trx, dialect, organisation.id, organisation.homeCurrency);
  const contactId = doc.contact.id ?? (await books.createContact(doc.contact.name, doc.contact.kind)).id;
  const counterId = doc.kind === 'spend' ? doc.paidFromAccountId! : accounts.payableId!;
  const transactionId = await postIn(trx, books, {
    type: transactionType(doc, accounts),
    date: doc.date,
    number: doc.number,
    contactId,
    description: `${doc.contact.name} ${doc.number}`,
    currency: doc.currency,
    ...(doc.currency === organisation.homeCurrency ? {} : { exchangeRate: doc.exchangeRate! }),
    lines: documentLines({ ...doc, contact: { ...doc.contact, id: contactId } }, counterId, accounts.taxId, organisation.homeCurrency),
  });
  return { transactionId, documentId: transactionId, link: null };
}

/**
 * What a bank match books (banking.match): the bank lines' money against the payable (a bill or
 * expense claim paid, a supplier's refund of a credit) and, where the lines differ from the
 * document, the difference on its own account (a bank fee, rounding). Amounts are in the bank
 * account's currency, debit positive, with their home amounts; the payable takes what balances.
 * A receipt's spend already moved the bank: its match books only a difference, with no payable.
 */
export interface Settlement {
  date: string;
  contact: { id: string | null; name: string };
  reference: string;
  currency: string;
  bankAccountId: string;
  /** null: no payable (a receipt's difference only) */
  payableId: string | null;
  bank: { amount: number; home: number };
  difference: { accountId: string; amount: number; home: number } | null;
}

/** Posts a settlement; answers its transaction id (null when there is nothing to post). */
export async function postSettlement(
  trx: Transaction<Database>,
  dialect: DialectCapabilities,
  organisation: { id: string; homeCurrency: string },
  s: Settlement,
): Promise<string | null> {
  const lines: NewLine[] = [{ accountId: s.bankAccountId, amount: s.bank.home, amountInCurrency: s.bank.amount, description: s.reference }];
  if (s.difference && s.difference.amount !== 0)
    lines.push({
      accountId: s.difference.accountId,
      amount: s.difference.home,
      amountInCurrency: s.difference.amount,
      description: `Bank fee or rounding: ${s.reference}`,
    });
  if (s.payableId) {
    const home = -lines.reduce((t, l) => t + l.amount, 0);
    const amount = -lines.reduce((t, l) => t + (l.amountInCurrency ?? l.amount), 0);
    lines.push({ accountId: s.payableId, amount: home, amountInCurrency: amount, description: s.reference });
  } else {
    // a receipt's difference: the bank's part is the difference itself
    lines[0] = { ...lines[0]!, amount: -(s.difference?.home ?? 0), amountInCurrency: -(s.difference?.amount ?? 0) };
  }
  if (lines.every((l) => l.amount === 0 && (l.amountInCurrency ?? 0) === 0) || lines.length < 2) return null;
  const books = new LedgerWriter(trx, dialect, organisation.id, organisation.homeCurrency);
  const bankAmount = lines[0]!.amountInCurrency ?? lines[0]!.amount;
  const foreign = s.currency !== organisation.homeCurrency;
  return postIn(trx, books, {
    type: s.payableId ? 'payment' : 'expense',
    date: s.date,
    contactId: s.contact.id,
    description: s.payableId ? `Payment: ${s.contact.name}` : `Bank fee or rounding: ${s.reference}`,
    currency: s.currency,
    ...(foreign ? { exchangeRate: bankAmount !== 0 ? String(lines[0]!.amount / bankAmount) : '1' } : {}),
    lines,
  });
}

async function postIn(trx: Transaction<Database>, books: LedgerWriter, txn: Parameters<LedgerWriter['post']>[0]): Promise<string> {
  const batch = books.batch();
  const id = batch.add(txn);
  await batch.writeIn(trx);
  return id;
}
