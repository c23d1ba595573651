/**
 * The Xero connector: an organisation's books in Xero, read from the local mirror (mirror/,
 * docs/xero.md), which a call first brings up to date when it is older than its maximum age (a
 * pass: sync.ts). The chart from Xero's /Accounts; ledger lines and account totals from /Journals,
 * Xero's general ledger (every posted line, home currency, debit positive), written into the
 * mirror's ledger so reports and the ledger come from the same lines and Xero's own report totals
 * are what they add up to; contacts from /Contacts; bills to pay from ACCPAY /Invoices (AmountDue).
 * Writes (documents.publish, banking.match: publish.ts, payments.ts) go to Xero, then a mirror pass
 * runs at once, whatever the mirror's age, so the ledger shows them on the next read.
 */
import { keptRecords } from '../mirror/kept-records.js';
import { Mirror, type MirrorPlace } from '../mirror/mirror.js';
import { MirroredAccounting } from '../mirror/mirrored-accounting.js';
import { xeroBalanceSheetBody, type XeroReport } from './report-mapping.js';
import { AccountingSystemError, type AccountingSystem, type ChartAccount, type PayableBill } from '../types.js';
import type { IsoDate } from '../../domain/dates.js';
import type { BillPayment, DocumentToPublish, PublishedTransaction, SystemBankAccount, SystemDocument } from '../types.js';
import { findXeroPayment, payXeroBill, removeXeroPayment } from './payments.js';
import { findPublishedInXero, publishToXero, type XeroWriteContext } from './publish.js';
import { xeroDocumentFile } from './attachments.js';
import { xeroBankAccounts, xeroReconciledLines, type XeroBankLine, type XeroPayment } from './bank-accounts.js';
import { xeroDocuments, type XeroCreditNote } from './documents.js';
import { XeroClient } from './client.js';
import type { XeroConfig } from './settings.js';
import { accountTypeFor, classificationOf, homeAmount, minorUnits, xeroDate } from './mapping.js';
import { XERO_LISTS, type XeroAccount, type XeroBankTransaction, type XeroInvoice } from './records.js';
import { XeroMirrorSource, type XeroMirrorState } from './sync.js';

export class XeroAccounting extends MirroredAccounting<XeroMirrorState> implements AccountingSystem {
  readonly kind = 'xero';
  private readonly client: XeroClient;
  private readonly source: XeroMirrorSource;
  /** the mirror's version after this connector's last write and the pass that followed it */
  private refreshed: number | undefined;

  constructor(
    config: XeroConfig,
    private readonly homeCurrency: string,
    fetchImpl: typeof fetch,
    private readonly mirrorPlace: MirrorPlace,
  ) {
    const client = new XeroClient(config, fetchImpl);
    const source = new XeroMirrorSource(client, homeCurrency, config.tenantId);
    super(mirrorPlace, source);
    this.client = client;
    this.source = source;
  }

  /** After a write, the records of the pass that followed it (the inherited readiness is of before the write). */
  protected override async records<T>(list: string): Promise<T[]> {
    return this.refreshed === undefined ? super.records<T>(list) : keptRecords<T>(this.mirrorPlace.db, this.mirrorPlace.organisationId, this.refreshed, list);
  }

  /**
   * A mirror pass now, whatever the mirror's age, so the write is in the ledger on the next read.
   * The write is made: a pass that fails (Xero's limit reached) leaves it to the next pass rather than
   * failing the write, which would be tried again.
   */
  private async refresh(): Promise<void> {
    try {
      this.refreshed = await new Mirror(this.mirrorPlace.db, this.mirrorPlace.organisationId, this.source, { maxAgeMs: 0 }).ready();
    } catch {
      // the next call's pass brings it
    }
  }

  private writeContext(): XeroWriteContext {
    return { client: this.client, accounts: () => this.accounts() };
  }

  async publish(doc: DocumentToPublish): Promise<PublishedTransaction> {
    const published = await publishToXero(this.writeContext(), doc);
    await this.refresh();
    return published;
  }

  async findPublished(doc: DocumentToPublish): Promise<PublishedTransaction | null> {
    const found = await findPublishedInXero(this.writeContext(), doc);
    if (found) await this.refresh();
    return found;
  }

  async payBill(payment: BillPayment): Promise<{ paymentId: string; link: string | null }> {
    const paid = await payXeroBill(this.client, payment);
    await this.refresh();
    return paid;
  }

  async findPayment(payment: BillPayment): Promise<{ paymentId: string; link: string | null } | null> {
    const found = await findXeroPayment(this.client, payment);
    if (found) await this.refresh();
    return found;
  }

  async removePayment(paymentId: string): Promise<void> {
    await removeXeroPayment(this.client, paymentId);
    await this.refresh();
  }

  private accounts(): Promise<XeroAccount[]> {
    return this.records<XeroAccount>(XERO_LISTS.accounts);
  }

  private invoices(): Promise<XeroInvoice[]> {
    return this.records<XeroInvoice>(XERO_LISTS.invoices);
  }

  private bankTransactions(): Promise<XeroBankTransaction[]> {
    return this.records<XeroBankTransaction>(XERO_LISTS.bankTransactions);
  }

  private creditNotes(): Promise<XeroCreditNote[]> {
    return this.records<XeroCreditNote>(XERO_LISTS.creditNotes);
  }

  private payments(): Promise<XeroPayment[]> {
    return this.records<XeroPayment>(XERO_LISTS.payments);
  }

