/**
 * Xero's journals as ledger lines: every posted line, home currency, debit positive, with its
 * transaction type, contact, number and link from the document the journal came from. A
 * transaction is the journal's source document (SourceID), or the journal itself when it has none,
 * so a document edited in Xero (reversed and posted again) stays one transaction.
 */
import type { LedgerLine } from '../types.js';
import { minorUnits, transactionTypeFor, xeroDate } from './mapping.js';
import type { XeroAccount, XeroBankTransaction, XeroContact, XeroInvoice, XeroJournal } from './records.js';

/** Xero's links to its own pages, by the document a journal came from. */
const LINKS: Record<string, (id: string) => string> = {
  ACCPAY: (id) => `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${id}`,
  ACCREC: (id) => `https://go.xero.com/AccountsReceivable/View.aspx?InvoiceID=${id}`,
  CASHPAID: (id) => `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${id}`,
  CASHREC: (id) => `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${id}`,
  MANJOURNAL: (id) => `https://go.xero.com/Journal/View.aspx?invoiceID=${id}`,
};

/** Source types whose document is a purchase document of Xero's own (documents.get answers it). */
const PURCHASE_DOCUMENTS = new Set(['ACCPAY', 'ACCPAYCREDIT']);

export interface JournalSources {
  /** card accounts (BANK with BankAccountType CREDITCARD): a spend on one is a card charge */
  cards: Set<string>;
  /** by source id (an invoice, its payments, a bank transaction): its contact and number */
  sources: Map<string, { contact?: XeroContact | undefined; number?: string | undefined }>;
}

export function journalSources(
  accounts: XeroAccount[],
  invoices: XeroInvoice[],
  bankTransactions: XeroBankTransaction[],
  creditNotes: { CreditNoteID: string; CreditNoteNumber?: string; Reference?: string; Contact?: { ContactID?: string; Name?: string } }[] = [],
): JournalSources {
  const cards = new Set(accounts.filter((a) => a.Type === 'BANK' && a.BankAccountType === 'CREDITCARD').map((a) => a.AccountID));
  const sources: JournalSources['sources'] = new Map();
  for (const inv of invoices) {
    const source = { contact: inv.Contact, number: inv.InvoiceNumber || inv.Reference };
    sources.set(inv.InvoiceID, source);
    // a payment's journal names the payment; the invoice it pays gives the contact
    for (const p of inv.Payments ?? []) if (p.PaymentID) sources.set(p.PaymentID, { contact: inv.Contact, number: source.number });
  }
  for (const bt of bankTransactions) sources.set(bt.BankTransactionID, { contact: bt.Contact, number: bt.Reference });
  for (const cn of creditNotes) {
    const contact = cn.Contact?.ContactID ? { ...cn.Contact, ContactID: cn.Contact.ContactID } : undefined;
    sources.set(cn.CreditNoteID, { contact, number: cn.CreditNoteNumber || cn.Reference });
  }
  return { cards, sources };
}

/** The transaction a journal's lines belong to. */
export const journalTransaction = (j: XeroJournal): string => j.SourceID ?? j.JournalID;

/** The journals' lines; give every journal of a transaction, so its lines are numbered the same way each time. */
export function journalLines(journals: readonly XeroJournal[], { cards, sources }: JournalSources, homeCurrency: string): LedgerLine[] {
  const lineNumbers = new Map<string, number>();
  const lines: LedgerLine[] = [];
  for (const j of [...journals].sort((a, b) => a.JournalNumber - b.JournalNumber)) {
    const date = xeroDate(j.JournalDate);
    if (!date) continue;
    const transactionId = journalTransaction(j);
    const onCard = (j.JournalLines ?? []).some((l) => cards.has(l.AccountID));
    const type = transactionTypeFor(j.SourceType, onCard);
    const source = j.SourceID ? sources.get(j.SourceID) : undefined;
    const link = j.SourceID && j.SourceType && LINKS[j.SourceType] ? LINKS[j.SourceType]!(j.SourceID) : null;
    const documentId = j.SourceID && j.SourceType && PURCHASE_DOCUMENTS.has(j.SourceType) ? j.SourceID : null;
    for (const l of j.JournalLines ?? []) {
      const amount = minorUnits(l.NetAmount, homeCurrency);
      const lineNo = (lineNumbers.get(transactionId) ?? 0) + 1;
      lineNumbers.set(transactionId, lineNo);
      lines.push({
        transactionId,
        lineNo,
        date,
        type,
        number: source?.number || j.Reference || null,
        contactId: source?.contact?.ContactID ?? null,
        contactName: source?.contact?.Name ?? null,
        description: l.Description || j.Reference || '',
        accountId: l.AccountID,
        amount,
        currency: homeCurrency,
        amountInCurrency: amount,
        link,
        documentId,
      });
    }
  }
  return lines;
}
