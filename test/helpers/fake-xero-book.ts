/**
 * The fake Xero organisation's book: a few accounts of several types, contacts, bills (ACCPAY) and
 * sales invoices (ACCREC), one part payment, bank transactions on a bank account and a credit card,
 * and two manual journals. Its journals (Xero's general ledger) are derived from those documents the
 * way Xero posts them, and its reports are computed from the journals, so everything it answers is
 * one consistent set of books. Amounts are pence (GBP), debit positive in journals.
 */

export type XeroAccountType =
  | 'BANK'
  | 'CURRENT'
  | 'CURRLIAB'
  | 'DEPRECIATN'
  | 'DIRECTCOSTS'
  | 'EQUITY'
  | 'EXPENSE'
  | 'FIXED'
  | 'INVENTORY'
  | 'LIABILITY'
  | 'NONCURRENT'
  | 'OTHERINCOME'
  | 'OVERHEADS'
  | 'PREPAYMENT'
  | 'REVENUE'
  | 'SALES'
  | 'TERMLIAB'
  | 'PAYG';

export const CLASS_OF: Record<XeroAccountType, 'ASSET' | 'EQUITY' | 'EXPENSE' | 'LIABILITY' | 'REVENUE'> = {
  BANK: 'ASSET',
  CURRENT: 'ASSET',
  INVENTORY: 'ASSET',
  PREPAYMENT: 'ASSET',
  FIXED: 'ASSET',
  NONCURRENT: 'ASSET',
  CURRLIAB: 'LIABILITY',
  LIABILITY: 'LIABILITY',
  TERMLIAB: 'LIABILITY',
  PAYG: 'LIABILITY',
  EQUITY: 'EQUITY',
  REVENUE: 'REVENUE',
  SALES: 'REVENUE',
  OTHERINCOME: 'REVENUE',
  DIRECTCOSTS: 'EXPENSE',
  EXPENSE: 'EXPENSE',
  OVERHEADS: 'EXPENSE',
  DEPRECIATN: 'EXPENSE',
};

export interface FakeAccount {
  id: string;
  code: string;
  name: string;
  type: XeroAccountType;
  status: 'ACTIVE' | 'ARCHIVED';
  bankAccountType?: 'BANK' | 'CREDITCARD';
  systemAccount?: 'DEBTORS' | 'CREDITORS' | 'RETAINEDEARNINGS' | 'GST';
}

export interface FakeContact {
  id: string;
  name: string;
  isSupplier: boolean;
  isCustomer: boolean;
  updated: string;
}

export interface FakeLine {
  description: string;
  accountCode: string;
  /** pence, positive for what the document charges (manual journals: debit positive); net of tax */
  amount: number;
  /** pence of tax on the line (posted to the GST system account); none when left out */
  tax?: number;
  /** the line as billed, when not 1 × amount */
  quantity?: number;
  unitPrice?: number;
  /** Xero's TaxType as written (INPUT2 when taxed, NONE when not, if left out) */
  taxType?: string;
}

