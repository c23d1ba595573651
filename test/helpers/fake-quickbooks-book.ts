/**
 * The fake QuickBooks Online company: a small, consistent set of books held as QuickBooks' own
 * entities in their JSON wire form (Account, Vendor, Customer, Bill, BillPayment, VendorCredit,
 * Invoice, Payment, SalesReceipt, Purchase, Deposit, Transfer, JournalEntry; Item, TaxRate, TaxAgency
 * and Attachable, empty here: fake-quickbooks-documents.ts fills them), so the fake answers them as they are. Derived fields
 * (TotalAmt, Bill and Invoice Balance, an account's CurrentBalance) are computed by `settle` from the
 * lines and payments, and the postings (`postingsOf`: the general ledger QuickBooks keeps, debit
 * positive, cents) are what the fake's reports are computed from. Amounts are US dollars.
 */

export type Entity = Record<string, any>;

export const ENTITY_NAMES = [
  'Account',
  'Vendor',
  'Customer',
  'Bill',
  'BillPayment',
  'VendorCredit',
  'Invoice',
  'Payment',
  'SalesReceipt',
  'Purchase',
  'Deposit',
  'Transfer',
  'JournalEntry',
  'RefundReceipt',
  'CreditMemo',
  'Item',
  'TaxRate',
  'TaxAgency',
  'Attachable',
] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

export interface FakeCompany {
  realmId: string;
  name: string;
  currency: string;
  /** the first month of QuickBooks' fiscal year (1: January) */
  fiscalYearStartMonth: number;
  entities: Record<EntityName, Entity[]>;
  /** entities deleted, by name, as CDC reports them */
  deleted: { entity: EntityName; Id: string; LastUpdatedTime: string }[];
  /** the bytes of Attachables that hold a file, by the Attachable's Id (served at its TempDownloadUri) */
  files: Record<string, Buffer>;
  /** Preferences AccountingInfoPrefs.BookCloseDate: the books are closed on and before it (no write may be dated then) */
  bookCloseDate?: string;
}

export const FAKE_REALM_ID = '9130357766554433';

const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);
const dollars = (c: number) => Math.round(c) / 100;
const meta = (date: string, time = '10:00:00') => ({ CreateTime: `${date}T${time}-07:00`, LastUpdatedTime: `${date}T${time}-07:00` });
const ref = (value: string, name?: string) => (name === undefined ? { value } : { value, name });

