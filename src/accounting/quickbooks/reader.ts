/**
 * The QuickBooks Online connector: an organisation's books in QuickBooks, read over the Accounting
 * API v3 on every call (no local mirror yet: docs/quickbooks.md). The chart from the Account query
 * (inactive accounts included); ledger lines and account totals posted from the transactions
 * themselves (Bill, BillPayment, VendorCredit, Purchase, Deposit, Transfer, JournalEntry, Invoice,
 * Payment, SalesReceipt), each
 * read with paged queries, so reports and the ledger come from the same lines and QuickBooks' own
 * ProfitAndLoss and BalanceSheet totals are what they add up to; contacts from Vendor and
 * Customer; bills to pay from Bills with Balance > 0. Each list is read once per operation.
 */
import type { LedgerGrouping, LineGroup } from '../../domain/ledger-groups.js';
import { groupedLines, matchingLines, totalsOfLines } from '../lines-in-memory.js';
import type { AccountingSystem, ChartAccount, Contact, DateRange, LedgerLine, LineQuery, PayableBill, SystemBankAccount, SystemDocument } from '../types.js';
import { attachmentOf, downloadAttachment, type QbAttachable } from './attachments.js';
import { bankAccountsOf } from './bank-accounts.js';
import { QuickBooksClient } from './client.js';
import { documentEntityOf, systemDocumentOf, type DocumentEntity, type QbDocument } from './documents.js';
import { accountTypeFor, classificationOf, linkFor, minorUnits, TRANSACTION_ENTITIES, transactionTypeFor, type TransactionEntity } from './mapping.js';
import { needsItems, needsTaxRates, purchaseAccounts, taxLinesOf, type PurchaseAccounts, type QbItem, type QbTaxAgency, type QbTaxRate } from './purchases.js';
import type { QuickBooksConfig } from './settings.js';

interface Ref {
  value: string;
  name?: string;
  type?: string;
}

interface QbAccount {
  Id: string;
  Name: string;
  FullyQualifiedName?: string;
  AcctNum?: string;
  AccountType?: string;
  AccountSubType?: string;
  Classification?: string;
  Active?: boolean;
  ParentRef?: Ref;
  CurrencyRef?: Ref;
  CurrentBalance?: number;
}

interface QbName {
  Id: string;
  DisplayName?: string;
  Active?: boolean;
}

interface QbLine {
  Id?: string;
  Description?: string;
  Amount?: number;
  DetailType?: string;
  AccountBasedExpenseLineDetail?: { AccountRef?: Ref };
  ItemBasedExpenseLineDetail?: { ItemRef?: Ref };
  SalesItemLineDetail?: { ItemAccountRef?: Ref };
  DepositLineDetail?: { AccountRef?: Ref; Entity?: Ref };
  JournalEntryLineDetail?: { PostingType?: 'Debit' | 'Credit'; AccountRef?: Ref; Entity?: { Type?: string; EntityRef?: Ref } };
}

interface QbTransaction {
  Id: string;
  TxnDate?: string;
  DocNumber?: string;
  PrivateNote?: string;
  Memo?: string;
  CurrencyRef?: Ref;
  ExchangeRate?: number;
  Line?: QbLine[];
  TotalAmt?: number;
  Balance?: number;
  DueDate?: string;
  VendorRef?: Ref;
  CustomerRef?: Ref;
  EntityRef?: Ref;
  APAccountRef?: Ref;
  ARAccountRef?: Ref;
  AccountRef?: Ref;
  DepositToAccountRef?: Ref;
  PaymentType?: string;
  Credit?: boolean;
  PayType?: string;
  CheckPayment?: { BankAccountRef?: Ref };
  FromAccountRef?: Ref;
  ToAccountRef?: Ref;
  Amount?: number;
  CreditCardPayment?: { CCAccountRef?: Ref };
  TxnTaxDetail?: { TotalTax?: number; TaxLine?: { Amount?: number; TaxLineDetail?: { TaxRateRef?: Ref } }[] };
}

interface QueryAnswer {
  QueryResponse?: Record<string, unknown> & { startPosition?: number; maxResults?: number };
}

const DEFAULT_PAGE = 1000;