/** A file attached to a document (GET …/Attachments). */
export interface FakeAttachment {
  id: string;
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export interface FakeInvoice {
  id: string;
  type: 'ACCPAY' | 'ACCREC';
  number: string;
  reference?: string;
  contactId: string;
  date: string;
  dueDate: string;
  lines: FakeLine[];
  /** reconciled: Xero's IsReconciled on the payment; created and deleted: when it was entered and deleted (payments written through the API) */
  payments: { id: string; date: string; amount: number; bankCode: string; reconciled?: boolean; reference?: string; created?: string; deleted?: string }[];
  updated: string;
  /** when it was entered, its journal's creation (updated when left out); a payment added later moves `updated` only */
  created?: string;
  /** Xero's Url, the link to the source document (written through the API) */
  url?: string;
  attachments?: FakeAttachment[];
}

/** A supplier credit note (CreditNotes Type ACCPAYCREDIT): what it credits is positive, as on a bill. */
export interface FakeCreditNote {
  id: string;
  number: string;
  reference?: string;
  contactId: string;
  date: string;
  lines: FakeLine[];
  updated: string;
  created?: string;
  attachments?: FakeAttachment[];
}

export interface FakeBankTransaction {
  id: string;
  type: 'SPEND' | 'RECEIVE';
  contactId: string;
  bankCode: string;
  date: string;
  reference: string;
  lines: FakeLine[];
  updated: string;
  /** Xero's IsReconciled: matched to a statement line in Xero */
  reconciled?: boolean;
  created?: string;
  url?: string;
  attachments?: FakeAttachment[];
}

export interface FakeManualJournal {
  id: string;
  narration: string;
  date: string;
  lines: FakeLine[];
  updated: string;
}

export interface FakeJournalLine {
  id: string;
  accountId: string;
  description: string;
  /** pence, debit positive */
  amount: number;
}

export interface FakeJournal {
  id: string;
  number: number;
  date: string;
  created: string;
  reference: string;
  sourceId: string;
  sourceType: 'ACCPAY' | 'ACCPAYCREDIT' | 'ACCREC' | 'ACCPAYPAYMENT' | 'CASHPAID' | 'CASHREC' | 'MANJOURNAL';
  lines: FakeJournalLine[];
}

export interface FakeBook {
  tenantId: string;
  name: string;
  currency: string;
  /** Xero's financial year end month (12: the year runs January to December) */
  fyEndMonth: number;
  accounts: FakeAccount[];
  contacts: FakeContact[];
  invoices: FakeInvoice[];
  bankTransactions: FakeBankTransaction[];
  manualJournals: FakeManualJournal[];
  creditNotes?: FakeCreditNote[];
  /** the Organisation's lock dates: nothing dated on or before them is entered (Xero's PeriodLockDate, EndOfYearLockDate) */
  periodLockDate?: string;
  endOfYearLockDate?: string;
}

/** A stable uuid-shaped id from a short name, so tests can name things. */
export function fakeId(name: string): string {
  let h = 0x811c9dc5;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${round}:${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    hex.push(h.toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

const acct = (code: string, name: string, type: XeroAccountType, extra: Partial<FakeAccount> = {}): FakeAccount => ({
  id: fakeId(`account ${code}`),
  code,
  name,
  type,
  status: 'ACTIVE',
  ...extra,
});

export const FAKE_TENANT_ID = fakeId('tenant Harbour Roasters');

/** A fresh copy of the small book every test starts from (tests may change their copy). */
export function defaultFakeBook(): FakeBook {
  const contact = (name: string, isSupplier: boolean, isCustomer: boolean): FakeContact => ({
    id: fakeId(`contact ${name}`),
    name,
    isSupplier,
    isCustomer,
    updated: '2025-01-01T09:00:00Z',
  });
  const contacts = [
    contact('Paper Co', true, false),
    contact('Bean Importers Ltd', true, false),
    contact('Telco Ltd', true, false),
    contact('Harbour Cafe', false, true),
  ];
  const c = (name: string) => contacts.find((x) => x.name === name)!.id;
  return {
    tenantId: FAKE_TENANT_ID,
    name: 'Harbour Roasters',
    currency: 'GBP',
    fyEndMonth: 12,
    accounts: [
      acct('090', 'Business Bank Account', 'BANK', { bankAccountType: 'BANK' }),
      acct('091', 'Company Card', 'BANK', { bankAccountType: 'CREDITCARD' }),
      acct('610', 'Accounts Receivable', 'CURRENT', { systemAccount: 'DEBTORS' }),
      acct('630', 'Inventory', 'INVENTORY'),
      acct('720', 'Office Equipment', 'FIXED'),
      acct('800', 'Accounts Payable', 'CURRLIAB', { systemAccount: 'CREDITORS' }),
      acct('900', 'Bank Loan', 'TERMLIAB'),
      acct('960', 'Retained Earnings', 'EQUITY', { systemAccount: 'RETAINEDEARNINGS' }),
      acct('970', 'Owner Funds Introduced', 'EQUITY'),
      acct('200', 'Sales', 'REVENUE'),
      acct('260', 'Other Revenue', 'OTHERINCOME'),
      acct('310', 'Cost of Goods Sold', 'DIRECTCOSTS'),
      acct('416', 'Depreciation', 'DEPRECIATN'),
      acct('429', 'General Expenses', 'OVERHEADS'),
      acct('461', 'Printing & Stationery', 'OVERHEADS'),
      acct('489', 'Telephone & Internet', 'EXPENSE'),
      acct('499', 'Old Van Costs', 'OVERHEADS', { status: 'ARCHIVED' }),
    ],
    contacts,
    manualJournals: [
      {
        id: fakeId('mj opening'),
        narration: 'Owner funds and bank loan',
        date: '2025-01-02',
        lines: [
          { description: 'Owner funds', accountCode: '090', amount: 1_000_000 },
          { description: 'Owner funds', accountCode: '970', amount: -1_000_000 },
          { description: 'Loan drawn', accountCode: '090', amount: 500_000 },
          { description: 'Loan drawn', accountCode: '900', amount: -500_000 },
        ],
        updated: '2025-01-02T10:00:00Z',
      },
      {
        id: fakeId('mj depreciation'),
        narration: 'Depreciation May 2026',
        date: '2026-05-31',
        lines: [
          { description: 'Depreciation', accountCode: '416', amount: 10_000 },
          { description: 'Depreciation', accountCode: '720', amount: -10_000 },
        ],
        updated: '2026-06-01T10:00:00Z',
      },
    ],
    invoices: [
      {
        id: fakeId('inv INV-0001'),
        type: 'ACCREC',
        number: 'INV-0001',
        contactId: c('Harbour Cafe'),
        date: '2025-11-10',
        dueDate: '2025-12-10',
        lines: [{ description: 'Espresso blend, 40 kg', accountCode: '200', amount: 120_000 }],
        payments: [],
        updated: '2025-11-10T12:00:00Z',
      },
      {
        id: fakeId('bill BI-2025-77'),
        type: 'ACCPAY',
        number: 'BI-2025-77',
        contactId: c('Bean Importers Ltd'),
        date: '2025-12-01',
        dueDate: '2025-12-31',
        lines: [{ description: 'Green beans, Colombia', accountCode: '310', amount: 45_000 }],
        payments: [],
        updated: '2025-12-01T12:00:00Z',
      },
      {
        id: fakeId('bill PC-7781'),
        type: 'ACCPAY',
        number: 'PC-7781',
        reference: 'Office paper',
        contactId: c('Paper Co'),
        date: '2026-03-03',
        dueDate: '2026-04-02',
        lines: [
          { description: 'Copier paper', accountCode: '461', amount: 18_000 },
          { description: 'Toner', accountCode: '461', amount: 6_000 },
        ],
        payments: [],
        updated: '2026-03-03T12:00:00Z',
      },
      {
        id: fakeId('bill BI-2026-14'),
        type: 'ACCPAY',
        number: 'BI-2026-14',
        contactId: c('Bean Importers Ltd'),
        date: '2026-04-10',
        dueDate: '2026-05-10',
        lines: [{ description: 'Green beans, Ethiopia', accountCode: '310', amount: 80_000 }],
        payments: [{ id: fakeId('payment BI-2026-14'), date: '2026-05-01', amount: 30_000, bankCode: '090' }],
        updated: '2026-05-01T12:00:00Z',
      },
      {
        id: fakeId('inv INV-0002'),
        type: 'ACCREC',
        number: 'INV-0002',
        contactId: c('Harbour Cafe'),
        date: '2026-05-20',
        dueDate: '2026-06-19',
        lines: [
          { description: 'House blend, 60 kg', accountCode: '200', amount: 250_000 },
          { description: 'Barista training', accountCode: '260', amount: 10_000 },
        ],
        payments: [],
        updated: '2026-05-20T12:00:00Z',
      },
    ],
    bankTransactions: [
      {
        id: fakeId('bt espresso machine'),
        type: 'SPEND',
        contactId: c('Paper Co'),
        bankCode: '090',
        date: '2025-12-15',
        reference: 'Espresso machine',
        lines: [{ description: 'Espresso machine', accountCode: '720', amount: 150_000 }],
        updated: '2025-12-15T12:00:00Z',
      },
      {
        id: fakeId('bt telco'),
        type: 'SPEND',
        contactId: c('Telco Ltd'),
        bankCode: '091',
        date: '2026-02-14',
        reference: 'TEL-0226',
        lines: [{ description: 'Broadband February', accountCode: '489', amount: 6_000 }],
        updated: '2026-02-14T12:00:00Z',
      },
      {
        id: fakeId('bt market stall'),
        type: 'RECEIVE',
        contactId: c('Harbour Cafe'),
        bankCode: '090',
        date: '2026-04-25',
        reference: 'Market stall takings',
        lines: [{ description: 'Market stall takings', accountCode: '200', amount: 32_500 }],
        updated: '2026-04-25T12:00:00Z',
      },
    ],
  };
}

/**
 * A spend from the business bank account (090) on General Expenses (429), entered now: a change a
 * test makes to Xero while an organisation is connected. Added to the book and returned; the test
 * takes it off again (bankTransactions.pop()).
 */
export function addSpendNow(
  book: FakeBook,
  spend: { key: string; reference: string; description: string; amount: number; date: string; contactId?: string },
): FakeBankTransaction {
  const entered: FakeBankTransaction = {
    id: fakeId(spend.key),
    type: 'SPEND',
    contactId: spend.contactId ?? book.contacts[0]!.id,
    bankCode: '090',
    date: spend.date,
    reference: spend.reference,
    lines: [{ description: spend.description, accountCode: '429', amount: spend.amount }],
    updated: new Date().toISOString(),
  };
  book.bankTransactions.push(entered);
  return entered;
}

/** Xero's journals for the book, in the order the documents were entered (by their update time). */
export function journalsOf(book: FakeBook): FakeJournal[] {
  const byCode = new Map(book.accounts.map((a) => [a.code, a]));
  const id = (code: string) => {
    const a = byCode.get(code);
    if (!a) throw new Error(`fake book: no account ${code}`);
    return a.id;
  };
  const system = (s: FakeAccount['systemAccount']) => book.accounts.find((a) => a.systemAccount === s)!.id;
  const entries: Omit<FakeJournal, 'number' | 'id'>[] = [];
  const total = (lines: FakeLine[]) => lines.reduce((s, l) => s + l.amount, 0);
  for (const mj of book.manualJournals) {
    entries.push({
      date: mj.date,
      created: mj.updated,
      reference: mj.narration,
      sourceId: mj.id,
      sourceType: 'MANJOURNAL',
      lines: mj.lines.map((l, i) => ({ id: fakeId(`${mj.id} ${i}`), accountId: id(l.accountCode), description: l.description, amount: l.amount })),
    });
  }
  const taxOf = (lines: FakeLine[]) => lines.reduce((s, l) => s + (l.tax ?? 0), 0);
  /** a document's lines net on their accounts, its tax on the GST account, the gross on the control account */
  const documentLines = (docId: string, lines: FakeLine[], sign: number, control: string) => [
    ...lines.map((l, i) => ({ id: fakeId(`${docId} ${i}`), accountId: id(l.accountCode), description: l.description, amount: sign * l.amount })),
    ...(taxOf(lines) ? [{ id: fakeId(`${docId} tax`), accountId: system('GST'), description: '', amount: sign * taxOf(lines) }] : []),
    { id: fakeId(`${docId} control`), accountId: control, description: '', amount: -sign * (total(lines) + taxOf(lines)) },
  ];
  for (const cn of book.creditNotes ?? []) {
    entries.push({
      date: cn.date,
      created: cn.created ?? cn.updated,
      reference: cn.reference ?? cn.number,
      sourceId: cn.id,
      sourceType: 'ACCPAYCREDIT',
      lines: documentLines(cn.id, cn.lines, -1, system('CREDITORS')),
    });
  }
  for (const inv of book.invoices) {
    const sign = inv.type === 'ACCPAY' ? 1 : -1;
    const control = system(inv.type === 'ACCPAY' ? 'CREDITORS' : 'DEBTORS');
    entries.push({
      date: inv.date,
      created: inv.created ?? inv.updated,
      reference: inv.reference ?? inv.number,
      sourceId: inv.id,
      sourceType: inv.type,
      lines: documentLines(inv.id, inv.lines, sign, control),
    });
    for (const p of inv.payments) {
      const paid = [
        { id: fakeId(`${p.id} control`), accountId: control, description: '', amount: p.amount },
        { id: fakeId(`${p.id} bank`), accountId: id(p.bankCode), description: '', amount: -p.amount },
      ];
      entries.push({
        date: p.date,
        created: p.created ?? inv.created ?? inv.updated,
        reference: inv.number,
        sourceId: p.id,
        sourceType: 'ACCPAYPAYMENT',
        lines: paid,
      });
      // a deleted payment: Xero never removes a journal, it posts the reverse of it
      if (p.deleted) {
        const reversed = paid.map((l) => ({ ...l, id: fakeId(`${l.id} reversed`), amount: -l.amount }));
        entries.push({ date: p.date, created: p.deleted, reference: inv.number, sourceId: p.id, sourceType: 'ACCPAYPAYMENT', lines: reversed });
      }
    }
  }
  for (const bt of book.bankTransactions) {
    const sign = bt.type === 'SPEND' ? 1 : -1;
    entries.push({
      date: bt.date,
      created: bt.created ?? bt.updated,
      reference: bt.reference,
      sourceId: bt.id,
      sourceType: bt.type === 'SPEND' ? 'CASHPAID' : 'CASHREC',
      lines: [
        ...bt.lines.map((l, i) => ({ id: fakeId(`${bt.id} ${i}`), accountId: id(l.accountCode), description: l.description, amount: sign * l.amount })),
        ...(taxOf(bt.lines) ? [{ id: fakeId(`${bt.id} tax`), accountId: system('GST'), description: '', amount: sign * taxOf(bt.lines) }] : []),
        { id: fakeId(`${bt.id} bank`), accountId: id(bt.bankCode), description: '', amount: -sign * (total(bt.lines) + taxOf(bt.lines)) },
      ],
    });
  }
  entries.sort((a, b) => a.created.localeCompare(b.created) || a.date.localeCompare(b.date));
  return entries.map((e, i) => {
    const sum = e.lines.reduce((s, l) => s + l.amount, 0);
    if (sum !== 0) throw new Error(`fake book: journal of ${e.sourceId} does not balance (${sum})`);
    return { ...e, number: i + 1, id: fakeId(`journal ${i + 1} ${e.sourceId}`) };
  });
}

/** Each account's debit-positive movement over from..to (inclusive; from undefined: since the beginning). */
export function movements(journals: FakeJournal[], from: string | undefined, to: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const j of journals) {
    if ((from !== undefined && j.date < from) || j.date > to) continue;
    for (const l of j.lines) out.set(l.accountId, (out.get(l.accountId) ?? 0) + l.amount);
  }
  return out;
}