/** A fresh copy of the company every test starts from (tests may change their copy). */
export function defaultFakeCompany(): FakeCompany {
  const accounts: Entity[] = [];
  const account = (Id: string, Name: string, AccountType: string, AccountSubType: string, Classification: string, AcctNum: string, extra: Entity = {}) => {
    accounts.push({ Id, Name, SubAccount: false, FullyQualifiedName: Name, Active: true, Classification, AccountType, AccountSubType, AcctNum, ...extra });
  };
  const sub = (Id: string, Name: string, parentId: string, AcctNum: string, extra: Entity = {}) => {
    const parent = accounts.find((a) => a.Id === parentId)!;
    account(Id, Name, parent.AccountType, parent.AccountSubType, parent.Classification, AcctNum, {
      SubAccount: true,
      ParentRef: ref(parentId),
      FullyQualifiedName: `${parent.FullyQualifiedName}:${Name}`,
      ...extra,
    });
  };
  account('35', 'Checking', 'Bank', 'Checking', 'Asset', '1000');
  account('36', 'Savings', 'Bank', 'Savings', 'Asset', '1010');
  account('84', 'Accounts Receivable (A/R)', 'Accounts Receivable', 'AccountsReceivable', 'Asset', '1100');
  account('81', 'Inventory Asset', 'Other Current Asset', 'Inventory', 'Asset', '1200');
  account('15', 'Equipment', 'Fixed Asset', 'MachineryAndEquipment', 'Asset', '1500');
  account('16', 'Security Deposits', 'Other Asset', 'SecurityDeposits', 'Asset', '1800');
  account('33', 'Accounts Payable (A/P)', 'Accounts Payable', 'AccountsPayable', 'Liability', '2000');
  account('41', 'Visa Card', 'Credit Card', 'CreditCard', 'Liability', '2100');
  account('89', 'Sales Tax Payable', 'Other Current Liability', 'SalesTaxPayable', 'Liability', '2200');
  account('44', 'Equipment Loan', 'Long Term Liability', 'NotesPayable', 'Liability', '2500');
  account('34', 'Opening Balance Equity', 'Equity', 'OpeningBalanceEquity', 'Equity', '3000');
  account('2', 'Retained Earnings', 'Equity', 'RetainedEarnings', 'Equity', '3100');
  account('79', 'Sales', 'Income', 'SalesOfProductIncome', 'Revenue', '4000');
  sub('80', 'Catering', '79', '4010', { AccountSubType: 'ServiceFeeIncome' });
  account('60', 'Cost of Goods Sold', 'Cost of Goods Sold', 'SuppliesMaterialsCogs', 'Expense', '5000');
  account('24', 'Utilities', 'Expense', 'Utilities', 'Expense', '6100');
  sub('25', 'Telephone', '24', '6110');
  sub('26', 'Internet', '24', '6120');
  account('20', 'Office Supplies', 'Expense', 'OfficeGeneralAdministrativeExpenses', 'Expense', '6200');
  account('22', 'Repairs', 'Expense', 'RepairMaintenance', 'Expense', '6300', { Active: false });
  account('43', 'Interest Earned', 'Other Income', 'InterestEarned', 'Revenue', '7000');
  account('46', 'Depreciation', 'Other Expense', 'Depreciation', 'Expense', '8000');
  for (const a of accounts) {
    a.CurrencyRef = ref('USD', 'United States Dollar');
    a.domain = 'QBO';
    a.sparse = false;
    a.SyncToken = '0';
    a.MetaData = meta('2025-01-01', '09:00:00');
  }

  const party = (Id: string, DisplayName: string) => ({
    Id,
    DisplayName,
    CompanyName: DisplayName,
    PrintOnCheckName: DisplayName,
    Active: true,
    Balance: 0,
    CurrencyRef: ref('USD', 'United States Dollar'),
    domain: 'QBO',
    sparse: false,
    SyncToken: '0',
    MetaData: meta('2025-01-01', '09:00:00'),
  });
  const vendors = [party('56', 'Flour Mill Co'), party('57', 'City Power & Light'), party('58', 'Paper Supply Co'), party('59', 'Telco Inc')].map((v) => ({
    ...v,
    Vendor1099: false,
  }));
  const customers = [party('1', 'Corner Cafe'), party('2', 'Riverside Hotel')].map((c) => ({
    ...c,
    FullyQualifiedName: c.DisplayName,
    Taxable: false,
    Job: false,
    BillWithParent: false,
  }));
  const vendor = (name: string) => ref(vendors.find((v) => v.DisplayName === name)!.Id, name);
  const customer = (name: string) => ref(customers.find((c) => c.DisplayName === name)!.Id, name);
  const acct = (id: string) => ref(id, accounts.find((a) => a.Id === id)!.FullyQualifiedName);
  const txn = (Id: string, TxnDate: string, extra: Entity): Entity => ({
    Id,
    SyncToken: '0',
    domain: 'QBO',
    sparse: false,
    TxnDate,
    CurrencyRef: ref('USD', 'United States Dollar'),
    MetaData: meta(TxnDate),
    ...extra,
  });
  const expenseLine = (Id: string, accountId: string, amount: number, Description: string) => ({
    Id,
    Description,
    Amount: amount,
    DetailType: 'AccountBasedExpenseLineDetail',
    AccountBasedExpenseLineDetail: { AccountRef: acct(accountId), BillableStatus: 'NotBillable' },
  });

  const bills = [
    txn('146', '2025-12-01', {
      DocNumber: 'FM-2025-311',
      VendorRef: vendor('Flour Mill Co'),
      APAccountRef: acct('33'),
      DueDate: '2025-12-31',
      Line: [expenseLine('1', '60', 600, 'Flour, 40 sacks')],
    }),
    txn('147', '2026-03-02', {
      DocNumber: 'CPL-0326',
      PrivateNote: 'Phone and internet, March',
      VendorRef: vendor('City Power & Light'),
      APAccountRef: acct('33'),
      DueDate: '2026-04-01',
      Line: [expenseLine('1', '25', 80, 'Phone line'), expenseLine('2', '26', 120, 'Fibre')],
    }),
    txn('148', '2026-04-08', {
      DocNumber: 'FM-2026-118',
      VendorRef: vendor('Flour Mill Co'),
      APAccountRef: acct('33'),
      DueDate: '2026-05-08',
      Line: [expenseLine('1', '60', 1000, 'Flour and yeast')],
    }),
  ];
  const billPayments = [
    txn('150', '2026-05-01', {
      DocNumber: '1043',
      VendorRef: vendor('Flour Mill Co'),
      APAccountRef: acct('33'),
      PayType: 'Check',
      CheckPayment: { BankAccountRef: acct('35'), PrintStatus: 'NotSet' },
      TotalAmt: 400,
      Line: [{ Amount: 400, LinkedTxn: [{ TxnId: '148', TxnType: 'Bill' }] }],
    }),
  ];
  const vendorCredits = [
    txn('152', '2026-04-20', {
      DocNumber: 'FM-CR-9',
      VendorRef: vendor('Flour Mill Co'),
      APAccountRef: acct('33'),
      Line: [expenseLine('1', '60', 150, 'Damaged sacks returned')],
    }),
  ];
  const salesLine = (Id: string, accountId: string, amount: number, Description: string) => ({
    Id,
    LineNum: Number(Id),
    Description,
    Amount: amount,
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: { ItemRef: ref('1', 'Services'), ItemAccountRef: acct(accountId), Qty: 1, UnitPrice: amount },
  });
  const invoices = [
    txn('130', '2025-11-05', {
      DocNumber: '1001',
      CustomerRef: customer('Corner Cafe'),
      ARAccountRef: acct('84'),
      DueDate: '2025-12-05',
      Line: [salesLine('1', '79', 1500, 'Sourdough, November')],
    }),
    txn('131', '2026-05-18', {
      DocNumber: '1002',
      CustomerRef: customer('Riverside Hotel'),
      ARAccountRef: acct('84'),
      DueDate: '2026-06-17',
      Line: [salesLine('1', '79', 2400, 'Bread, May'), salesLine('2', '80', 300, 'Wedding catering')],
    }),
  ];
  const payments = [
    txn('140', '2026-01-20', {
      CustomerRef: customer('Corner Cafe'),
      ARAccountRef: acct('84'),
      DepositToAccountRef: acct('35'),
      PaymentRefNum: '5521',
      TotalAmt: 1000,
      UnappliedAmt: 0,
      Line: [{ Amount: 1000, LinkedTxn: [{ TxnId: '130', TxnType: 'Invoice' }] }],
    }),
  ];
  const salesReceipts = [
    txn('141', '2026-06-06', {
      DocNumber: '1003',
      CustomerRef: customer('Riverside Hotel'),
      DepositToAccountRef: acct('35'),
      Line: [salesLine('1', '79', 180, 'Pastries, walk-in')],
    }),
  ];
  const transfers = [txn('190', '2026-02-01', { FromAccountRef: acct('35'), ToAccountRef: acct('36'), Amount: 5000, PrivateNote: 'To savings' })];
  const purchases = [
    txn('160', '2025-03-10', {
      DocNumber: '1001',
      PaymentType: 'Check',
      AccountRef: acct('35'),
      EntityRef: { ...vendor('Paper Supply Co'), type: 'Vendor' },
      Credit: false,
      Line: [expenseLine('1', '15', 8000, 'Deck oven')],
    }),
    txn('161', '2026-02-14', {
      PaymentType: 'CreditCard',
      AccountRef: acct('41'),
      EntityRef: { ...vendor('Telco Inc'), type: 'Vendor' },
      Credit: false,
      Line: [expenseLine('1', '25', 45, 'Mobile, February')],
    }),
    txn('162', '2026-02-20', {
      PaymentType: 'CreditCard',
      AccountRef: acct('41'),
      EntityRef: { ...vendor('Paper Supply Co'), type: 'Vendor' },
      Credit: true,
      Line: [expenseLine('1', '20', 15, 'Returned labels')],
    }),
    txn('163', '2026-03-15', {
      PaymentType: 'Cash',
      AccountRef: acct('35'),
      EntityRef: { ...vendor('Paper Supply Co'), type: 'Vendor' },
      Line: [expenseLine('1', '20', 60, 'Bags and labels')],
    }),
  ];
  const deposits = [
    txn('170', '2026-04-25', {
      DepositToAccountRef: acct('35'),
      PrivateNote: 'Market takings and interest',
      Line: [
        {
          Id: '1',
          LineNum: 1,
          Description: 'Farmers market takings',
          Amount: 325,
          DetailType: 'DepositLineDetail',
          DepositLineDetail: { Entity: { ...customer('Corner Cafe'), type: 'Customer' }, AccountRef: acct('79') },
        },
        { Id: '2', LineNum: 2, Description: 'Interest', Amount: 12, DetailType: 'DepositLineDetail', DepositLineDetail: { AccountRef: acct('43') } },
      ],
    }),
  ];
  const jeLine = (Id: string, PostingType: 'Debit' | 'Credit', accountId: string, Amount: number, Description: string) => ({
    Id,
    Description,
    Amount,
    DetailType: 'JournalEntryLineDetail',
    JournalEntryLineDetail: { PostingType, AccountRef: acct(accountId) },
  });
  const journalEntries = [
    txn('180', '2025-01-02', {
      DocNumber: 'JE-1',
      PrivateNote: 'Opening balances',
      Adjustment: false,
      Line: [
        jeLine('0', 'Debit', '35', 20000, 'Owner funds'),
        jeLine('1', 'Credit', '34', 20000, 'Owner funds'),
        jeLine('2', 'Debit', '35', 10000, 'Loan drawn'),
        jeLine('3', 'Credit', '44', 10000, 'Loan drawn'),
      ],
    }),
    txn('181', '2026-05-31', {
      DocNumber: 'JE-2',
      PrivateNote: 'Depreciation May 2026',
      Adjustment: true,
      Line: [jeLine('0', 'Debit', '46', 100, 'Oven depreciation'), jeLine('1', 'Credit', '15', 100, 'Oven depreciation')],
    }),
  ];
  const company: FakeCompany = {
    realmId: FAKE_REALM_ID,
    name: 'Maple Street Bakery',
    currency: 'USD',
    fiscalYearStartMonth: 1,
    entities: {
      Account: accounts,
      Vendor: vendors,
      Customer: customers,
      Bill: bills,
      BillPayment: billPayments,
      VendorCredit: vendorCredits,
      Invoice: invoices,
      Payment: payments,
      SalesReceipt: salesReceipts,
      Purchase: purchases,
      Deposit: deposits,
      Transfer: transfers,
      JournalEntry: journalEntries,
      RefundReceipt: [],
      CreditMemo: [],
      Item: [],
      TaxRate: [],
      TaxAgency: [],
      Attachable: [],
    },
    deleted: [],
    files: {},
  };
  settle(company);
  return company;
}