  /** Xero's own BalanceSheet at the date, mapped (report-mapping.ts): what check-books compares Ledgerline's with. */
  async ownBalanceSheetTotals(asAt: string): Promise<{ label: string; amount: number }[]> {
    const report = (await this.client.get<{ Reports?: XeroReport[] }>('/Reports/BalanceSheet', { date: asAt })).Reports?.[0];
    if (!report) throw new AccountingSystemError('Xero answered no BalanceSheet report');
    return xeroBalanceSheetBody(report, this.homeCurrency).summary.map((l) => ({ label: l.label, amount: l.amounts[0] ?? 0 }));
  }

  /** Xero answers for the tenant (one call, not counted against the mirror). */
  async check(): Promise<void> {
    await this.client.get('/Accounts');
  }

  /**
   * Xero's chart, deleted accounts left out, archived ones inactive. Xero has no sub-accounts, so
   * every account is top level and its full name is its name.
   */
  async chartOfAccounts(): Promise<ChartAccount[]> {
    const accounts = (await this.accounts()).filter((a) => a.Status !== 'DELETED');
    return accounts
      .map((a): ChartAccount => {
        const type = accountTypeFor(a);
        return {
          id: a.AccountID,
          name: a.Name,
          fullName: a.Name,
          number: a.Code?.trim() ? a.Code.trim() : null,
          type,
          classification: classificationOf(type),
          active: a.Status !== 'ARCHIVED',
          parentId: null,
          ...(a.SystemAccount === 'RETAINEDEARNINGS' ? { retainedEarnings: true } : {}),
        };
      })
      .sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0));
  }

  /** Authorised bills (ACCPAY) with something left to pay: Xero's AmountDue, after payments and credits. */
  async payables(): Promise<PayableBill[]> {
    const invoices = await this.invoices();
    return invoices.filter((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED' && (i.AmountDue ?? 0) > 0).map((i) => xeroPayable(i, this.homeCurrency));
  }

  /** Bills and supplier credit notes by InvoiceID or CreditNoteID (documents.ts); credit notes are read only for ids no bill has. */
  async documents(documentIds: string[]): Promise<SystemDocument[]> {
    if (documentIds.length === 0) return [];
    const [invoices, accounts] = await Promise.all([this.invoices(), this.accounts()]);
    const left = new Set(documentIds);
    for (const i of invoices) left.delete(i.InvoiceID);
    const credits = left.size > 0 ? await this.creditNotes() : [];
    return xeroDocuments(new Set(documentIds), invoices, credits, accounts, this.homeCurrency);
  }

  /** The document's attachment, asked of Xero (attachments.ts). */
  async documentFile(documentId: string): Promise<{ fileName: string; contentType: string; data: Buffer; size?: number } | null> {
    const [doc] = await this.documents([documentId]);
    return doc ? xeroDocumentFile(this.client, doc) : null;
  }

  /**
   * Active BANK accounts in the home currency with their balances in the journals at asAt, and the
   * reconciled lines dated on or before it (bank-accounts.ts): a journal dated later is not in it.
   */
  async bankAccounts(asAt: IsoDate): Promise<SystemBankAccount[]> {
    const [accounts, transactions, payments] = await Promise.all([this.accounts(), this.bankTransactions(), this.payments()]);
    const ids = accounts.filter((a) => a.Type === 'BANK').map((a) => a.AccountID);
    const totals = ids.length ? await this.accountTotals([{ to: asAt }], ids) : new Map<string, number[]>();
    const balances = new Map([...totals].map(([id, [balance]]) => [id, balance ?? 0]));
    // an undated line is no reconciled line (bank-accounts.ts): kept here, left out there
    const byAsAt = (line: { Date?: string }) => (xeroDate(line.Date) ?? asAt) <= asAt;
    const lines: XeroBankLine[] = transactions;
    return xeroBankAccounts(accounts, balances, lines.filter(byAsAt), payments.filter(byAsAt), this.homeCurrency);
  }

  async reconciledLines(accountId: string, from: IsoDate, to: IsoDate): Promise<{ date: IsoDate; amount: number }[]> {
    const [transactions, payments] = await Promise.all([this.bankTransactions(), this.payments()]);
    return xeroReconciledLines(transactions, payments, this.homeCurrency, accountId, from, to);
  }
}

/** An authorised bill as a bill to pay: what is due in the home currency, at the bill's own CurrencyRate. */
export function xeroPayable(i: XeroInvoice, homeCurrency: string): PayableBill {
  const currency = i.CurrencyCode ?? homeCurrency;
  const rate = i.CurrencyRate && i.CurrencyRate > 0 ? i.CurrencyRate : 1;
  const date = xeroDate(i.Date) ?? '';
  return {
    documentId: i.InvoiceID,
    transactionId: i.InvoiceID,
    kind: 'bill',
    supplier: i.Contact?.Name ?? '',
    number: i.InvoiceNumber || i.Reference || i.InvoiceID,
    date,
    dueDate: xeroDate(i.DueDate) ?? date,
    currency,
    originalAmount: minorUnits(i.Total, currency),
    // Xero's CurrencyRate is units of the bill's currency per unit of the home currency: divided exactly, rounded once
    amountDue: currency === homeCurrency ? minorUnits(i.AmountDue, currency) : homeAmount(i.AmountDue ?? 0, rate, 'per', homeCurrency),
    note: i.Reference || null,
  };
}
