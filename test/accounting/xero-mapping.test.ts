/**
 * The Xero connector's mappings of documents and bank accounts on their own (src/accounting/xero/
 * documents.ts, bank-accounts.ts), for what the fake's book does not hold: a bill in another
 * currency with tax-inclusive lines, documents Xero has not posted, sales documents, a foreign-
 * currency or archived bank account, payments in and out and ones not reconciled.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { xeroBankAccounts, xeroReconciledLines, type XeroPayment } from '../../src/accounting/xero/bank-accounts.js';
import { xeroDocuments, type XeroBill, type XeroCreditNote } from '../../src/accounting/xero/documents.js';

const accounts = [
  { AccountID: 'acc-429', Code: '429', Name: 'General Expenses' },
  { AccountID: 'acc-820', Code: '820', Name: 'VAT', SystemAccount: 'GST' },
];
const at = (iso: string) => `/Date(${Date.parse(`${iso}T00:00:00Z`)}+0000)/`;

it('maps a posted bill in its own currency with tax-inclusive lines: net coded lines, the tax on the GST account', () => {
  const bill: XeroBill = {
    InvoiceID: 'inv-1',
    InvoiceNumber: 'EU-77',
    Type: 'ACCPAY',
    Status: 'PAID',
    Contact: { Name: 'Kaffee GmbH' },
    Date: at('2026-03-02'),
    DueDate: at('2026-04-01'),
    LineAmountTypes: 'Inclusive',
    LineItems: [{ LineItemID: 'li-1', Description: 'Filters', Quantity: 2, UnitAmount: 60, AccountCode: '429', TaxAmount: 20, LineAmount: 120 }],
    SubTotal: 100,
    TotalTax: 20,
    Total: 120,
    CurrencyCode: 'EUR',
    HasAttachments: false,
  };
  const [doc] = xeroDocuments(new Set(['inv-1']), [bill], [], accounts, 'GBP');
  assert.deepEqual(
    [doc!.number, doc!.type, doc!.supplier, doc!.date, doc!.dueDate, doc!.currency, doc!.subtotal, doc!.tax, doc!.total, doc!.hasFile],
    ['EU-77', 'bill', 'Kaffee GmbH', '2026-03-02', '2026-04-01', 'EUR', 10_000, 2_000, 12_000, false],
  );
  assert.deepEqual(
    doc!.codedLines.map((l) => [l.accountId, l.account, l.amount, l.isTax]),
    [
      ['acc-429', 'General Expenses', 10_000, false],
      ['acc-820', 'VAT', 2_000, true],
    ],
  );
  assert.deepEqual(
    doc!.invoiceLines.map((l) => [l.quantity, l.unitPrice, l.tax, l.amount]),
    [[2, 6_000, 2_000, 10_000]],
  );
});

it('leaves out documents Xero has not posted, sales documents and ids not asked for; keeps a supplier credit note', () => {
  const base = { Contact: { Name: 'S' }, Date: at('2026-01-05'), LineItems: [], SubTotal: 5, TotalTax: 0, Total: 5 };
  const bills: XeroBill[] = [
    { ...base, InvoiceID: 'draft', Type: 'ACCPAY', Status: 'DRAFT' },
    { ...base, InvoiceID: 'voided', Type: 'ACCPAY', Status: 'VOIDED' },
    { ...base, InvoiceID: 'sale', Type: 'ACCREC', Status: 'AUTHORISED' },
    { ...base, InvoiceID: 'not-asked', Type: 'ACCPAY', Status: 'AUTHORISED' },
  ];
  const credits: XeroCreditNote[] = [
    { ...base, CreditNoteID: 'cn-sale', Type: 'ACCRECCREDIT', Status: 'AUTHORISED' },
    { ...base, CreditNoteID: 'cn-1', CreditNoteNumber: 'CN-1', Type: 'ACCPAYCREDIT', Status: 'AUTHORISED' },
  ];
  const found = xeroDocuments(new Set(['draft', 'voided', 'sale', 'cn-sale', 'cn-1']), bills, credits, accounts, 'GBP');
  assert.deepEqual(
    found.map((d) => [d.documentId, d.type, d.number, d.dueDate]),
    [['cn-1', 'supplier_credit', 'CN-1', null]],
  );
});

it('lists active home-currency bank accounts with their journal balances and what Xero reconciled', () => {
  const bankAccounts = [
    { AccountID: 'bank', Code: '090', Name: 'Current', Type: 'BANK', Status: 'ACTIVE', BankAccountType: 'BANK', CurrencyCode: 'GBP' },
    { AccountID: 'card', Code: '091', Name: 'Card', Type: 'BANK', Status: 'ACTIVE', BankAccountType: 'CREDITCARD', CurrencyCode: 'GBP' },
    { AccountID: 'usd', Code: '092', Name: 'Dollars', Type: 'BANK', Status: 'ACTIVE', BankAccountType: 'BANK', CurrencyCode: 'USD' },
    { AccountID: 'old', Code: '093', Name: 'Old', Type: 'BANK', Status: 'ARCHIVED', BankAccountType: 'BANK', CurrencyCode: 'GBP' },
    { AccountID: 'acc-429', Code: '429', Name: 'General Expenses', Type: 'OVERHEADS', Status: 'ACTIVE' },
  ];
  // the journals' balances (debit positive, home currency)
  const balances = new Map([
    ['bank', 97_500],
    ['card', -4_000],
    ['usd', 50_000],
  ]);
  const transactions = [
    { BankTransactionID: 't1', Type: 'SPEND', Status: 'AUTHORISED', BankAccount: { AccountID: 'bank' }, Date: at('2026-02-01'), Total: 25, IsReconciled: true },
    {
      BankTransactionID: 't2',
      Type: 'RECEIVE-TRANSFER',
      Status: 'AUTHORISED',
      BankAccount: { AccountID: 'bank' },
      Date: at('2026-02-03'),
      Total: 10,
      IsReconciled: true,
    },
    { BankTransactionID: 't3', Type: 'SPEND', Status: 'VOIDED', BankAccount: { AccountID: 'bank' }, Date: at('2026-02-04'), Total: 99, IsReconciled: true },
    {
      BankTransactionID: 't4',
      Type: 'SPEND',
      Status: 'AUTHORISED',
      BankAccount: { AccountID: 'card' },
      Date: at('2026-02-05'),
      Total: 40,
      IsReconciled: false,
    },
  ];
  const payments: XeroPayment[] = [
    {
      PaymentID: 'p1',
      PaymentType: 'ACCRECPAYMENT',
      Status: 'AUTHORISED',
      Account: { AccountID: 'bank' },
      Date: at('2026-02-10'),
      Amount: 7,
      BankAmount: 7,
      IsReconciled: true,
    },
    {
      PaymentID: 'p2',
      PaymentType: 'ACCPAYPAYMENT',
      Status: 'AUTHORISED',
      Account: { AccountID: 'bank' },
      Date: at('2026-03-01'),
      Amount: 3,
      IsReconciled: true,
    },
    { PaymentID: 'p3', PaymentType: 'ACCPAYPAYMENT', Status: 'DELETED', Account: { AccountID: 'bank' }, Date: at('2026-03-02'), Amount: 1, IsReconciled: true },
    {
      PaymentID: 'p4',
      PaymentType: 'ACCPAYPAYMENT',
      Status: 'AUTHORISED',
      Account: { AccountID: 'bank' },
      Date: at('2026-03-03'),
      Amount: 1,
      IsReconciled: false,
    },
  ];
  assert.deepEqual(
    xeroBankAccounts(bankAccounts, balances, transactions, payments, 'GBP').map((a) => [
      a.accountId,
      a.number,
      a.type,
      a.currency,
      a.balance,
      a.reconciledBalance,
    ]),
    [
      ['card', '091', 'credit_card', 'GBP', -4_000, 0],
      ['bank', '090', 'bank', 'GBP', 97_500, -2_500 + 1_000 + 700 - 300],
    ],
    'the foreign-currency, archived and non-bank accounts are not listed',
  );
  assert.deepEqual(xeroReconciledLines(transactions, payments, 'GBP', 'bank', '2026-02-02', '2026-02-28'), [
    { date: '2026-02-10', amount: 700 },
    { date: '2026-02-03', amount: 1_000 },
  ]);
});
