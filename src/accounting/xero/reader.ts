/**
 * The Xero connector: an organisation's books in Xero, read over the Accounting API on every call
 * (no local mirror yet: docs/xero.md). The chart from /Accounts; ledger lines and account totals
 * from /Journals, Xero's general ledger (every posted line, home currency, debit positive), so
 * reports and the ledger come from the same lines and Xero's own report totals are what they add up
 * to; contacts from /Contacts; bills to pay from ACCPAY /Invoices (AmountDue). Each call of the
 * interface reads what it needs once (kept for the life of this object, which is one operation).
 */
import type { LedgerGrouping, LineGroup } from '../../domain/ledger-groups.js';
import { groupedLines, matchingLines, totalsOfLines } from '../lines-in-memory.js';
import type { AccountingSystem, ChartAccount, Contact, DateRange, LedgerLine, LineQuery, PayableBill } from '../types.js';
import { XeroClient } from './client.js';
import type { XeroConfig } from './settings.js';
import { accountTypeFor, classificationOf, minorUnits, transactionTypeFor, xeroDate } from './mapping.js';

interface XeroAccount {
  AccountID: string;
  Code?: string;
  Name: string;
  Type?: string;
  Class?: string;
  Status?: string;
  BankAccountType?: string;
  SystemAccount?: string;
}

interface XeroContact {
  ContactID: string;
  Name?: string;
  IsSupplier?: boolean;
  IsCustomer?: boolean;
}

interface XeroInvoice {
  InvoiceID: string;
  Type?: string;
  InvoiceNumber?: string;
  Reference?: string;
  Contact?: XeroContact;
  Date?: string;
  DueDate?: string;
  Status?: string;
  Total?: number;
  AmountDue?: number;
  CurrencyCode?: string;
  CurrencyRate?: number;
  Payments?: { PaymentID?: string }[];
}

interface XeroBankTransaction {
  BankTransactionID: string;
  Contact?: XeroContact;
  Reference?: string;
}

interface XeroJournal {
  JournalID: string;
  JournalDate?: string;
  JournalNumber: number;
  Reference?: string;
  SourceID?: string;
  SourceType?: string;
  JournalLines?: { JournalLineID?: string; AccountID: string; Description?: string; NetAmount?: number }[];
}

interface Paged {
  pagination?: { page?: number; pageCount?: number };
}

const PAGE_SIZE = 100;
/** Xero's links to its own pages, by the document a journal came from. */
const LINKS: Record<string, (id: string) => string> = {
  ACCPAY: (id) => `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${id}`,
  ACCREC: (id) => `https://go.xero.com/AccountsReceivable/View.aspx?InvoiceID=${id}`,
  CASHPAID: (id) => `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${id}`,
  CASHREC: (id) => `https://go.xero.com/Bank/ViewTransaction.aspx?bankTransactionID=${id}`,
  MANJOURNAL: (id) => `https://go.xero.com/Journal/View.aspx?invoiceID=${id}`,
};

/** One posted journal line as Ledgerline reads it, before the query's filters. */
type Line = LedgerLine;

