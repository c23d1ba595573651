/**
 * The books of a coffee roaster in the fake QuickBooks (fake-quickbooks-book.ts), as a company that
 * sells by item keeps them: every invoice and sales receipt line names an Item and no account
 * (`SalesItemLineDetail` without `ItemAccountRef`, so each posts to its Item's `IncomeAccountRef`),
 * 36 invoices over eighteen months, some with a 5% discount line, the hotel's with 6% sales tax, one
 * with a group item (a bundle of two items), a subtotal line and a description line; retail sales
 * receipts with sales tax, some into Undeposited Funds (one naming no account, which QuickBooks
 * takes as Undeposited Funds) and then banked by a deposit of them; a refund receipt; a credit memo
 * partly applied by a payment; customer payments, one part payment; bills with item and account
 * lines, bill payments by cheque and by card, a vendor credit; card purchases and a card refund;
 * transfers to savings; loan repayments; journal entries (opening balances, depreciation). `settle`
 * derives every total and balance. Amounts are US dollars; the items are NonInventory and Service
 * items (the cost of inventory sold is QuickBooks' own FIFO reckoning, in no entity the API answers).
 */
import { settle, type Entity, type FakeCompany } from './fake-quickbooks-book.js';

export const ROASTER_REALM_ID = '9341453012345678';

const pad = (n: number) => String(n).padStart(2, '0');
const round2 = (n: number) => Math.round(n * 100) / 100;
const meta = (date: string) => ({ CreateTime: `${date}T10:00:00-08:00`, LastUpdatedTime: `${date}T10:00:00-08:00` });
const ref = (value: string, name?: string) => (name === undefined ? { value } : { value, name });
const usd = { value: 'USD', name: 'United States Dollar' };

