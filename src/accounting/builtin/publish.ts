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
import type { BillPayment, DocumentToPublish, PublishedTransaction, TransactionType } from '../types.js';
import { removeTransactions } from './remove-transactions.js';
import { LedgerWriter, type NewLine } from './writer.js';

export interface BuiltinAccounts {
  /** the Accounts Payable account bills and credits are owed on */
  payableId: string;
  /** where a document's tax goes; null when the document has none */
  taxId: string | null;
  /** the paid-from account's type, for a spend (a card's spend is a card charge) */
  paidFromType?: 'Bank' | 'Credit Card' | null;
}

function writer(trx: Transaction<Database>, dialect: DialectCapabilities, organisationId: string, homeCurrency: string): LedgerWriter {
  return new LedgerWriter(trx, dialect, organisationId, homeCurrency);
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
  const lines: NewLine[] = doc.lines.map((l) => ({ accountId: l.accountId, amount: home(l.subtotal), amountInCurrency: l.subtotal, description: l.description }));
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
  const books = writer(trx, dialect, organisation.id, organisation.homeCurrency);
  const contactId = doc.contact.id ?? (await books.createContact(doc.contact.name, doc.contact.kind)).id;
  const counterId = doc.kind === 'spend' ? doc.paidFromAccountId! : accounts.payableId;
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
 * A bill's payment from a bank or card account: the payable debited, the bank credited, in the
 * bank line's amounts (the bill's currency is the account's: banking.match checks it). A fee or
 * rounding difference goes to its own account in the same transaction. Answers the payment's id.
 */
export async function payBillInLedger(
  trx: Transaction<Database>,
  dialect: DialectCapabilities,
  organisation: { id: string; homeCurrency: string },
  payment: BillPayment & { payableId: string; homeAmount: number; difference?: { accountId: string; amount: number; homeAmount: number } | null },
): Promise<string> {
  const books = writer(trx, dialect, organisation.id, organisation.homeCurrency);
  const foreign = payment.currency !== organisation.homeCurrency;
  const fee = payment.difference ?? null;
  // the bank pays the bill's amount plus any fee (a rounding difference may be either sign)
  const bankHome = payment.homeAmount + (fee?.homeAmount ?? 0);
  const bankMinor = payment.amount + (fee?.amount ?? 0);
  const lines: NewLine[] = [
    { accountId: payment.payableId, amount: payment.homeAmount, amountInCurrency: payment.amount, description: payment.reference },
    { accountId: payment.bankAccountId, amount: -bankHome, amountInCurrency: -bankMinor, description: payment.reference },
  ];
  if (fee && fee.amount !== 0) lines.push({ accountId: fee.accountId, amount: fee.homeAmount, amountInCurrency: fee.amount, description: `Bank fee or rounding: ${payment.reference}` });
  const rate = foreign && payment.amount !== 0 ? String(payment.homeAmount / payment.amount) : undefined;
  return postIn(trx, books, {
    type: 'payment',
    date: payment.date,
    number: null,
    contactId: payment.contact.id,
    description: `Payment: ${payment.contact.name}`,
    currency: payment.currency,
    ...(rate ? { exchangeRate: rate } : {}),
    lines,
  });
}

/** A fee or rounding difference of a match to a document that moved the bank itself (a receipt): bank against the fee account. */
export async function postDifference(
  trx: Transaction<Database>,
  dialect: DialectCapabilities,
  organisation: { id: string; homeCurrency: string },
  d: { date: string; bankAccountId: string; accountId: string; amount: number; homeAmount: number; currency: string; reference: string },
): Promise<string> {
  const books = writer(trx, dialect, organisation.id, organisation.homeCurrency);
  const rate = d.currency !== organisation.homeCurrency && d.amount !== 0 ? String(d.homeAmount / d.amount) : undefined;
  return postIn(trx, books, {
    type: 'expense',
    date: d.date,
    description: `Bank fee or rounding: ${d.reference}`,
    currency: d.currency,
    ...(rate ? { exchangeRate: rate } : {}),
    lines: [
      { accountId: d.accountId, amount: d.homeAmount, amountInCurrency: d.amount },
      { accountId: d.bankAccountId, amount: -d.homeAmount, amountInCurrency: -d.amount },
    ],
  });
}

/** Removes transactions this file wrote (banking.unmatch), with their lines and the stored totals they moved. */
export async function removeFromLedger(trx: Transaction<Database>, dialect: DialectCapabilities, organisation: { id: string }, transactionIds: string[]): Promise<void> {
  await removeTransactions(trx, dialect, organisation.id, transactionIds);
}

async function postIn(trx: Transaction<Database>, books: LedgerWriter, txn: Parameters<LedgerWriter['post']>[0]): Promise<string> {
  const batch = books.batch();
  const id = batch.add(txn);
  await batch.writeIn(trx);
  return id;
}
