/**
 * The QuickBooks Online connector: an organisation's books in QuickBooks, read from the local
 * mirror (mirror/, docs/quickbooks.md), which a call first brings up to date when it is older than
 * its maximum age (a pass: sync.ts, Change Data Capture). The chart from the Account entities
 * (inactive accounts included); ledger lines and account totals posted from the transactions
 * themselves (lines.ts: Bill, BillPayment, VendorCredit, Purchase, Deposit, Transfer, JournalEntry,
 * Invoice, Payment, SalesReceipt), written into the mirror's ledger so reports and the ledger come
 * from the same lines and QuickBooks' own ProfitAndLoss and BalanceSheet totals are what they add
 * up to; contacts from Vendor and Customer; bills to pay from Bills with Balance > 0.
 */
import type { IsoDate } from '../../domain/dates.js';
import { keptRecords } from '../mirror/kept-records.js';
import { Mirror, type MirrorPlace } from '../mirror/mirror.js';
import { MirroredAccounting } from '../mirror/mirrored-accounting.js';
import type {
  AccountingSystem,
  BillPayment,
  ChartAccount,
  DocumentToPublish,
  PayableBill,
  PublishedTransaction,
  SystemBankAccount,
  SystemDocument,
} from '../types.js';
import { attachmentOf, downloadAttachment, type QbAttachable } from './attachments.js';
import { bankAccountsAt } from './bank-accounts.js';
import { QuickBooksClient } from './client.js';
import { documentEntityOf, systemDocumentOf, type QbDocument } from './documents.js';
import { purchaseAccounts, type QbItem, type QbTaxAgency, type QbTaxRate } from './purchases.js';
import { accountTypeFor, classificationOf, homeAmount, minorUnits } from './mapping.js';
import { QB_LISTS, type QbAccount, type QbTransaction } from './records.js';
import type { QuickBooksConfig } from './settings.js';
import { quickBooksBalanceSheetTotals, type QuickBooksReport } from './report-totals.js';
import { QuickBooksMirrorSource, type QuickBooksMirrorState } from './sync.js';
import { findPayment, payBill, removePayment } from './payments.js';
import { attachFile, createDocument, ensureAttached, findDocument, PUBLISHED_ENTITY, publishedOf, type WriteContext } from './publish.js';
import { refreshMirror } from './refresh.js';
import { QuickBooksWriteClient } from './write-client.js';

interface QueryAnswer {
  QueryResponse?: { Attachable?: QbAttachable[] };
}

const DEFAULT_PAGE = 1000;

export class QuickBooksAccounting extends MirroredAccounting<QuickBooksMirrorState> implements AccountingSystem {
  readonly kind = 'quickbooks';
  private readonly client: QuickBooksClient;
  private readonly writes: WriteContext;
  private readonly source: QuickBooksMirrorSource;
  private readonly mirrorPlace: MirrorPlace;

  constructor(
    config: QuickBooksConfig,
    private readonly homeCurrency: string,
    fetchImpl: typeof fetch,
    place: MirrorPlace,
  ) {
    const client = new QuickBooksClient(config, fetchImpl);
    const source = new QuickBooksMirrorSource(client, homeCurrency, config.pageSize ?? DEFAULT_PAGE, config.realmId);
    super(place, source);
    this.client = client;
    this.source = source;
    this.mirrorPlace = place;
    this.writes = { reader: client, writer: new QuickBooksWriteClient(config, fetchImpl), homeCurrency, chart: () => this.accounts() };
  }

  /** set once this connector has written: its reads then follow the mirror's version as it now is */
  private wrote = false;

  /** A pass now, so the mirror's ledger shows what was just written (refresh.ts). */
  private upToDate(writtenAt: number): Promise<boolean> {
    this.wrote = true;
    return refreshMirror(this.mirrorPlace, this.source, writtenAt);
  }

  /** The mirror's version now: after a write the version read at this connector's first call is behind. */
  private currentVersion(): Promise<number> {
    return new Mirror(this.mirrorPlace.db, this.mirrorPlace.organisationId, this.source, { maxAgeMs: this.mirrorPlace.maxAgeMs }).ready();
  }