export class XeroAccounting implements AccountingSystem {
  readonly kind = 'xero';
  private readonly client: XeroClient;
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    config: XeroConfig,
    private readonly homeCurrency: string,
    fetchImpl: typeof fetch = fetch,
  ) {
    this.client = new XeroClient(config, fetchImpl);
  }

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      this.memo.set(key, p);
      // a failed read is not kept: the next call asks again
      p.catch(() => this.memo.delete(key));
    }
    return p;
  }

  /** Every item of a paged list (Invoices, Contacts, BankTransactions): page by page until Xero's pageCount. */
  private async allPages<T>(path: string, key: string, query: Record<string, string> = {}): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const body = await this.client.get<Paged & Record<string, T[] | undefined>>(path, { ...query, page, pageSize: PAGE_SIZE });
      const items = (body[key] as T[] | undefined) ?? [];
      out.push(...items);
      const pageCount = body.pagination?.pageCount;
      if (pageCount !== undefined ? page >= pageCount : items.length < PAGE_SIZE) return out;
    }
  }

  private accounts(): Promise<XeroAccount[]> {
    return this.once('accounts', async () => (await this.client.get<{ Accounts?: XeroAccount[] }>('/Accounts')).Accounts ?? []);
  }

  private invoices(): Promise<XeroInvoice[]> {
    return this.once('invoices', () => this.allPages<XeroInvoice>('/Invoices', 'Invoices'));
  }

  private bankTransactions(): Promise<XeroBankTransaction[]> {
    return this.once('bankTransactions', () => this.allPages<XeroBankTransaction>('/BankTransactions', 'BankTransactions'));
  }

  /** Every journal, by offset (JournalNumber) paging until a page comes back empty. */
  private journals(): Promise<XeroJournal[]> {
    return this.once('journals', async () => {
      const out: XeroJournal[] = [];
      for (let offset = 0; ; ) {
        const page = (await this.client.get<{ Journals?: XeroJournal[] }>('/Journals', { offset })).Journals ?? [];
        if (page.length === 0) return out;
        out.push(...page);
        offset = Math.max(...page.map((j) => j.JournalNumber));
      }
    });
  }

  check(): Promise<void> {
    return this.accounts().then(() => undefined);
  }

  /**
   * Xero's chart, deleted accounts left out, archived ones inactive. Xero has no sub-accounts, so
   * every account is top level and its full name is its name.
   */
  chartOfAccounts(): Promise<ChartAccount[]> {
    return this.once('chart', async () => {
      const accounts = (await this.accounts()).filter((a) => a.Status !== 'DELETED');
      return accounts.map((a): ChartAccount => {
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
      });
    });
  }

  contacts(): Promise<Contact[]> {
    return this.once('contacts', async () =>
      (await this.allPages<XeroContact>('/Contacts', 'Contacts')).map((c) => ({
        id: c.ContactID,
        name: c.Name ?? '',
        kind: c.IsCustomer && !c.IsSupplier ? 'customer' : 'supplier',
      })),
    );
  }

  /** Every journal line, with its transaction type, contact, number and link from the document it came from. */
  private allLines(): Promise<Line[]> {
    return this.once('lines', async () => {
      const [journals, accounts, invoices, bankTransactions] = await Promise.all([this.journals(), this.accounts(), this.invoices(), this.bankTransactions()]);
      const cards = new Set(accounts.filter((a) => a.Type === 'BANK' && a.BankAccountType === 'CREDITCARD').map((a) => a.AccountID));
      const sources = new Map<string, { contact?: XeroContact; number?: string }>();
      for (const inv of invoices) {
        const source = { contact: inv.Contact, number: inv.InvoiceNumber || inv.Reference };
        sources.set(inv.InvoiceID, source);
        // a payment's journal names the payment; the invoice it pays gives the contact
        for (const p of inv.Payments ?? []) if (p.PaymentID) sources.set(p.PaymentID, { contact: inv.Contact, number: source.number });
      }
      for (const bt of bankTransactions) sources.set(bt.BankTransactionID, { contact: bt.Contact, number: bt.Reference });
      const lineNumbers = new Map<string, number>();
      const lines: Line[] = [];
      for (const j of journals) {
        const date = xeroDate(j.JournalDate);
        if (!date) continue;
        const transactionId = j.SourceID ?? j.JournalID;
        const onCard = (j.JournalLines ?? []).some((l) => cards.has(l.AccountID));
        const type = transactionTypeFor(j.SourceType, onCard);
        const source = j.SourceID ? sources.get(j.SourceID) : undefined;
        const link = j.SourceID && j.SourceType && LINKS[j.SourceType] ? LINKS[j.SourceType]!(j.SourceID) : null;
        for (const l of j.JournalLines ?? []) {
          const amount = minorUnits(l.NetAmount, this.homeCurrency);
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
            currency: this.homeCurrency,
            amountInCurrency: amount,
            link,
          });
        }
      }
      // newest first: date, then transaction, then line number
      return lines.sort((a, b) => b.date.localeCompare(a.date) || a.transactionId.localeCompare(b.transactionId) || a.lineNo - b.lineNo);
    });
  }

  async accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    return totalsOfLines(await this.allLines(), ranges, accountIds);
  }

  async lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
    return groupedLines(await this.allLines(), query, groupBy);
  }

  async lines(query: LineQuery, limit: number): Promise<LedgerLine[]> {
    if (limit <= 0) return [];
    return matchingLines(await this.allLines(), query).slice(0, limit);
  }

  /** Authorised bills (ACCPAY) with something left to pay: Xero's AmountDue, after payments and credits. */
  async payables(): Promise<PayableBill[]> {
    const invoices = await this.invoices();
    return invoices
      .filter((i) => i.Type === 'ACCPAY' && i.Status === 'AUTHORISED' && (i.AmountDue ?? 0) > 0)
      .map((i) => {
        const currency = i.CurrencyCode ?? this.homeCurrency;
        const due = minorUnits(i.AmountDue, currency);
        const rate = i.CurrencyRate && i.CurrencyRate > 0 ? i.CurrencyRate : 1;
        const date = xeroDate(i.Date) ?? '';
        return {
          documentId: i.InvoiceID,
          transactionId: i.InvoiceID,
          kind: 'bill' as const,
          supplier: i.Contact?.Name ?? '',
          number: i.InvoiceNumber || i.Reference || i.InvoiceID,
          date,
          dueDate: xeroDate(i.DueDate) ?? date,
          currency,
          originalAmount: minorUnits(i.Total, currency),
          // Xero's CurrencyRate is units of the bill's currency per unit of the home currency
          amountDue: currency === this.homeCurrency ? due : minorUnits((i.AmountDue ?? 0) / rate, this.homeCurrency),
          note: i.Reference || null,
        };
      });
  }
}