export interface Posting {
  entity: EntityName;
  id: string;
  date: string;
  accountId: string;
  /** cents, debit positive */
  amount: number;
}

/** The account a purchase, deposit or journal line posts to: its own, or (an item-based expense line) its Item's, as QuickBooks posts it. */
const lineAccountIn =
  (company: FakeCompany) =>
  (l: Entity): string | undefined => {
    const own = l.AccountBasedExpenseLineDetail?.AccountRef?.value ?? l.DepositLineDetail?.AccountRef?.value ?? l.JournalEntryLineDetail?.AccountRef?.value;
    if (own !== undefined || !l.ItemBasedExpenseLineDetail) return own;
    const item = company.entities.Item.find((i) => i.Id === l.ItemBasedExpenseLineDetail.ItemRef?.value);
    return (item?.Type === 'Inventory' ? item.AssetAccountRef : item?.ExpenseAccountRef)?.value;
  };

/** The sales transactions: what they sell is income (credited by invoices and sales receipts, debited back by refund receipts and credit memos). */
export const SALES_ENTITIES = ['Invoice', 'SalesReceipt', 'RefundReceipt', 'CreditMemo'] as const;

/**
 * A sale's postings as Intuit's schema describes them, in cents with the sale's own sign (income
 * positive): each item line at its ItemAccountRef, else the Item's IncomeAccountRef ("the account
 * that records the proceeds from the sale of this item"); a group item's lines (GroupLineDetail.Line)
 * in place of the group line; a discount line at its DiscountAccountRef, against the sale; the tax
 * on each TaxLine at its rate's agency's TaxTrackedOnSalesAccountRef. Subtotal and description
 * lines post nothing.
 */