  protected override async records<T>(list: string): Promise<T[]> {
    if (!this.wrote) return super.records<T>(list);
    return keptRecords<T>(this.mirrorPlace.db, this.mirrorPlace.organisationId, await this.currentVersion(), list);
  }

  override async changeToken(): Promise<string> {
    return this.wrote ? `${this.source.vendor}-mirror:${await this.currentVersion()}` : super.changeToken();
  }

  /** Writes the document as a Bill, Purchase or VendorCredit with its file attached (publish.ts), then a mirror pass. */
  async publish(doc: DocumentToPublish): Promise<PublishedTransaction> {
    const entity = PUBLISHED_ENTITY[doc.kind];
    const record = await createDocument(this.writes, doc);
    await attachFile(this.writes, entity, record.Id, doc);
    await this.upToDate(Date.now());
    return publishedOf(entity, record);
  }

  /** The record an earlier try with the document's key wrote, its file attached if that try did not get so far; null when none. */
  async findPublished(doc: DocumentToPublish): Promise<PublishedTransaction | null> {
    const entity = PUBLISHED_ENTITY[doc.kind];
    const record = await findDocument(this.writes, doc);
    if (!record) return null;
    await ensureAttached(this.writes, entity, record.Id, doc);
    await this.upToDate(Date.now());
    return publishedOf(entity, record);
  }

  /** A BillPayment of the bill from the bank or card account (payments.ts), then a mirror pass. */
  async payBill(payment: BillPayment): Promise<{ paymentId: string; link: string | null }> {
    const paid = await payBill(this.writes, payment);
    await this.upToDate(Date.now());
    return paid;
  }

  async findPayment(payment: BillPayment): Promise<{ paymentId: string; link: string | null } | null> {
    return findPayment(this.writes, payment);
  }

  /** Deletes the BillPayment: the bill is owed again; then a mirror pass. */
  async removePayment(paymentId: string): Promise<void> {
    await removePayment(this.writes, paymentId);
    await this.upToDate(Date.now());
  }

  private accounts(): Promise<QbAccount[]> {
    return this.records<QbAccount>(QB_LISTS.accounts);
  }

  /** QuickBooks' own BalanceSheet totals at the date (report-totals.ts): what check-books compares Ledgerline's with. */
  async ownBalanceSheetTotals(asAt: string): Promise<{ label: string; amount: number }[]> {
    const report = await this.client.get<QuickBooksReport>('/reports/BalanceSheet', {
      start_date: asAt,
      end_date: asAt,
      summarize_column_by: 'Total',
      accounting_method: 'Accrual',
    });
    return quickBooksBalanceSheetTotals(report, this.homeCurrency);
  }

  /** QuickBooks answers for the company (one call, not counted against the mirror). */
  check(): Promise<void> {
    return this.client.get('/query', { query: 'SELECT COUNT(*) FROM Account' }).then(() => undefined);
  }

  /**
   * QuickBooks' chart in QuickBooks' own order (by Id, as its queries answer it): Non-Posting
   * accounts (estimates, purchase orders) left out; sub-accounts under their parents.
   */
  async chartOfAccounts(): Promise<ChartAccount[]> {
    const byId = (a: QbAccount, b: QbAccount) => Number(a.Id) - Number(b.Id) || (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0);
    return (await this.accounts())
      .filter((a) => a.AccountType !== 'Non-Posting')
      .sort(byId)
      .map((a): ChartAccount => {
        const type = accountTypeFor(a);
        return {
          id: a.Id,
          name: a.Name,
          fullName: a.FullyQualifiedName || a.Name,
          number: a.AcctNum?.trim() ? a.AcctNum.trim() : null,
          type,
          classification: classificationOf(type),
          active: a.Active !== false,
          parentId: a.ParentRef?.value ?? null,
          ...(a.AccountSubType === 'RetainedEarnings' ? { retainedEarnings: true } : {}),
        };
      });
  }

  /** Bills with something left to pay: QuickBooks' Balance, after bill payments and applied credits. */
  async payables(): Promise<PayableBill[]> {
    const bills = await this.records<QbTransaction>('Bill');
    return bills.filter((b) => (b.Balance ?? 0) > 0 && b.TxnDate).map((b) => quickBooksPayable(b, this.homeCurrency));
  }

