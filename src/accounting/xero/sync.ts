/**
 * Xero's pass of the local mirror (mirror/mirror.ts): what changed since the last pass, and only
 * that. The chart in one call (/Accounts, read whole: it is one page, and a whole read also sees
 * accounts Xero deleted); contacts, invoices, bank transactions, credit notes and payments with If-Modified-Since (the last
 * pass's start, less a margin for clocks); the journals after the last journal number Xero gave
 * (journals are never changed, only added: an edited document gets a reversing journal and a new
 * one). Each page of journals is written with the transactions it touches, and its journal number
 * saved, so a first copy of a large book cut short resumes where it stopped.
 */
import { companyKey } from '../../domain/accounting-vendors.js';
import type { Contact } from '../types.js';
import type { MirrorSource, MirrorWriter } from '../mirror/mirror.js';
import type { XeroClient } from './client.js';
import { journalLines, journalSources, journalTransaction, type JournalSources } from './lines.js';
import type { XeroPayment } from './bank-accounts.js';
import type { XeroCreditNote } from './documents.js';
import { XERO_LISTS, type XeroAccount, type XeroBankTransaction, type XeroContact, type XeroInvoice, type XeroJournal } from './records.js';

export interface XeroMirrorState {
  /** the highest JournalNumber copied */
  journalNumber: number;
  /** If-Modified-Since for the next pass (ISO 8601) */
  since: string;
}

/** how far before a pass's start the next pass asks from: Xero's clock and ours may differ a little */
const CLOCK_MARGIN_MS = 5 * 60_000;

export function contactOf(c: XeroContact): Contact {
  return { id: c.ContactID, name: c.Name ?? '', kind: c.IsCustomer && !c.IsSupplier ? 'customer' : 'supplier' };
}

export class XeroMirrorSource implements MirrorSource<XeroMirrorState> {
  readonly vendor = 'xero';
  readonly company: string;

  constructor(
    private readonly client: XeroClient,
    private readonly homeCurrency: string,
    tenantId: string,
  ) {
    this.company = companyKey('xero', tenantId);
  }

  async pass(state: Partial<XeroMirrorState>, w: MirrorWriter): Promise<XeroMirrorState> {
    const started = Date.now();
    const changedSince: Record<string, string> = state.since ? { 'If-Modified-Since': state.since } : {};

    const accounts = (await this.client.get<{ Accounts?: XeroAccount[] }>('/Accounts')).Accounts ?? [];
    const kept = await w.records<XeroAccount>(XERO_LISTS.accounts);
    const present = new Set(accounts.map((a) => a.AccountID));
    await w.deleteRecords(
      XERO_LISTS.accounts,
      kept.filter((a) => !present.has(a.AccountID)).map((a) => a.AccountID),
    );
    await w.putRecords(
      XERO_LISTS.accounts,
      accounts.map((a) => ({ id: a.AccountID, body: a })),
    );

    const contacts = await this.client.allPages<XeroContact>('/Contacts', 'Contacts', changedSince);
    const changedContacts = await w.putRecords(
      XERO_LISTS.contacts,
      contacts.map((c) => ({ id: c.ContactID, body: c })),
    );
    await w.putContacts(changedContacts.map((c) => contactOf(c.body)));

    const invoices = (
      await w.putRecords(
        XERO_LISTS.invoices,
        (await this.client.allPages<XeroInvoice>('/Invoices', 'Invoices', changedSince)).map((i) => ({ id: i.InvoiceID, body: i })),
      )
    ).map((r) => r.body);
    const bankTransactions = (
      await w.putRecords(
        XERO_LISTS.bankTransactions,
        (await this.client.allPages<XeroBankTransaction>('/BankTransactions', 'BankTransactions', changedSince)).map((b) => ({
          id: b.BankTransactionID,
          body: b,
        })),
      )
    ).map((r) => r.body);
    const creditNotes = (
      await w.putRecords(
        XERO_LISTS.creditNotes,
        (await this.client.allPages<XeroCreditNote>('/CreditNotes', 'CreditNotes', changedSince)).map((c) => ({ id: c.CreditNoteID, body: c })),
      )
    ).map((r) => r.body);
    await w.putRecords(
      XERO_LISTS.payments,
      (await this.client.allPages<XeroPayment>('/Payments', 'Payments', changedSince)).flatMap((p) => (p.PaymentID ? [{ id: p.PaymentID, body: p }] : [])),
    );

    // documents changed since the last pass: their journals' contact and number are written again
    const changedSources = new Set<string>();
    if (state.since) {
      for (const i of invoices) {
        changedSources.add(i.InvoiceID);
        for (const p of i.Payments ?? []) if (p.PaymentID) changedSources.add(p.PaymentID);
      }
      for (const b of bankTransactions) changedSources.add(b.BankTransactionID);
      for (const c of creditNotes) changedSources.add(c.CreditNoteID);
    }

    // the documents journals take their contacts and numbers from, read only when a journal is to be written
    let sources: Promise<JournalSources> | undefined;
    const sourcesOnce = () =>
      (sources ??= (async () =>
        journalSources(
          await w.records<XeroAccount>(XERO_LISTS.accounts),
          await w.records<XeroInvoice>(XERO_LISTS.invoices),
          await w.records<XeroBankTransaction>(XERO_LISTS.bankTransactions),
          await w.records<XeroCreditNote>(XERO_LISTS.creditNotes),
        ))());
    const rewrite = async (transactionIds: string[]) => {
      const journals = await w.recordsByRef<XeroJournal>(XERO_LISTS.journals, transactionIds);
      await w.replaceTransactions(transactionIds, journalLines(journals, await sourcesOnce(), this.homeCurrency));
    };

    let journalNumber = state.journalNumber ?? 0;
    for (;;) {
      const page = (await this.client.get<{ Journals?: XeroJournal[] }>('/Journals', { offset: journalNumber })).Journals ?? [];
      if (page.length === 0) break;
      await w.putRecords(
        XERO_LISTS.journals,
        page.map((j) => ({ id: j.JournalID, ref: journalTransaction(j), body: j })),
      );
      const touched = [...new Set(page.map(journalTransaction))];
      await rewrite(touched);
      for (const id of touched) changedSources.delete(id);
      journalNumber = Math.max(journalNumber, ...page.map((j) => j.JournalNumber));
      await w.save({ ...state, journalNumber });
    }
    if (changedSources.size > 0) await rewrite([...changedSources]);

    return { journalNumber, since: new Date(started - CLOCK_MARGIN_MS).toISOString() };
  }
}