/** The 18 months the books cover: January 2025 to June 2026. */
const MONTHS = Array.from({ length: 18 }, (_, k) => ({ y: 2025 + Math.floor(k / 12), m: (k % 12) + 1 }));
const day = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export function roasterFakeCompany(): FakeCompany {
  const accounts: Entity[] = [];
  const account = (Id: string, Name: string, AccountType: string, AccountSubType: string, Classification: string, AcctNum: string, extra: Entity = {}) =>
    accounts.push({ Id, Name, SubAccount: false, FullyQualifiedName: Name, Active: true, Classification, AccountType, AccountSubType, AcctNum, ...extra });
  account('35', 'Checking', 'Bank', 'Checking', 'Asset', '1000');
  account('36', 'Savings', 'Bank', 'Savings', 'Asset', '1010');
  account('4', 'Undeposited Funds', 'Other Current Asset', 'UndepositedFunds', 'Asset', '1050');
  account('84', 'Accounts Receivable (A/R)', 'Accounts Receivable', 'AccountsReceivable', 'Asset', '1100');
  account('15', 'Roasting Equipment', 'Fixed Asset', 'MachineryAndEquipment', 'Asset', '1500');
  account('33', 'Accounts Payable (A/P)', 'Accounts Payable', 'AccountsPayable', 'Liability', '2000');
  account('41', 'Amex Card', 'Credit Card', 'CreditCard', 'Liability', '2100');
  account('89', 'State Sales Tax Payable', 'Other Current Liability', 'SalesTaxPayable', 'Liability', '2200');
  account('44', 'Equipment Loan', 'Long Term Liability', 'NotesPayable', 'Liability', '2500');
  account('34', 'Opening Balance Equity', 'Equity', 'OpeningBalanceEquity', 'Equity', '3000');
  account('2', 'Retained Earnings', 'Equity', 'RetainedEarnings', 'Equity', '3100');
  account('79', 'Coffee Sales', 'Income', 'SalesOfProductIncome', 'Revenue', '4000');
  account('80', 'Wholesale', 'Income', 'SalesOfProductIncome', 'Revenue', '4010', {
    SubAccount: true,
    ParentRef: ref('79'),
    FullyQualifiedName: 'Coffee Sales:Wholesale',
  });
  account('82', 'Training Income', 'Income', 'ServiceFeeIncome', 'Revenue', '4100');
  account('86', 'Discounts Given', 'Income', 'DiscountsRefundsGiven', 'Revenue', '4900');
  account('60', 'Green Coffee', 'Cost of Goods Sold', 'SuppliesMaterialsCogs', 'Expense', '5000');
  account('61', 'Packaging', 'Cost of Goods Sold', 'SuppliesMaterialsCogs', 'Expense', '5100');
  account('24', 'Rent', 'Expense', 'RentOrLeaseOfBuildings', 'Expense', '6000');
  account('25', 'Utilities', 'Expense', 'Utilities', 'Expense', '6100');
  account('20', 'Office Supplies', 'Expense', 'OfficeGeneralAdministrativeExpenses', 'Expense', '6200');
  account('43', 'Interest Earned', 'Other Income', 'InterestEarned', 'Revenue', '7000');
  account('46', 'Depreciation', 'Other Expense', 'Depreciation', 'Expense', '8000');
  for (const a of accounts) Object.assign(a, { CurrencyRef: usd, domain: 'QBO', sparse: false, SyncToken: '0', MetaData: meta('2025-01-01') });
  const acct = (id: string) => ref(id, accounts.find((a) => a.Id === id)!.FullyQualifiedName);

  const common = (date: string) => ({ domain: 'QBO', sparse: false, SyncToken: '0', MetaData: meta(date) });
  const party = (Id: string, DisplayName: string) => ({
    ...common('2025-01-01'),
    Id,
    DisplayName,
    CompanyName: DisplayName,
    PrintOnCheckName: DisplayName,
    Active: true,
    Balance: 0,
    CurrencyRef: usd,
  });
  const vendors = [
    party('56', 'Green Bean Importers'),
    party('57', 'PackRight Supplies'),
    party('58', 'City Power'),
    party('59', 'Dockside Landlord'),
    party('60', 'Office Depot'),
  ].map((v) => ({ ...v, Vendor1099: false }));
  const customers = [party('1', 'Corner Cafe'), party('2', 'Riverside Hotel'), party('3', 'Walk-in Customers')].map((c) => ({
    ...c,
    FullyQualifiedName: c.DisplayName,
    Taxable: c.Id !== '1',
    Job: false,
    BillWithParent: false,
  }));
  const vendor = (id: string) => ref(id, vendors.find((v) => v.Id === id)!.DisplayName);
  const customer = (id: string) => ref(id, customers.find((c) => c.Id === id)!.DisplayName);

  const item = (Id: string, Name: string, Type: string, extra: Entity) => ({
    ...common('2025-01-01'),
    Id,
    Name,
    FullyQualifiedName: Name,
    Active: true,
    Type,
    ...extra,
  });
  const items = [
    item('10', 'House Blend 1kg', 'NonInventory', { UnitPrice: 24, IncomeAccountRef: acct('80'), ExpenseAccountRef: acct('60') }),
    item('11', 'Espresso Blend 1kg', 'NonInventory', { UnitPrice: 28, IncomeAccountRef: acct('80'), ExpenseAccountRef: acct('60') }),
    item('12', 'Retail Bag 250g', 'NonInventory', { UnitPrice: 9.5, IncomeAccountRef: acct('79'), ExpenseAccountRef: acct('60'), Taxable: true }),
    item('13', 'Barista Training', 'Service', { UnitPrice: 150, IncomeAccountRef: acct('82') }),
    item('14', 'Cafe Starter Kit', 'Group', {
      ItemGroupDetail: {
        ItemGroupLine: [
          { ItemRef: ref('10', 'House Blend 1kg'), Qty: 10 },
          { ItemRef: ref('13', 'Barista Training'), Qty: 1 },
        ],
      },
    }),
    item('15', 'Green Beans 60kg', 'NonInventory', { PurchaseCost: 420, ExpenseAccountRef: acct('60') }),
  ];
  const itemRef = (id: string) => ref(id, items.find((i) => i.Id === id)!.Name);
  const agency = {
    ...common('2025-01-01'),
    Id: '1',
    DisplayName: 'State Department of Revenue',
    Active: true,
    TaxTrackedOnSales: true,
    TaxTrackedOnSalesAccountRef: acct('89'),
    TaxTrackedOnPurchases: false,
  };
  const rate = { ...common('2025-01-01'), Id: '3', Name: 'State sales tax 6%', Active: true, RateValue: 6, AgencyRef: ref('1', agency.DisplayName) };

  const txn = (Id: string, TxnDate: string, extra: Entity): Entity => ({ ...common(TxnDate), Id, TxnDate, CurrencyRef: usd, ...extra });
  let lineNo = 0;
  /** an item line as a sale names it: the Item, no account */
  const sold = (itemId: string, qty: number, unitPrice: number, taxable: boolean, Description?: string): Entity => ({
    Id: String(++lineNo),
    ...(Description ? { Description } : {}),
    Amount: round2(qty * unitPrice),
    DetailType: 'SalesItemLineDetail',
    SalesItemLineDetail: { ItemRef: itemRef(itemId), Qty: qty, UnitPrice: unitPrice, TaxCodeRef: { value: taxable ? 'TAX' : 'NON' } },
  });
  const discount = (percent: number, base: number): Entity => ({
    Id: String(++lineNo),
    Amount: round2((base * percent) / 100),
    DetailType: 'DiscountLineDetail',
    DiscountLineDetail: { PercentBased: true, DiscountPercent: percent, DiscountAccountRef: acct('86') },
  });
  /** 6% on what is taxable, after the discount (ApplyTaxAfterDiscount) */
  const taxOn = (taxable: number): Entity => {
    const tax = round2(taxable * 0.06);
    return {
      TxnTaxCodeRef: { value: '3' },
      TotalTax: tax,
      TaxLine: [
        {
          Amount: tax,
          DetailType: 'TaxLineDetail',
          TaxLineDetail: { TaxRateRef: ref('3', rate.Name), PercentBased: true, TaxPercent: 6, NetAmountTaxable: taxable },
        },
      ],
    };
  };
  const sum = (lines: Entity[]) => round2(lines.reduce((s, l) => s + l.Amount, 0));

  const invoices: Entity[] = [];
  const payments: Entity[] = [];
  const salesReceipts: Entity[] = [];
  const deposits: Entity[] = [];
  const bills: Entity[] = [];
  const billPayments: Entity[] = [];
  const purchases: Entity[] = [];
  const transfers: Entity[] = [];
  const journals: Entity[] = [];
  let id = 1000;
  const next = () => String(++id);

  journals.push(
    txn(next(), '2025-01-02', {
      DocNumber: 'JE-1',
      PrivateNote: 'Opening balances',
      Adjustment: false,
      Line: [
        {
          Id: '0',
          Description: 'Owner funds',
          Amount: 30000,
          DetailType: 'JournalEntryLineDetail',
          JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: acct('35') },
        },
        {
          Id: '1',
          Description: 'Owner funds',
          Amount: 30000,
          DetailType: 'JournalEntryLineDetail',
          JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: acct('34') },
        },
        {
          Id: '2',
          Description: 'Roaster bought on loan',
          Amount: 18000,
          DetailType: 'JournalEntryLineDetail',
          JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: acct('15') },
        },
        {
          Id: '3',
          Description: 'Roaster bought on loan',
          Amount: 18000,
          DetailType: 'JournalEntryLineDetail',
          JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: acct('44') },
        },
      ],
    }),
  );

  MONTHS.forEach(({ y, m }, k) => {
    const last = k === MONTHS.length - 1;
    // the café's wholesale order, untaxed (resale), paid 20 days later; every third with a 5% discount
    lineNo = 0;
    const cafeLines = [sold('10', 20 + (k % 5) * 4, 24, false), sold('11', 10 + (k % 3) * 5, 28, false)];
    if (k === 7) {
      // a starter kit for a second site: a group item's own lines, a subtotal, a note
      const kit = [sold('10', 10, 24, false), sold('13', 1, 150, false)];
      cafeLines.push(
        { Id: String(++lineNo), Amount: sum(kit), DetailType: 'GroupLineDetail', GroupLineDetail: { GroupItemRef: itemRef('14'), Quantity: 1, Line: kit } },
        { Id: String(++lineNo), Amount: 0, DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} },
        { Id: String(++lineNo), Description: 'Thank you for opening with us', DetailType: 'DescriptionOnly', DescriptionLineDetail: {} },
      );
    }
    const cafeBase = sum(cafeLines.filter((l) => l.SalesItemLineDetail || l.GroupLineDetail));
    if (k % 3 === 2) cafeLines.push(discount(5, cafeBase));
    const cafeDate = day(y, m, 5);
    const cafe = txn(next(), cafeDate, {
      DocNumber: String(5001 + 2 * k),
      CustomerRef: customer('1'),
      ARAccountRef: acct('84'),
      DueDate: addDays(cafeDate, 30),
      ApplyTaxAfterDiscount: true,
      Line: cafeLines,
    });
    invoices.push(cafe);
    // the hotel's order, taxed at 6% (it is the one drinking it), paid into Undeposited Funds and banked with others
    lineNo = 0;
    const hotelLines = [sold('11', 12 + (k % 4) * 3, 28, true, 'Espresso for the lobby bar'), ...(k % 6 === 0 ? [sold('13', 2, 150, true)] : [])];
    const hotelBase = sum(hotelLines);
    const hotelDisc = k % 4 === 1 ? [discount(5, hotelBase)] : [];
    const hotelDate = day(y, m, 12);
    const hotel = txn(next(), hotelDate, {
      DocNumber: String(5002 + 2 * k),
      CustomerRef: customer('2'),
      ARAccountRef: acct('84'),
      DueDate: addDays(hotelDate, 30),
      ApplyTaxAfterDiscount: true,
      Line: [...hotelLines, ...hotelDisc],
      TxnTaxDetail: taxOn(round2(hotelBase - sum(hotelDisc))),
    });
    invoices.push(hotel);
    // retail sales over the counter, taxed
    lineNo = 0;
    const bags = 40 + (k % 7) * 6;
    const retailDate = day(y, m, 28);
    const retail = txn(next(), retailDate, {
      DocNumber: `SR-${1 + k}`,
      CustomerRef: customer('3'),
      ...(k % 3 === 0 ? { DepositToAccountRef: acct('35') } : k % 3 === 1 ? { DepositToAccountRef: acct('4') } : {}),
      PaymentMethodRef: ref('1', 'Cash'),
      Line: [sold('12', bags, 9.5, true)],
      TxnTaxDetail: taxOn(round2(bags * 9.5)),
    });
    salesReceipts.push(retail);

    // bills: green beans (an item line and an account line) and the rent
    const beans = txn(next(), day(y, m, 3), {
      DocNumber: `GBI-${y}-${pad(m)}`,
      VendorRef: vendor('56'),
      APAccountRef: acct('33'),
      DueDate: day(y, m, 28),
      Line: [
        {
          Id: '1',
          Amount: round2((2 + (k % 2)) * 420),
          DetailType: 'ItemBasedExpenseLineDetail',
          ItemBasedExpenseLineDetail: { ItemRef: itemRef('15'), Qty: 2 + (k % 2), UnitPrice: 420, BillableStatus: 'NotBillable' },
        },
        {
          Id: '2',
          Description: 'Valve bags',
          Amount: 180,
          DetailType: 'AccountBasedExpenseLineDetail',
          AccountBasedExpenseLineDetail: { AccountRef: acct('61'), BillableStatus: 'NotBillable' },
        },
      ],
    });
    const rent = txn(next(), day(y, m, 1), {
      DocNumber: `RENT-${y}-${pad(m)}`,
      VendorRef: vendor('59'),
      APAccountRef: acct('33'),
      DueDate: day(y, m, 10),
      Line: [
        {
          Id: '1',
          Description: 'Unit 4 rent',
          Amount: 1800,
          DetailType: 'AccountBasedExpenseLineDetail',
          AccountBasedExpenseLineDetail: { AccountRef: acct('24'), BillableStatus: 'NotBillable' },
        },
      ],
    });
    const power = txn(next(), day(y, m, 20), {
      DocNumber: `CP-${y}${pad(m)}`,
      VendorRef: vendor('58'),
      APAccountRef: acct('33'),
      DueDate: addDays(day(y, m, 20), 21),
      Line: [
        {
          Id: '1',
          Description: 'Electricity and gas',
          Amount: 310 + (k % 4) * 25,
          DetailType: 'AccountBasedExpenseLineDetail',
          AccountBasedExpenseLineDetail: { AccountRef: acct('25'), BillableStatus: 'NotBillable' },
        },
      ],
    });
    bills.push(beans, rent, power);
    // the bills are paid, the last month's beans and power not yet; one month's beans by card
    const payBill = (bill: Entity, date: string, amount: number, byCard = false) =>
      billPayments.push(
        txn(next(), date, {
          DocNumber: String(2000 + billPayments.length),
          VendorRef: bill.VendorRef,
          APAccountRef: acct('33'),
          ...(byCard
            ? { PayType: 'CreditCard', CreditCardPayment: { CCAccountRef: acct('41') } }
            : { PayType: 'Check', CheckPayment: { BankAccountRef: acct('35'), PrintStatus: 'NotSet' } }),
          TotalAmt: amount,
          Line: [{ Amount: amount, LinkedTxn: [{ TxnId: bill.Id, TxnType: 'Bill' }] }],
        }),
      );
    payBill(rent, day(y, m, 8), 1800);
    if (!last) {
      payBill(beans, day(y, m, 25), round2((2 + (k % 2)) * 420 + 180), k === 9);
      payBill(power, addDays(day(y, m, 20), 14), 310 + (k % 4) * 25);
    } else {
      // a part payment of the last beans
      payBill(beans, day(y, m, 10), 500);
    }

    // the café pays in full 20 days on, into the bank; the last two months are still open, one part paid
    const cafeTotal = () =>
      round2(sum(cafe.Line.filter((l: Entity) => l.SalesItemLineDetail || l.GroupLineDetail)) - sum(cafe.Line.filter((l: Entity) => l.DiscountLineDetail)));
    if (k < MONTHS.length - 2) {
      const amount = cafeTotal();
      payments.push(
        txn(next(), addDays(cafeDate, 20), {
          CustomerRef: customer('1'),
          ARAccountRef: acct('84'),
          DepositToAccountRef: acct('35'),
          PaymentRefNum: `C${k}`,
          TotalAmt: amount,
          UnappliedAmt: 0,
          Line: [{ Amount: amount, LinkedTxn: [{ TxnId: cafe.Id, TxnType: 'Invoice' }] }],
        }),
      );
    } else if (k === MONTHS.length - 2) {
      payments.push(
        txn(next(), addDays(cafeDate, 20), {
          CustomerRef: customer('1'),
          ARAccountRef: acct('84'),
          DepositToAccountRef: acct('35'),
          PaymentRefNum: `C${k}`,
          TotalAmt: 400,
          UnappliedAmt: 0,
          Line: [{ Amount: 400, LinkedTxn: [{ TxnId: cafe.Id, TxnType: 'Invoice' }] }],
        }),
      );
    }
    // the hotel pays by cheque into Undeposited Funds (no account named), banked at the month's end; the last month open
    if (!last) {
      const hotelTotal = round2(hotelBase - sum(hotelDisc) + hotel.TxnTaxDetail.TotalTax);
      const paid = txn(next(), addDays(hotelDate, 10), {
        CustomerRef: customer('2'),
        ARAccountRef: acct('84'),
        PaymentRefNum: `H${k}`,
        TotalAmt: hotelTotal,
        UnappliedAmt: 0,
        Line: [{ Amount: hotelTotal, LinkedTxn: [{ TxnId: hotel.Id, TxnType: 'Invoice' }] }],
      });
      payments.push(paid);
      const banked: Entity[] = [{ Id: '1', Amount: hotelTotal, LinkedTxn: [{ TxnId: paid.Id, TxnType: 'Payment', TxnLineId: '0' }] }];
      if (retail.DepositToAccountRef?.value !== '35') {
        const retailTotal = round2(bags * 9.5 + retail.TxnTaxDetail.TotalTax);
        banked.push({ Id: '2', Amount: retailTotal, LinkedTxn: [{ TxnId: retail.Id, TxnType: 'SalesReceipt', TxnLineId: '0' }] });
      }
      deposits.push(txn(next(), day(y, m, 28), { DepositToAccountRef: acct('35'), PrivateNote: 'Banked cheques and takings', Line: banked }));
    }

    // office supplies on the card; the card paid off from the bank each quarter
    purchases.push(
      txn(next(), day(y, m, 15), {
        PaymentType: 'CreditCard',
        AccountRef: acct('41'),
        EntityRef: { ...vendor('60'), type: 'Vendor' },
        Credit: false,
        Line: [
          {
            Id: '1',
            Description: 'Labels and printer ink',
            Amount: 85 + (k % 3) * 10,
            DetailType: 'AccountBasedExpenseLineDetail',
            AccountBasedExpenseLineDetail: { AccountRef: acct('20'), BillableStatus: 'NotBillable' },
          },
        ],
      }),
    );
    if (m % 3 === 0) {
      transfers.push(txn(next(), day(y, m, 27), { FromAccountRef: acct('35'), ToAccountRef: acct('36'), Amount: 2500, PrivateNote: 'To savings' }));
      purchases.push(
        txn(next(), day(y, m, 26), {
          DocNumber: String(3000 + k),
          PaymentType: 'Check',
          AccountRef: acct('35'),
          EntityRef: { ...vendor('56'), type: 'Vendor' },
          Credit: false,
          PrivateNote: 'Loan repayment',
          Line: [
            {
              Id: '1',
              Description: 'Equipment loan',
              Amount: 1200,
              DetailType: 'AccountBasedExpenseLineDetail',
              AccountBasedExpenseLineDetail: { AccountRef: acct('44'), BillableStatus: 'NotBillable' },
            },
          ],
        }),
      );
      journals.push(
        txn(next(), day(y, m, 28), {
          DocNumber: `JE-D${y}${pad(m)}`,
          PrivateNote: 'Quarterly depreciation',
          Adjustment: true,
          Line: [
            {
              Id: '0',
              Description: 'Roaster depreciation',
              Amount: 450,
              DetailType: 'JournalEntryLineDetail',
              JournalEntryLineDetail: { PostingType: 'Debit', AccountRef: acct('46') },
            },
            {
              Id: '1',
              Description: 'Roaster depreciation',
              Amount: 450,
              DetailType: 'JournalEntryLineDetail',
              JournalEntryLineDetail: { PostingType: 'Credit', AccountRef: acct('15') },
            },
          ],
        }),
      );
    }
  });
  // the card charges paid off once a year, and a refund on the card
  purchases.push(
    txn(next(), '2025-12-18', {
      PaymentType: 'CreditCard',
      AccountRef: acct('41'),
      EntityRef: { ...vendor('60'), type: 'Vendor' },
      Credit: true,
      Line: [
        {
          Id: '1',
          Description: 'Returned ink',
          Amount: 40,
          DetailType: 'AccountBasedExpenseLineDetail',
          AccountBasedExpenseLineDetail: { AccountRef: acct('20'), BillableStatus: 'NotBillable' },
        },
      ],
    }),
  );
  transfers.push(txn(next(), '2025-12-30', { FromAccountRef: acct('35'), ToAccountRef: acct('41'), Amount: 1000, PrivateNote: 'Amex payment' }));
  // interest on savings, deposited
  deposits.push(
    txn(next(), '2026-01-31', {
      DepositToAccountRef: acct('36'),
      PrivateNote: 'Interest',
      Line: [
        { Id: '1', LineNum: 1, Description: 'Savings interest', Amount: 37.42, DetailType: 'DepositLineDetail', DepositLineDetail: { AccountRef: acct('43') } },
      ],
    }),
  );
  // a vendor credit for a damaged sack
  const vendorCredits = [
    txn(next(), '2026-02-14', {
      DocNumber: 'GBI-CR-7',
      VendorRef: vendor('56'),
      APAccountRef: acct('33'),
      Line: [
        {
          Id: '1',
          Description: 'Damaged sack',
          Amount: 210,
          DetailType: 'AccountBasedExpenseLineDetail',
          AccountBasedExpenseLineDetail: { AccountRef: acct('60'), BillableStatus: 'NotBillable' },
        },
      ],
    }),
  ];
  // a refund over the counter (taxed as the sale was), from the bank
  lineNo = 0;
  const refundReceipts = [
    txn(next(), '2026-03-09', {
      DocNumber: 'RF-1',
      CustomerRef: customer('3'),
      DepositToAccountRef: acct('35'),
      PrivateNote: 'Stale bags returned',
      Line: [sold('12', 6, 9.5, true)],
      TxnTaxDetail: taxOn(57),
    }),
  ];
  // a credit memo for the café (a bag of espresso returned), partly used against its May invoice
  lineNo = 0;
  const creditMemo = txn(next(), '2026-04-22', {
    DocNumber: 'CM-1',
    CustomerRef: customer('1'),
    ARAccountRef: acct('84'),
    Line: [sold('11', 3, 28, false, 'Returned: torn bags')],
  });
  const may = invoices.find((i) => i.TxnDate === '2026-05-05')!;
  payments.push(
    txn(next(), '2026-05-30', {
      CustomerRef: customer('1'),
      ARAccountRef: acct('84'),
      DepositToAccountRef: acct('35'),
      TotalAmt: 0,
      UnappliedAmt: 0,
      Line: [
        { Amount: 50, LinkedTxn: [{ TxnId: may.Id, TxnType: 'Invoice' }] },
        { Amount: 50, LinkedTxn: [{ TxnId: creditMemo.Id, TxnType: 'CreditMemo' }] },
      ],
    }),
  );

  const company: FakeCompany = {
    realmId: ROASTER_REALM_ID,
    name: 'Harbour Coffee Roasters',
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
      JournalEntry: journals,
      RefundReceipt: refundReceipts,
      CreditMemo: [creditMemo],
      Item: items,
      TaxRate: [rate],
      TaxAgency: [agency],
      Attachable: [],
    },
    deleted: [],
    files: {},
  };
  settle(company);
  return company;
}