function salePostings(company: FakeCompany, t: Entity): { accountId: string; amount: number }[] {
  const out: { accountId: string; amount: number }[] = [];
  const lines = (t.Line ?? []).flatMap((l: Entity) => (l.GroupLineDetail ? (l.GroupLineDetail.Line ?? []) : [l]));
  for (const l of lines) {
    if (l.SalesItemLineDetail) {
      const item = company.entities.Item.find((i) => i.Id === l.SalesItemLineDetail.ItemRef?.value);
      const accountId = l.SalesItemLineDetail.ItemAccountRef?.value ?? item?.IncomeAccountRef?.value;
      if (!accountId) throw new Error(`fake QuickBooks company: no income account for a line of ${t.Id}`);
      out.push({ accountId, amount: cents(l.Amount) });
    } else if (l.DiscountLineDetail) {
      out.push({ accountId: l.DiscountLineDetail.DiscountAccountRef.value, amount: -cents(l.Amount) });
    }
  }
  for (const x of t.TxnTaxDetail?.TaxLine ?? []) {
    const rate = company.entities.TaxRate.find((r) => r.Id === x.TaxLineDetail?.TaxRateRef?.value);
    const agency = company.entities.TaxAgency.find((a) => a.Id === rate?.AgencyRef?.value);
    if (!agency?.TaxTrackedOnSalesAccountRef) throw new Error(`fake QuickBooks company: no sales-tax account for a tax line of ${t.Id}`);
    out.push({ accountId: agency.TaxTrackedOnSalesAccountRef.value, amount: cents(x.Amount) });
  }
  return out;
}