  /** Bills and vendor credits by the id their ledger lines carry (`Bill:146`), with their lines (documents.ts). */
  async documents(documentIds: string[]): Promise<SystemDocument[]> {
    const wanted = documentIds.map(documentEntityOf).filter((w) => w !== undefined);
    if (wanted.length === 0) return [];
    const entities = [...new Set(wanted.map((w) => w.entity))];
    const lists = new Map(await Promise.all(entities.map(async (e) => [e, await this.records<QbDocument>(e)] as const)));
    const found = wanted.flatMap((w) =>
      lists
        .get(w.entity)!
        .filter((t) => t.Id === w.id)
        .map((t) => ({ entity: w.entity, t })),
    );
    if (found.length === 0) return [];
    const [chart, items, rates, agencies, attachables] = await Promise.all([
      this.chartOfAccounts(),
      this.records<QbItem>(QB_LISTS.items),
      this.records<QbTaxRate>(QB_LISTS.taxRates),
      this.records<QbTaxAgency>(QB_LISTS.taxAgencies),
      this.records<QbAttachable>(QB_LISTS.attachables),
    ]);
    const accounts = purchaseAccounts(items, rates, agencies);
    return found.flatMap(({ entity, t }) => systemDocumentOf(entity, t, { homeCurrency: this.homeCurrency, chart, accounts, attachables }) ?? []);
  }

  /**
   * The PDF or image attached to a bill or vendor credit in QuickBooks (attachments.ts); null when it
   * has none. The attachment is read from QuickBooks itself, not the mirror: its download address
   * is good for minutes only.
   */
  async documentFile(documentId: string): Promise<{ fileName: string; contentType: string; data: Buffer } | null> {
    const wanted = documentEntityOf(documentId);
    if (!wanted || !(await this.records<QbDocument>(wanted.entity)).some((t) => t.Id === wanted.id)) return null;
    const mirrored = attachmentOf(await this.records<QbAttachable>(QB_LISTS.attachables), wanted.entity, wanted.id);
    if (!mirrored) return null;
    const live = (await this.client.get<QueryAnswer>('/query', { query: `SELECT * FROM Attachable WHERE Id = '${mirrored.Id.replace(/[^0-9A-Za-z-]/g, '')}'` }))
      .QueryResponse?.Attachable?.[0];
    const attachment = live ? attachmentOf([live], wanted.entity, wanted.id) : undefined;
    return attachment ? downloadAttachment(attachment) : null;
  }

  /**
   * Active Bank and Credit Card accounts at asAt: QuickBooks' CurrentBalance (every date) less the
   * account's lines in the mirror's ledger dated after asAt, in the account's currency (bank-accounts.ts).
   */
  async bankAccounts(asAt: IsoDate): Promise<SystemBankAccount[]> {
    return bankAccountsAt(await this.accounts(), this.homeCurrency, asAt, (query, limit) => this.lines(query, limit));
  }
}

/** A bill with something left to pay as a bill to pay: its Balance in the home currency, at the bill's own ExchangeRate. */
export function quickBooksPayable(b: QbTransaction, homeCurrency: string): PayableBill {
  const currency = b.CurrencyRef?.value ?? homeCurrency;
  const rate = currency === homeCurrency ? 1 : (b.ExchangeRate ?? 1);
  return {
    documentId: `Bill:${b.Id}`,
    transactionId: `Bill:${b.Id}`,
    kind: 'bill',
    supplier: b.VendorRef?.name ?? '',
    number: b.DocNumber || b.Id,
    date: b.TxnDate!,
    dueDate: b.DueDate ?? b.TxnDate!,
    currency,
    originalAmount: minorUnits(b.TotalAmt, currency),
    // QuickBooks' ExchangeRate is home currency per unit of the bill's currency: multiplied exactly, rounded once
    amountDue: rate === 1 ? minorUnits(b.Balance, homeCurrency) : homeAmount(b.Balance ?? 0, rate, homeCurrency),
    note: b.PrivateNote || null,
  };
}