export class QuickBooksAccounting implements AccountingSystem {
  readonly kind = 'quickbooks';
  private readonly client: QuickBooksClient;
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly pageSize: number;

  constructor(
    config: QuickBooksConfig,
    private readonly homeCurrency: string,
    fetchImpl: typeof fetch = fetch,
  ) {
    this.client = new QuickBooksClient(config, fetchImpl);
    this.pageSize = config.pageSize ?? DEFAULT_PAGE;
  }

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = read();
      this.memo.set(key, p);
      p.catch(() => this.memo.delete(key));
    }
    return p;
  }

  /** Every entity of a query, STARTPOSITION by STARTPOSITION until a page comes back short. */
  private all<T>(entity: string, where = ''): Promise<T[]> {
    return this.once(`query ${entity}`, async () => {
      const out: T[] = [];
      for (let start = 1; ; start += this.pageSize) {
        const query = `SELECT * FROM ${entity}${where ? ` WHERE ${where}` : ''} ORDERBY Id STARTPOSITION ${start} MAXRESULTS ${this.pageSize}`;
        const body = await this.client.get<QueryAnswer>('/query', { query });
        const page = (body.QueryResponse?.[entity] as T[] | undefined) ?? [];
        out.push(...page);
        if (page.length < this.pageSize) return out;
      }
    });
  }

  private accounts(): Promise<QbAccount[]> {
    // QuickBooks answers active accounts only unless asked for inactive ones too
    return this.all<QbAccount>('Account', 'Active IN (true, false)');
  }

  /** Where item lines and purchase tax post (purchases.ts); the lists are read only when these transactions need them. */
  private purchaseAccounts(transactions: QbTransaction[]): Promise<PurchaseAccounts> {
    const items = needsItems(transactions) ? this.all<QbItem>('Item', 'Active IN (true, false)') : Promise.resolve([]);
    const tax = needsTaxRates(transactions);
    const rates = tax ? this.all<QbTaxRate>('TaxRate', 'Active IN (true, false)') : Promise.resolve([]);
    const agencies = tax ? this.all<QbTaxAgency>('TaxAgency') : Promise.resolve([]);
    return Promise.all([items, rates, agencies]).then(([i, r, a]) => purchaseAccounts(i, r, a));
  }

  /** Every Attachable of the company (notes and files), read once. */
  private attachables(): Promise<QbAttachable[]> {
    return this.all<QbAttachable>('Attachable');
  }

  check(): Promise<void> {
    return this.client.get('/query', { query: 'SELECT COUNT(*) FROM Account' }).then(() => undefined);
  }

  /** QuickBooks' chart: Non-Posting accounts (estimates, purchase orders) left out; sub-accounts under their parents. */
  chartOfAccounts(): Promise<ChartAccount[]> {
    return this.once('chart', async () =>
      (await this.accounts())
        .filter((a) => a.AccountType !== 'Non-Posting')
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
        }),
    );
  }

  contacts(): Promise<Contact[]> {
    return this.once('contacts', async () => {
      const [vendors, customers] = await Promise.all([this.all<QbName>('Vendor', 'Active IN (true, false)'), this.all<QbName>('Customer', 'Active IN (true, false)')]);
      return [
        ...vendors.map((v): Contact => ({ id: v.Id, name: v.DisplayName ?? '', kind: 'supplier' })),
        ...customers.map((c): Contact => ({ id: c.Id, name: c.DisplayName ?? '', kind: 'customer' })),
      ];
    });
  }

  /** The default account of a type (QuickBooks posts a bill without APAccountRef to its A/P account). */
  private async defaultAccount(type: string): Promise<string | undefined> {
    return (await this.accounts()).find((a) => a.AccountType === type && a.Active !== false)?.Id;
  }

  /** Every posted line of every transaction, debit positive in the home currency, newest first. */
  private allLines(): Promise<LedgerLine[]> {
    return this.once('lines', async () => {
      const read = await Promise.all(TRANSACTION_ENTITIES.map(async (entity) => ({ entity, items: await this.all<QbTransaction>(entity) })));
      const payable = await this.defaultAccount('Accounts Payable');
      const receivable = await this.defaultAccount('Accounts Receivable');
      const accounts = await this.purchaseAccounts(read.flatMap((r) => r.items));
      const lines: LedgerLine[] = [];
      for (const { entity, items } of read) for (const t of items) lines.push(...this.post(entity, t, payable, receivable, accounts));
      return lines.sort((a, b) => b.date.localeCompare(a.date) || a.transactionId.localeCompare(b.transactionId) || a.lineNo - b.lineNo);
    });
  }

  /** One transaction's lines as QuickBooks posts it: its detail lines, and the account on the other side. */
  private post(entity: TransactionEntity, t: QbTransaction, payable?: string, receivable?: string, accounts?: PurchaseAccounts): LedgerLine[] {
    if (!t.TxnDate) return [];
    const currency = t.CurrencyRef?.value ?? this.homeCurrency;
    const rate = currency === this.homeCurrency ? 1 : (t.ExchangeRate ?? 1);
    const type = transactionTypeFor(entity, t);
    const transactionId = `${entity}:${t.Id}`;
    const header = t.PrivateNote || t.Memo || '';
    const party = t.VendorRef ?? t.CustomerRef ?? t.EntityRef;
    const out: LedgerLine[] = [];
    const push = (accountId: string | undefined, amount: number, amountInCurrency: number, description: string, contact: Ref | undefined) => {
      if (!accountId) return;
      out.push({
        transactionId,
        lineNo: out.length + 1,
        date: t.TxnDate!,
        type,
        number: t.DocNumber || null,
        contactId: contact?.value ?? null,
        contactName: contact?.name ?? null,
        description,
        accountId,
        amount,
        currency,
        amountInCurrency,
        link: linkFor(entity, t.Id, t.PaymentType),
        // a bill or supplier credit is a document documents.get shows (documents.ts)
        documentId: entity === 'Bill' || entity === 'VendorCredit' ? transactionId : null,
      });
    };
    const add = (accountId: string | undefined, major: number, description: string, contact: Ref | undefined) =>
      push(accountId, rate === 1 ? minorUnits(major, currency) : minorUnits(major * rate, this.homeCurrency), minorUnits(major, currency), description, contact);
    const detail = (l: QbLine) =>
      l.AccountBasedExpenseLineDetail?.AccountRef?.value ?? l.SalesItemLineDetail?.ItemAccountRef?.value ?? l.DepositLineDetail?.AccountRef?.value ?? l.JournalEntryLineDetail?.AccountRef?.value ??
      accounts?.itemAccount(l.ItemBasedExpenseLineDetail?.ItemRef?.value);
    const posted = (t.Line ?? []).filter((l) => detail(l) !== undefined);
    if (entity === 'JournalEntry') {
      for (const l of posted) {
        const d = l.JournalEntryLineDetail!;
        add(detail(l), (d.PostingType === 'Credit' ? -1 : 1) * (l.Amount ?? 0), l.Description || header, d.Entity?.EntityRef);
      }
      return out;
    }
    if (entity === 'BillPayment') {
      const from = t.PayType === 'CreditCard' ? t.CreditCardPayment?.CCAccountRef?.value : t.CheckPayment?.BankAccountRef?.value;
      add(t.APAccountRef?.value ?? payable, t.TotalAmt ?? 0, header, party);
      add(from, -(t.TotalAmt ?? 0), header, party);
      return out;
    }
    if (entity === 'Payment') {
      // a customer payment: into the bank (or Undeposited Funds), off what the customer owes
      add(t.DepositToAccountRef?.value, t.TotalAmt ?? 0, header, party);
      add(t.ARAccountRef?.value ?? receivable, -(t.TotalAmt ?? 0), header, party);
      return out;
    }
    if (entity === 'Transfer') {
      add(t.ToAccountRef?.value, t.Amount ?? 0, header, undefined);
      add(t.FromAccountRef?.value, -(t.Amount ?? 0), header, undefined);
      return out;
    }
    // bills and purchases debit their lines; supplier credits, card refunds, deposits, sales receipts and invoices credit them
    const sign = entity === 'Bill' || (entity === 'Purchase' && !t.Credit) ? 1 : -1;
    for (const l of posted) {
      add(detail(l), sign * (l.Amount ?? 0), l.Description || header, l.DepositLineDetail?.Entity ?? party);
    }
    // the tax a purchase document charges, on its tax agency's account (purchases.ts)
    if (entity === 'Bill' || entity === 'VendorCredit' || entity === 'Purchase') for (const x of taxLinesOf(t)) add(accounts?.taxAccount(x.rateId), sign * x.amount, x.rate, party);
    const other =
      entity === 'Bill' || entity === 'VendorCredit'
        ? (t.APAccountRef?.value ?? payable)
        : entity === 'Invoice'
          ? (t.ARAccountRef?.value ?? receivable)
          : entity === 'Purchase'
            ? t.AccountRef?.value
            : t.DepositToAccountRef?.value;
    // the other side carries the document's contact (a deposit's only when its lines name no other)
    const contacts = new Set(posted.map((l) => l.DepositLineDetail?.Entity?.value));
    const depositContact = contacts.size === 1 ? posted[0]?.DepositLineDetail?.Entity : undefined;
    // in minor units, so the transaction balances to the cent
    const sum = (k: 'amount' | 'amountInCurrency') => out.reduce((s, l) => s + l[k], 0);
    push(other, -sum('amount'), -sum('amountInCurrency'), header, entity === 'Deposit' ? depositContact : party);
    return out;
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

  /** Bills with something left to pay: QuickBooks' Balance, after bill payments and applied credits. */
  async payables(): Promise<PayableBill[]> {
    const bills = await this.all<QbTransaction>('Bill');
    return bills
      .filter((b) => (b.Balance ?? 0) > 0 && b.TxnDate)
      .map((b) => {
        const currency = b.CurrencyRef?.value ?? this.homeCurrency;
        const rate = currency === this.homeCurrency ? 1 : (b.ExchangeRate ?? 1);
        return {
          documentId: `Bill:${b.Id}`,
          transactionId: `Bill:${b.Id}`,
          kind: 'bill' as const,
          supplier: b.VendorRef?.name ?? '',
          number: b.DocNumber || b.Id,
          date: b.TxnDate!,
          dueDate: b.DueDate ?? b.TxnDate!,
          currency,
          originalAmount: minorUnits(b.TotalAmt, currency),
          // QuickBooks' ExchangeRate is home currency per unit of the bill's currency
          amountDue: minorUnits(rate === 1 ? b.Balance : (b.Balance ?? 0) * rate, this.homeCurrency),
          note: b.PrivateNote || null,
        };
      });
  }

  /** Bills and vendor credits by the id their ledger lines carry (`Bill:146`), with their lines (documents.ts). */
  async documents(documentIds: string[]): Promise<SystemDocument[]> {
    const wanted = documentIds.map(documentEntityOf).filter((w) => w !== undefined);
    if (wanted.length === 0) return [];
    const entities = [...new Set(wanted.map((w) => w.entity))];
    const lists = new Map(await Promise.all(entities.map(async (e) => [e, await this.all<QbDocument>(e)] as const)));
    const found = wanted.flatMap((w) => lists.get(w.entity)!.filter((t) => t.Id === w.id).map((t) => ({ entity: w.entity, t })));
    if (found.length === 0) return [];
    const [chart, accounts, attachables] = await Promise.all([this.chartOfAccounts(), this.purchaseAccounts(found.map((f) => f.t) as QbTransaction[]), this.attachables()]);
    return found.flatMap(({ entity, t }) => systemDocumentOf(entity, t, { homeCurrency: this.homeCurrency, chart, accounts, attachables }) ?? []);
  }

  /** The PDF or image attached to a bill or vendor credit in QuickBooks (attachments.ts); null when it has none. */
  async documentFile(documentId: string): Promise<{ fileName: string; contentType: string; data: Buffer } | null> {
    const wanted = documentEntityOf(documentId);
    if (!wanted || !(await this.all<QbDocument>(wanted.entity as DocumentEntity)).some((t) => t.Id === wanted.id)) return null;
    const attachment = attachmentOf(await this.attachables(), wanted.entity, wanted.id);
    return attachment ? downloadAttachment(attachment) : null;
  }

  /** Active Bank and Credit Card accounts with QuickBooks' CurrentBalance (bank-accounts.ts). */
  async bankAccounts(): Promise<SystemBankAccount[]> {
    return bankAccountsOf(await this.accounts(), this.homeCurrency);
  }
}