/** The company's Undeposited Funds account: where a receipt naming no account goes (Intuit), and what a deposit of it takes out. */
const undepositedOf = (company: FakeCompany) => company.entities.Account.find((a) => a.AccountSubType === 'UndepositedFunds')?.Id;

/** A purchase's tax lines with the account QuickBooks posts each to: the rate's agency's purchase-tax account. */
function taxPostings(company: FakeCompany, t: Entity): { accountId: string; amount: number }[] {
  return (t.TxnTaxDetail?.TaxLine ?? []).map((l: Entity) => {
    const rate = company.entities.TaxRate.find((r) => r.Id === l.TaxLineDetail?.TaxRateRef?.value);
    const agency = company.entities.TaxAgency.find((a) => a.Id === rate?.AgencyRef?.value);
    if (!agency?.TaxOnPurchasesAccountRef) throw new Error(`fake QuickBooks company: no purchase-tax account for a tax line of ${t.Id}`);
    return { accountId: agency.TaxOnPurchasesAccountRef.value, amount: cents(l.Amount) };
  });
}

/** The general ledger of the company as QuickBooks posts each transaction (every transaction balances). */
export function postingsOf(company: FakeCompany): Posting[] {
  const out: Posting[] = [];
  const defaultOf = (type: string) => company.entities.Account.find((a) => a.AccountType === type)!.Id;
  const post = (entity: EntityName, t: Entity, accountId: string, amount: number) => out.push({ entity, id: t.Id, date: t.TxnDate, accountId, amount });
  const lineAccount = lineAccountIn(company);
  const detailLines = (t: Entity) => (t.Line ?? []).filter((l: Entity) => lineAccount(l) !== undefined);
  for (const entity of SALES_ENTITIES) {
    for (const t of company.entities[entity]) {
      // income is credited by a sale, debited by a refund or credit memo; the other side takes the rest
      const sign = entity === 'Invoice' || entity === 'SalesReceipt' ? -1 : 1;
      let total = 0;
      for (const p of salePostings(company, t)) {
        post(entity, t, p.accountId, sign * p.amount);
        total += p.amount;
      }
      const other =
        entity === 'Invoice' || entity === 'CreditMemo'
          ? (t.ARAccountRef?.value ?? defaultOf('Accounts Receivable'))
          : (t.DepositToAccountRef?.value ?? undepositedOf(company));
      if (!other) throw new Error(`fake QuickBooks company: ${entity} ${t.Id} names no account and there is no Undeposited Funds`);
      post(entity, t, other, -sign * total);
    }
  }
  for (const entity of ['Bill', 'VendorCredit', 'Purchase', 'Deposit'] as const) {
    for (const t of company.entities[entity]) {
      // the sign of the lines' accounts: debited by bills and purchases, credited by the rest
      const sign = entity === 'Bill' || (entity === 'Purchase' && !t.Credit) ? 1 : -1;
      let total = 0;
      for (const l of detailLines(t)) {
        post(entity, t, lineAccount(l)!, sign * cents(l.Amount));
        total += cents(l.Amount);
      }
      if (entity === 'Bill' || entity === 'VendorCredit' || entity === 'Purchase') {
        for (const x of taxPostings(company, t)) {
          post(entity, t, x.accountId, sign * x.amount);
          total += x.amount;
        }
      }
      // a deposit's line bringing in a receipt held in Undeposited Funds (LinkedTxn, no account of its own)
      if (entity === 'Deposit') {
        for (const l of t.Line ?? []) {
          if (lineAccount(l) !== undefined || !l.LinkedTxn?.length) continue;
          post(entity, t, undepositedOf(company)!, -cents(l.Amount));
          total += cents(l.Amount);
        }
      }
      const other =
        entity === 'Bill' || entity === 'VendorCredit'
          ? (t.APAccountRef?.value ?? defaultOf('Accounts Payable'))
          : entity === 'Purchase'
            ? t.AccountRef.value
            : t.DepositToAccountRef.value;
      post(entity, t, other, -sign * total);
    }
  }
  for (const t of company.entities.Payment) {
    post('Payment', t, t.DepositToAccountRef?.value ?? undepositedOf(company)!, cents(t.TotalAmt));
    post('Payment', t, t.ARAccountRef?.value ?? defaultOf('Accounts Receivable'), -cents(t.TotalAmt));
  }
  for (const t of company.entities.Transfer) {
    post('Transfer', t, t.ToAccountRef.value, cents(t.Amount));
    post('Transfer', t, t.FromAccountRef.value, -cents(t.Amount));
  }
  for (const t of company.entities.BillPayment) {
    const paidFrom = t.PayType === 'CreditCard' ? t.CreditCardPayment.CCAccountRef.value : t.CheckPayment.BankAccountRef.value;
    post('BillPayment', t, t.APAccountRef?.value ?? defaultOf('Accounts Payable'), cents(t.TotalAmt));
    post('BillPayment', t, paidFrom, -cents(t.TotalAmt));
  }
  for (const t of company.entities.JournalEntry) {
    for (const l of detailLines(t)) post('JournalEntry', t, lineAccount(l)!, (l.JournalEntryLineDetail.PostingType === 'Debit' ? 1 : -1) * cents(l.Amount));
  }
  return out;
}

