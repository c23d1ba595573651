/**
 * QuickBooks' bank and card accounts at a date: CurrentBalance counts every transaction whatever
 * its date (as the chart of accounts shows it, and as test/helpers/fake-quickbooks-book.ts settles
 * it), so the account's lines in the mirror's ledger dated after the date asked come off it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bankAccountsAt, type QbBankAccount } from '../../src/accounting/quickbooks/bank-accounts.js';
import type { LedgerLine, LineQuery } from '../../src/accounting/types.js';

const ACCOUNTS: QbBankAccount[] = [
  { Id: '35', Name: 'Checking', AcctNum: '1000', AccountType: 'Bank', Active: true, CurrencyRef: { value: 'USD' }, CurrentBalance: 1_000 },
  { Id: '41', Name: 'Visa Card', AcctNum: '2100', AccountType: 'Credit Card', Active: true, CurrencyRef: { value: 'USD' }, CurrentBalance: 30 },
  { Id: '50', Name: 'Euro Account', AccountType: 'Bank', Active: true, CurrencyRef: { value: 'EUR' }, CurrentBalance: 200 },
  { Id: '60', Name: 'Old Bank', AccountType: 'Bank', Active: false, CurrentBalance: 5 },
];

const line = (accountId: string, date: string, amount: number, currency = 'USD', amountInCurrency = amount): LedgerLine =>
  ({
    transactionId: `t-${accountId}-${date}`,
    lineNo: 1,
    date,
    type: 'journal',
    number: null,
    contactId: null,
    contactName: null,
    description: '',
    accountId,
    amount,
    currency,
    amountInCurrency,
    link: null,
  }) as LedgerLine;

const LINES = [
  line('35', '2026-06-01', 100_000),
  line('35', '2026-07-10', -25_000), // a cheque dated next month
  line('41', '2026-07-02', -1_000), // 10.00 charged on the card next month
  line('50', '2026-07-05', 5_400, 'EUR', 5_000), // 50.00 EUR received next month
];

it("QuickBooks: an account's balance at a date is its CurrentBalance less its lines dated after it, in its own currency", async () => {
  const asked: LineQuery[] = [];
  const lines = async (query: LineQuery) => {
    asked.push(query);
    return LINES.filter((l) => query.accountIds.includes(l.accountId) && l.date >= query.from && l.date <= query.to);
  };
  const at = async (asAt: string) => (await bankAccountsAt(ACCOUNTS, 'USD', asAt, lines)).map((a) => [a.accountId, a.currency, a.balance]);
  assert.deepEqual(await at('2026-06-30'), [
    // 1,000.00 less the 250.00 cheque of 10 July
    ['35', 'USD', 125_000],
    // 50.00 EUR less the 50.00 EUR of 5 July (not its 54.00 USD)
    ['50', 'EUR', 15_000],
    // 30.00 owed less the 10.00 charged on 2 July: 20.00 owed, negative
    ['41', 'USD', -2_000],
  ]);
  assert.deepEqual(
    asked.map((q) => [q.accountIds, q.from]),
    [[['35', '41', '50'], '2026-07-01']],
  );
  // at the last date nothing is later: QuickBooks' own figures
  assert.deepEqual(await at('2026-07-10'), [
    ['35', 'USD', 100_000],
    ['50', 'EUR', 20_000],
    ['41', 'USD', -3_000],
  ]);
});