/** Each account's debit-positive movement (cents) over from..to (inclusive; from undefined: since the beginning). */
export function movements(postings: Posting[], from: string | undefined, to: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of postings) {
    if ((from !== undefined && p.date < from) || p.date > to) continue;
    out.set(p.accountId, (out.get(p.accountId) ?? 0) + p.amount);
  }
  return out;
}

const CREDIT_NATURE = new Set(['Liability', 'Equity', 'Revenue']);

/**
 * Recomputes what QuickBooks derives: each transaction's TotalAmt, what Bills and Invoices still
 * have to be paid (Balance, after BillPayments linking them), vendors' and customers' balances and
 * accounts' CurrentBalance; checks that every transaction balances.
 */
export function settle(company: FakeCompany): void {
  const e = company.entities;
  const lineAccount = lineAccountIn(company);
  for (const name of ['Bill', 'VendorCredit', 'Purchase', 'Deposit', 'JournalEntry'] as const) {
    for (const t of e[name]) {
      const lines = (t.Line ?? []).filter((l: Entity) => lineAccount(l) !== undefined || (name === 'Deposit' && l.LinkedTxn?.length));
      const total = lines
        .filter((l: Entity) => name !== 'JournalEntry' || l.JournalEntryLineDetail.PostingType === 'Debit')
        .reduce((s: number, l: Entity) => s + cents(l.Amount), 0);
      // QuickBooks' line amounts are net of tax; the document's total adds TxnTaxDetail's TotalTax
      t.TotalAmt = dollars(total + cents(t.TxnTaxDetail?.TotalTax));
    }
  }
  for (const name of SALES_ENTITIES) {
    for (const t of e[name]) {
      for (const l of t.Line ?? []) {
        // a group line's amount is its lines'; a subtotal line's, the item lines before it
        if (l.GroupLineDetail) l.Amount = dollars((l.GroupLineDetail.Line ?? []).reduce((s: number, x: Entity) => s + cents(x.Amount), 0));
      }
      const subtotal = (t.Line ?? [])
        .filter((l: Entity) => l.SalesItemLineDetail || l.GroupLineDetail)
        .reduce((s: number, l: Entity) => s + cents(l.Amount), 0);
      for (const l of t.Line ?? []) if (l.SubTotalLineDetail) l.Amount = dollars(subtotal);
      // the items, less the discount, and the tax
      t.TotalAmt = dollars(salePostings(company, t).reduce((s, p) => s + p.amount, 0));
    }
  }
  const paid = new Map<string, number>();
  for (const p of e.BillPayment)
    for (const l of p.Line ?? [])
      for (const link of l.LinkedTxn ?? []) if (link.TxnType === 'Bill') paid.set(link.TxnId, (paid.get(link.TxnId) ?? 0) + cents(l.Amount));
  for (const b of e.Bill) {
    b.Balance = dollars(cents(b.TotalAmt) - (paid.get(b.Id) ?? 0));
    b.LinkedTxn = e.BillPayment.filter((p) => p.Line?.some((l: Entity) => l.LinkedTxn?.some((x: Entity) => x.TxnId === b.Id && x.TxnType === 'Bill'))).map(
      (p) => ({ TxnId: p.Id, TxnType: 'BillPayment' }),
    );
    if (b.LinkedTxn.length === 0) delete b.LinkedTxn;
  }
  for (const v of e.VendorCredit) v.Balance = v.TotalAmt;
  const received = new Map<string, number>();
  for (const p of e.Payment)
    for (const l of p.Line ?? [])
      for (const link of l.LinkedTxn ?? []) if (link.TxnType === 'Invoice') received.set(link.TxnId, (received.get(link.TxnId) ?? 0) + cents(l.Amount));
  for (const i of e.Invoice) i.Balance = dollars(cents(i.TotalAmt) - (received.get(i.Id) ?? 0));
  for (const r of [...e.SalesReceipt, ...e.RefundReceipt]) r.Balance = 0;
  // a credit memo applied by a payment (its line linking the memo) is used up by that much
  const applied = new Map<string, number>();
  for (const p of e.Payment)
    for (const l of p.Line ?? [])
      for (const link of l.LinkedTxn ?? []) if (link.TxnType === 'CreditMemo') applied.set(link.TxnId, (applied.get(link.TxnId) ?? 0) + cents(l.Amount));
  for (const c of e.CreditMemo) {
    c.RemainingCredit = dollars(cents(c.TotalAmt) - (applied.get(c.Id) ?? 0));
    c.Balance = c.RemainingCredit;
  }
  for (const v of e.Vendor) {
    const owed =
      e.Bill.filter((b) => b.VendorRef.value === v.Id).reduce((s, b) => s + cents(b.Balance), 0) -
      e.VendorCredit.filter((c) => c.VendorRef.value === v.Id).reduce((s, c) => s + cents(c.Balance), 0);
    v.Balance = dollars(owed);
  }
  for (const c of e.Customer)
    c.Balance = dollars(
      e.Invoice.filter((i) => i.CustomerRef.value === c.Id).reduce((s, i) => s + cents(i.Balance), 0) -
        e.CreditMemo.filter((m) => m.CustomerRef.value === c.Id).reduce((s, m) => s + cents(m.RemainingCredit), 0),
    );
  const postings = postingsOf(company);
  const byTxn = new Map<string, number>();
  for (const p of postings) byTxn.set(`${p.entity} ${p.id}`, (byTxn.get(`${p.entity} ${p.id}`) ?? 0) + p.amount);
  for (const [k, sum] of byTxn) if (sum !== 0) throw new Error(`fake QuickBooks company: ${k} does not balance (${sum})`);
  const balances = movements(postings, undefined, '9999-12-31');
  const own = (a: Entity) => (CREDIT_NATURE.has(a.Classification) ? -1 : 1) * (balances.get(a.Id) ?? 0);
  for (const a of e.Account) {
    a.CurrentBalance = dollars(own(a));
    const subtree = e.Account.filter((x) => x.FullyQualifiedName === a.FullyQualifiedName || x.FullyQualifiedName.startsWith(`${a.FullyQualifiedName}:`));
    a.CurrentBalanceWithSubAccounts = dollars(subtree.reduce((s, x) => s + own(x), 0));
  }
}
