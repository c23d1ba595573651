/**
 * The GnuCash connector over a book made by GnuCash itself (scripts/gnucash/make-book.py), checked
 * against GnuCash's own reports of that book (scripts/gnucash/make-reports.sh). SQLite only: the
 * book is SQLite; the service store is an in-memory SQLite store.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { validateGnuCashBook } from '../../src/accounting/gnucash/config.js';
import { fraction, toUnits } from '../../src/accounting/gnucash/fractions.js';
import { bookDate, postDateCondition } from '../../src/accounting/gnucash/post-dates.js';
import { AccountingSystemError } from '../../src/accounting/types.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { ResultCache } from '../../src/operations/result-cache.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks } from '../helpers/books.js';
import { BASE_URL, call, CLIENT, rejection } from '../helpers/call.js';
import { GNUCASH_FIXTURES, readGnuCashReport, type GnuCashReport } from '../helpers/gnucash-reports.js';
import { openTestStore } from '../helpers/store.js';

const TODAY = '2026-12-15';
const BOOK = join(GNUCASH_FIXTURES, 'book.gnucash');
const FOREIGN = join(GNUCASH_FIXTURES, 'foreign.gnucash');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

let store: Store;
let scratch: string;
const orgs = {} as { book: string; foreign: string; builtin: string; [broken: string]: string };

async function gnucashOrganisation(name: string, config: unknown, homeCurrency = 'GBP') {
  const row = await provisionOrganisation(store.db, { name, homeCurrency, timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'gnucash' });
  // stored as given, even when it is not valid settings (that is what the error cases are about)
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

/** Runs an operation the way every transport does. */
async function run<T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}): Promise<T> {
  return call<T>(store, op, organisationId, input, { today: TODAY });
}

/** As the server calls: through an answer cache, which must notice every save of the book. */
const answers = new ResultCache(1024 * 1024);
async function runCached<T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}): Promise<T> {
  return (await runOrganisationOperation({ db: store.db, baseUrl: BASE_URL, today: TODAY, resultCache: answers }, op, CLIENT, organisationId, { input })) as T;
}

// --- comparing a Ledgerline report with GnuCash's, account by account ---

type Report = { periods: { from: string; to: string }[]; sections: any[]; summary: { label: string; amounts: number[] }[] };
const pence = (major: number) => Math.round(major * 100);
const summary = (r: Report, label: string, k: number) => pence(r.summary.find((l) => l.label === label)!.amounts[k]!);
const sectionTotal = (r: Report, title: string, k: number) => pence(r.sections.find((s) => s.title === title)?.total[k] ?? 0);

/** Ledgerline's account lines of column k, by account guid (resolved through the chart's full names). */
function accountAmounts(r: Report, k: number, guidOf: Map<string, string>, sections?: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of r.sections) {
    if (sections && !sections.includes(s.title)) continue;
    for (const g of s.groups)
      for (const a of g.accounts) {
        const guid = guidOf.get(a.name);
        out.set(guid ?? a.name, pence(a.amounts[k]));
      }
  }
  return out;
}

/** Every account either report shows with a non-zero amount has the same amount in both. */
function assertSameAccounts(ours: Map<string, number>, theirs: Map<string, number>, where: string, skip: string[] = []) {
  const ids = new Set([...ours.keys(), ...theirs.keys()].filter((id) => !skip.includes(id)));
  let compared = 0;
  for (const id of ids) {
    const a = ours.get(id) ?? 0;
    const b = theirs.get(id) ?? 0;
    assert.equal(a, b, `${where}: account ${nameOf.get(id) ?? id}: Ledgerline ${a}p, GnuCash ${b}p`);
    if (b !== 0) compared++;
  }
  assert.ok(compared > 0, `${where}: nothing compared`);
}

function assertProfitAndLossEqual(r: Report, k: number, gnucash: GnuCashReport, where: string) {
  assertSameAccounts(accountAmounts(r, k, guidOf), gnucash.accounts, where);
  assert.equal(sectionTotal(r, 'Income', k) + sectionTotal(r, 'Other Income', k), gnucash.lines.get('Total Revenue'), `${where}: revenue`);
  assert.equal(
    sectionTotal(r, 'Cost of Sales', k) + sectionTotal(r, 'Operating Expenses', k) + sectionTotal(r, 'Other Expenses', k),
    gnucash.lines.get('Total Expenses'),
    `${where}: expenses`,
  );
  assert.equal(summary(r, 'Net Profit', k), gnucash.lines.get('Net income for Period'), `${where}: net profit`);
}

/**
 * Assets and liabilities account by account. Equity too, except where the two books of rules
 * differ in presentation only: GnuCash shows the retained-earnings account with its Close Book
 * entries plus a computed "Retained Earnings" line for profit not yet closed; Ledgerline leaves the
 * closing entries out and shows profit of earlier financial years with the retained-earnings
 * account and this year's as Current Year Earnings. Their sums must be equal.
 */
function assertBalanceSheetEqual(r: Report, k: number, gnucash: GnuCashReport, where: string) {
  const ours = accountAmounts(r, k, guidOf);
  assertSameAccounts(ours, gnucash.accounts, where, [retainedGuid, 'Current Year Earnings', 'Retained Earnings']);
  const ourEarnings = (ours.get(retainedGuid) ?? 0) + (ours.get('Current Year Earnings') ?? 0) + (ours.get('Retained Earnings') ?? 0);
  const theirEarnings = (gnucash.accounts.get(retainedGuid) ?? 0) + (gnucash.lines.get('Retained Earnings') ?? 0);
  assert.equal(ourEarnings, theirEarnings, `${where}: retained and current earnings`);
  assert.equal(summary(r, 'Total Assets', k), gnucash.lines.get('Total Assets'), `${where}: total assets`);
  assert.equal(summary(r, 'Total Liabilities', k), gnucash.lines.get('Total Liabilities'), `${where}: total liabilities`);
  assert.equal(summary(r, 'Total Equity', k), gnucash.lines.get('Total Equity'), `${where}: total equity`);
  assert.equal(summary(r, 'Total Liabilities and Equity', k), gnucash.lines.get('Total Liabilities & Equity'), `${where}: total liabilities and equity`);
  assert.equal(summary(r, 'Total Assets', k), summary(r, 'Total Liabilities and Equity', k), `${where}: balances`);
}

let guidOf = new Map<string, string>();
let nameOf = new Map<string, string>();
let retainedGuid = '';
let bookHash = '';

before(async () => {
  bookHash = sha256(BOOK);
  scratch = mkdtempSync(join(tmpdir(), 'ledgerline-gnucash-'));
  store = await openTestStore('sqlite');
  orgs.book = await gnucashOrganisation('Northwind Trading Ltd', { bookPath: BOOK });
  orgs.foreign = await gnucashOrganisation('Foreign Ways Ltd', { bookPath: FOREIGN });
  orgs.builtin = (await buildBooks(store)).org.id;
  const chart = await run(accountsList, orgs.book, { includeInactive: true });
  guidOf = new Map(chart.accounts.map((a: any) => [a.fullName, a.id]));
  nameOf = new Map(chart.accounts.map((a: any) => [a.id, a.fullName]));
  retainedGuid = guidOf.get('Equity:Retained Earnings')!;
});

after(async () => {
  await store?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('GnuCash: chart of accounts', () => {
  it('lists the tree with full names, codes, types, hidden accounts as inactive', async () => {
    const all = await run(accountsList, orgs.book, { includeInactive: true });
    const active = await run(accountsList, orgs.book);
    assert.equal(all.count, 42);
    assert.deepEqual(
      all.accounts.filter((a: any) => !a.active).map((a: any) => a.fullName),
      ['Orphaned Old Account', 'Expenses:Marketing'],
    );
    assert.equal(active.count, 40);
    const byName = (n: string) => all.accounts.find((a: any) => a.fullName === n);
    assert.deepEqual(
      [
        'Assets:Current Assets:Business Current Account',
        'Assets:Current Assets:Petty Cash',
        'Assets:Fixed Assets:Accumulated Depreciation',
        'Assets:Current Assets:Prepayments',
        'Liabilities:Business Credit Card',
        'Liabilities:Long Term Loan',
        'Liabilities:VAT',
        'Equity:Retained Earnings',
        'Income:Other Income:Bank Interest',
        'Expenses:Cost of Sales',
        'Expenses:Office:Software',
      ].map((n) => {
        const a = byName(n);
        return [a.number, a.type, a.classification];
      }),
      [
        ['1110', 'Bank', 'Asset'],
        ['1130', 'Bank', 'Asset'],
        ['1520', 'Fixed Asset', 'Asset'],
        ['1300', 'Other Current Asset', 'Asset'],
        ['2200', 'Credit Card', 'Liability'],
        ['2900', 'Long Term Liability', 'Liability'],
        ['2300', 'Other Current Liability', 'Liability'],
        ['3200', 'Equity', 'Equity'],
        ['4910', 'Other Income', 'Revenue'],
        ['5100', 'Cost of Goods Sold', 'Expense'],
        ['6010', 'Expense', 'Expense'],
      ],
    );
    assert.equal(byName('Expenses:Office:Software').parentId, byName('Expenses:Office').id);
    assert.equal(byName('Assets').parentId, null);
    assert.equal(byName('Orphaned Old Account').number, null);
    assert.ok(!all.accounts.some((a: any) => /Root/.test(a.name)), 'neither root account is listed');
    const search = await run(accountsList, orgs.book, { search: '6020' });
    assert.deepEqual(
      search.accounts.map((a: any) => a.fullName),
      ['Expenses:Office:Stationery'],
    );
  });
});

describe("GnuCash: profit and loss equals GnuCash's own, account by account", () => {
  const cases: { input: Record<string, unknown>; gnucash: string[] }[] = [
    { input: { from: '2026-11-01', to: '2026-11-30', compareBy: 'month', comparePeriods: 2 }, gnucash: ['pl-2026-11', 'pl-2026-10', 'pl-2026-09'] },
    { input: { from: '2026-03-01', to: '2026-03-31', compareBy: 'month', comparePeriods: 2 }, gnucash: ['pl-2026-03', 'pl-2026-02', 'pl-2026-01'] },
    { input: { from: '2026-01-01', to: '2026-01-31', comparePeriods: 1 }, gnucash: ['pl-2026-01', 'pl-2025-12'] },
    { input: { from: '2025-03-01', to: '2025-03-31' }, gnucash: ['pl-2025-03'] },
    { input: { from: '2026-04-01', to: '2026-06-30', compareBy: 'year', comparePeriods: 1 }, gnucash: ['pl-2026-q2', 'pl-2025-q2'] },
    { input: { from: '2026-01-01', to: '2026-12-31', compareBy: 'year', comparePeriods: 1 }, gnucash: ['pl-2026', 'pl-2025'] },
    { input: { from: '2026-05-10', to: '2026-06-20' }, gnucash: ['pl-2026-05-10-to-06-20'] },
  ];
  for (const c of cases) {
    it(`${c.input.from}..${c.input.to}${c.input.comparePeriods ? ` compared by ${c.input.compareBy ?? 'month'}` : ''}`, async () => {
      const r = await run<Report>(reportsProfitAndLoss, orgs.book, c.input);
      assert.equal(r.periods.length, c.gnucash.length);
      c.gnucash.forEach((name, k) => assertProfitAndLossEqual(r, k, readGnuCashReport(name), `${name} (period ${k})`));
    });
  }

  it('has the figures we built the book with', async () => {
    const r = await run<Report>(reportsProfitAndLoss, orgs.book, { from: '2025-01-01', to: '2025-12-31' });
    assert.equal(summary(r, 'Net Profit', 0), 2_914_407, 'the year the book was closed: the closing entries are left out');
    const office = r.sections.find((s) => s.title === 'Operating Expenses').groups.find((g: any) => g.title === 'Expenses');
    assert.ok(
      office.accounts.some((a: any) => a.name === 'Expenses:Marketing'),
      'a hidden account still reports',
    );
    assert.deepEqual(
      r.sections.find((s) => s.title === 'Other Income').groups.map((g: any) => [g.title, g.total]),
      [['Income:Other Income', [65.37]]],
    );
  });
});

describe("GnuCash: balance sheet equals GnuCash's own, account by account", () => {
  const cases: { input: Record<string, unknown>; gnucash: string[] }[] = [
    { input: { asAt: '2026-12-31', compareBy: 'month', comparePeriods: 1 }, gnucash: ['bs-2026-12-31', 'bs-2026-11-30'] },
    { input: { asAt: '2026-06-30', compareBy: 'year', comparePeriods: 1 }, gnucash: ['bs-2026-06-30', 'bs-2025-06-30'] },
    { input: { asAt: '2026-03-31' }, gnucash: ['bs-2026-03-31'] },
    { input: { asAt: '2026-02-14' }, gnucash: ['bs-2026-02-14'] },
    { input: { asAt: '2025-12-31' }, gnucash: ['bs-2025-12-31'] },
  ];
  for (const c of cases) {
    it(`at ${c.gnucash.map((n) => n.slice(3)).join(', ')}`, async () => {
      const r = await run<Report>(reportsBalanceSheet, orgs.book, c.input);
      assert.equal(r.periods.length, c.gnucash.length);
      c.gnucash.forEach((name, k) => assertBalanceSheetEqual(r, k, readGnuCashReport(name), `${name} (date ${k})`));
    });
  }

  it("after the closed year, retained earnings and this year's earnings are GnuCash's two lines", async () => {
    const r = await run<Report>(reportsBalanceSheet, orgs.book, { asAt: '2026-11-30' });
    const gnucash = readGnuCashReport('bs-2026-11-30');
    const ours = accountAmounts(r, 0, guidOf, ['Equity']);
    assert.equal(ours.get(retainedGuid), gnucash.accounts.get(retainedGuid));
    assert.equal(ours.get(retainedGuid), 2_914_407);
    assert.equal(ours.get('Current Year Earnings'), gnucash.lines.get('Retained Earnings'));
  });
});

describe('GnuCash: ledger account transactions', () => {
  const ledger = (input: Record<string, unknown>) => run(ledgerAccountTransactions, orgs.book, input);
  const rows = (r: any) => r.transactions.map((t: any) => [t.date, t.type, t.number, t.supplier, t.description, t.account, t.amount]);

  it("on every income account the movement is the account's own, equal to GnuCash's P&L row, and a list without its invoices says so", async () => {
    const chart = await run(accountsList, orgs.book, {});
    const gnucash = readGnuCashReport('pl-2026');
    const parents = new Set(chart.accounts.map((a: any) => a.parentId));
    const income = chart.accounts.filter((a: any) => a.classification === 'Revenue' && !parents.has(a.id) && gnucash.accounts.has(a.id));
    assert.ok(income.length >= 2, `${income.length} income accounts`);
    for (const account of income) {
      const r = await ledger({ account: account.id, from: '2026-01-01', to: '2026-12-31' });
      assert.equal(Math.round(r.movement * 100), gnucash.accounts.get(account.id), `${account.fullName}: movement equals GnuCash`);
      if (r.movement !== r.total)
        assert.match(r.notes[0], new RegExp(`^Not the whole account: .*${account.fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} moved`));
    }
  });

  it('vendor bills and a credit note, typed, numbered and described from the documents', async () => {
    const r = await ledger({ account: '6020', from: '2025-01-01', to: '2025-12-31' });
    assert.equal(r.account.fullName, 'Expenses:Office:Stationery');
    assert.deepEqual(rows(r), [
      ['2025-06-16', 'supplier_credit', 'PI-CN-12', 'Paper & Ink Supplies', 'Returned toner (faulty)', 'Expenses:Office:Stationery', -45],
      ['2025-06-02', 'bill', 'PI-580', 'Paper & Ink Supplies', 'Toner cartridges', 'Expenses:Office:Stationery', 80],
      ['2025-04-10', 'bill', 'PI-551', 'Paper & Ink Supplies', 'Printer paper and toner', 'Expenses:Office:Stationery', 125],
    ]);
    assert.equal(r.total, 160);
    assert.equal(r.count, 3);
    assert.deepEqual(r.transactions[1].currency, 'GBP');
    // the bill is a document of the book: documents.get shows it (test/accounting/gnucash-payables.test.ts)
    assert.match(r.transactions[1].link, /^https:\/\/ledgerline\.test\/v1\/operations\/documents\.get\?ids=gnucash%3A[0-9a-f]{32}$/);
    assert.deepEqual(
      [r.transactions[1].document.number, r.transactions[1].document.type, r.transactions[1].document.supplier, r.transactions[1].document.total],
      ['PI-580', 'bill', 'Paper & Ink Supplies', 96],
    );
    assert.match(r.transactions[1].accountingSystemId, /^[0-9a-f]{32}$/);
  });

  it('an account with its sub-accounts: cheques, petty cash, bills; a voided transaction is not listed', async () => {
    const r = await ledger({ account: 'Expenses:Office', from: '2025-01-01', to: '2025-12-31', limit: 3 });
    assert.deepEqual(r.account.subAccounts, ['Expenses:Office:Software', 'Expenses:Office:Stationery']);
    assert.equal(r.total, 1732.4);
    assert.equal(r.count, 7);
    assert.equal(r.truncated, true);
    const all = await ledger({ account: 'Expenses:Office', from: '2025-01-01', to: '2025-12-31' });
    const office = all.transactions.filter((t: any) => t.account === 'Expenses:Office');
    assert.deepEqual(
      office.map((t: any) => [t.date, t.type, t.number, t.description, t.amount]),
      [
        ['2025-05-14', 'expense', null, 'Milk and coffee', 12.4],
        ['2025-04-10', 'bill', 'PI-551', 'Desk lamps', 40],
        ['2025-04-03', 'cheque', '100234', 'Office chairs - Smith Furniture', 320],
      ],
    );
    const feb = await ledger({ account: 'Expenses:Office', from: '2026-02-01', to: '2026-02-28', reconcile: true });
    assert.deepEqual(rows(feb), [
      ['2026-02-03', 'bill', 'NW-1187', 'Northwind Software Ltd', 'Accounting suite, annual licence', 'Expenses:Office:Software', 1320],
    ]);
    assert.equal(feb.reconciliation.accountingSystemTotal, 1320, 'the voided payment counts nowhere');
  });

  it('pages the lines and the groups as the builtin ledger does: the same lines as unpaged, the totals of all on every page', async () => {
    const year = { account: 'Expenses:Office', from: '2025-01-01', to: '2025-12-31' };
    const whole = await ledger(year);
    assert.equal(whole.count, 7);
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(await ledger({ ...year, limit: 3, page }));
    assert.deepEqual(
      pages.map((p) => [p.page, p.transactions.length, p.hasMore, p.truncated, p.total, p.count]),
      [
        [1, 3, true, true, 1732.4, 7],
        [2, 3, true, true, 1732.4, 7],
        [3, 1, false, true, 1732.4, 7],
        [4, 0, false, true, 1732.4, 7],
      ],
    );
    assert.deepEqual(
      pages.flatMap((p) => p.transactions),
      whole.transactions,
    );
    const months = await ledger({ account: 'Subscriptions', from: '2026-01-01', to: '2026-12-31', groupBy: 'month' });
    assert.ok(months.groups.length > 5, `${months.groups.length} months`);
    const groupPages = [];
    for (let page = 1; page === 1 || groupPages.at(-1).hasMore; page++)
      groupPages.push(await ledger({ account: 'Subscriptions', from: '2026-01-01', to: '2026-12-31', groupBy: 'month', limit: 5, page }));
    assert.equal(groupPages.length, Math.ceil(months.groups.length / 5));
    assert.deepEqual(
      groupPages.flatMap((p) => p.groups),
      months.groups,
    );
    for (const p of groupPages) assert.deepEqual([p.total, p.count], [601.92, 14]);
  });

  it('card charges, a refund, a hidden account; groups by month and by supplier', async () => {
    const subs = await ledger({ account: 'Subscriptions', from: '2026-01-01', to: '2026-12-31', groupBy: 'month' });
    assert.equal(subs.total, 601.92);
    assert.equal(subs.count, 14);
    assert.deepEqual(
      subs.groups.filter((g: any) => g.key === '2026-03' || g.key === '2026-05').map((g: any) => [g.name, g.total, g.count]),
      [
        ['March 2026', 36, 2],
        ['May 2026', 85.92, 2],
      ],
    );
    const march = await ledger({ account: 'Subscriptions', from: '2026-03-01', to: '2026-03-31' });
    assert.deepEqual(
      march.transactions.map((t: any) => [t.type, t.amount]),
      [
        ['card_refund', -12],
        ['card_charge', 48],
      ],
    );
    const marketing = await ledger({ account: 'Marketing', from: '2025-01-01', to: '2025-12-31' });
    assert.deepEqual(rows(marketing), [
      ['2025-04-02', 'card_refund', null, null, 'Flyer printing refund (misprint)', 'Expenses:Marketing', -50],
      ['2025-03-21', 'card_charge', null, null, 'Flyer printing', 'Expenses:Marketing', 250],
    ]);
    const travel = await ledger({ account: 'Travel', from: '2025-01-01', to: '2025-12-31', groupBy: 'supplier', detailForTop: 1 });
    assert.deepEqual(
      travel.groups.map((g: any) => [g.name, g.total, g.count, g.share]),
      [
        ['(no supplier)', 375.5, 2, 0.8161],
        ['Jane Smith', 84.6, 1, 0.1839],
      ],
    );
    assert.deepEqual(
      travel.groups[0].transactions.map((t: any) => [t.type, t.description, t.amount]),
      [
        ['card_charge', 'Hotel Manchester', 229],
        ['card_charge', 'Train tickets - London', 146.5],
      ],
    );
    assert.equal(travel.total, 460.1);
  });

  it("an employee's expense voucher is a bill; a payee named in the description is the supplier", async () => {
    const jane = await ledger({ account: 'Travel', from: '2025-01-01', to: '2025-12-31', supplier: 'Jane Smith' });
    assert.deepEqual(rows(jane), [['2025-09-20', 'bill', 'EV-1', 'Jane Smith', 'Client visit, Leeds: train and taxi', 'Expenses:Travel', 84.6]]);
    const paper = await ledger({ account: 'Stationery', from: '2026-01-01', to: '2026-12-31', supplier: 'paper & ink supplies' });
    assert.deepEqual(rows(paper), [
      ['2026-10-08', 'expense', null, 'Paper & Ink Supplies', 'Paper & Ink Supplies', 'Expenses:Office:Stationery', 18],
      ['2026-03-16', 'bill', 'PI-702', 'Paper & Ink Supplies', 'Envelopes and labels', 'Expenses:Office:Stationery', 62.5],
    ]);
  });

  it('deposits into the bank, and split memos as descriptions', async () => {
    const interest = await ledger({ account: '4910', from: '2026-01-01', to: '2026-12-31' });
    assert.deepEqual(
      interest.transactions.map((t: any) => [t.date, t.type, t.amount]),
      [
        ['2026-12-31', 'deposit', 18.7],
        ['2026-09-30', 'deposit', 18.33],
        ['2026-06-30', 'deposit', 17.9],
        ['2026-03-31', 'deposit', 17.44],
      ],
    );
    assert.equal(interest.total, 72.37, 'income is positive: deposits increase it');
    const loan = await ledger({ account: 'Loan Interest', period: 'ytd' });
    assert.deepEqual(rows(loan), [['2026-01-15', 'expense', 'DD', null, 'Interest', 'Expenses:Loan Interest', 187.5]]);
  });

  it("reconcile reports GnuCash's own total and the journal entries making up the difference", async () => {
    const r = await ledger({ account: 'Expenses:Office:Stationery', from: '2026-01-01', to: '2026-12-31', reconcile: true });
    const own = readGnuCashReport('pl-2026').accounts.get(guidOf.get('Expenses:Office:Stationery')!)! / 100;
    assert.equal(own, 39);
    assert.deepEqual(r.reconciliation, {
      accountingSystemTotal: own,
      listedTotal: 89,
      difference: -50,
      explainedTotal: -50,
      unexplained: 0,
      entries: [
        {
          date: '2026-09-30',
          type: 'journal',
          number: 'J-14',
          description: 'Reclassify software bought as stationery',
          account: 'Expenses:Office:Stationery',
          amount: -50,
          accountingSystemId: r.reconciliation.entries[0].accountingSystemId,
        },
      ],
      entriesCount: 1,
    });
    const staff = await ledger({ account: 'Expenses:Staff Costs', from: '2026-11-01', to: '2026-11-30', reconcile: true });
    const nov = readGnuCashReport('pl-2026-11');
    const gnucashStaff =
      (nov.accounts.get(guidOf.get('Expenses:Staff Costs:Salaries')!)! + nov.accounts.get(guidOf.get('Expenses:Staff Costs:Employer NI')!)!) / 100;
    assert.equal(staff.count, 0);
    assert.equal(staff.reconciliation.accountingSystemTotal, gnucashStaff);
    assert.equal(gnucashStaff, 3538);
    assert.deepEqual(
      staff.reconciliation.entries.map((e: any) => [e.type, e.number, e.account, e.amount]),
      [
        ['journal', 'PR-202611', 'Expenses:Staff Costs:Salaries', 3200],
        ['journal', 'PR-202611', 'Expenses:Staff Costs:Employer NI', 338],
      ],
    );
    assert.equal(staff.reconciliation.unexplained, 0);
  });

  it('on a bank account, payments and transfers are what reconcile explains', async () => {
    const r = await ledger({ account: 'Business Current Account', from: '2026-03-01', to: '2026-03-31', reconcile: true });
    assert.deepEqual([...new Set(r.transactions.map((t: any) => t.type))].sort(), ['expense']);
    assert.deepEqual([...new Set(r.reconciliation.entries.map((e: any) => e.type))].sort(), ['payment', 'transfer']);
    assert.equal(r.reconciliation.unexplained, 0);
    const bs = await run<Report>(reportsBalanceSheet, orgs.book, { asAt: '2026-03-31', compareBy: 'month', comparePeriods: 1 });
    const balance = accountAmounts(bs, 0, guidOf).get(guidOf.get('Assets:Current Assets:Business Current Account')!)!;
    const before = accountAmounts(bs, 1, guidOf).get(guidOf.get('Assets:Current Assets:Business Current Account')!)!;
    assert.equal(pence(r.reconciliation.accountingSystemTotal), balance - before);
  });
});

describe('GnuCash: amounts in other currencies, converted exactly', () => {
  const ledger = (input: Record<string, unknown>) => run(ledgerAccountTransactions, orgs.foreign, input);

  it('uses the pound side of a transaction, its own rate, or the price list; every transaction still balances', async () => {
    const dollars = await ledger({ account: 'Dollar Account', from: '2026-01-01', to: '2026-12-31', reconcile: true });
    const all = [...dollars.transactions, ...dollars.reconciliation.entries];
    assert.deepEqual(all.map((t: any) => [t.date, t.description, t.amount, t.currency ?? null, t.amountInCurrency ?? null]).sort(), [
      // a pound transaction into a dollar account: its value, in pounds
      ['2026-01-10', 'Buy dollars', 790, null, null],
      // a dollar transaction with a pound account: the pound side's 94.80 for $120.00
      ['2026-02-03', 'Design tool', -94.8, 'USD', -120],
      // dollars only: the price of 1 March (0.80), not the later one of 10 March (0.81)
      ['2026-03-05', 'US contractor', -200, 'USD', -250],
    ]);
    assert.equal(dollars.reconciliation.accountingSystemTotal, 495.2);
    const japan = await ledger({ account: 'Japan Costs', from: '2026-04-01', to: '2026-04-30' });
    // yen at 0.00525: 1,100 -> 5.775 -> 5.78 and 1,300 -> 6.825 -> 6.83 (half away from zero)
    assert.deepEqual(japan.transactions.map((t: any) => [t.description, t.amount, t.currency, t.amountInCurrency]).sort(), [
      ['Lunch', 6.83, 'JPY', 1300],
      ['Taxi', 5.78, 'JPY', 1100],
    ]);
    const float = await ledger({ account: 'Tokyo Float', from: '2026-04-01', to: '2026-04-30' });
    assert.deepEqual(
      float.transactions.map((t: any) => t.amount),
      [-12.61],
      '-2,400 yen is -12.60, and the rounding penny goes to the largest converted split so the transaction balances',
    );
    const bs = await run<Report>(reportsBalanceSheet, orgs.foreign, { asAt: '2026-12-31' });
    assert.equal(summary(bs, 'Total Assets', 0), 1_000_000 - 9_480 - 20_000 - 1_261, 'capital less what was spent, in pounds');
    assert.equal(summary(bs, 'Total Assets', 0), summary(bs, 'Total Liabilities and Equity', 0));
  });

  it('refuses to guess a rate the book does not have', async () => {
    const copy = join(scratch, 'no-prices.gnucash');
    copyFileSync(FOREIGN, copy);
    const writer = new SqliteDatabase(copy);
    writer.prepare('DELETE FROM prices').run();
    // the template of a scheduled transaction in dollars: not a transaction, so it needs no price
    const { root_template_guid: templates } = writer.prepare('SELECT root_template_guid FROM books').get() as { root_template_guid: string };
    const usd = (writer.prepare(`SELECT guid FROM commodities WHERE mnemonic = 'USD'`).get() as { guid: string }).guid;
    writer
      .prepare(`INSERT INTO accounts VALUES ('dddddddddddddddddddddddddddddddd', 'dddddddddddddddddddddddddddddddd', 'BANK', ?, 100, 0, ?, '', '', 0, 0)`)
      .run(usd, templates);
    writer
      .prepare(
        `INSERT INTO transactions VALUES ('eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', ?, '', '2026-02-10 10:59:00', '2026-02-10 10:59:00', 'Monthly dollar fee')`,
      )
      .run(usd);
    writer
      .prepare(
        `INSERT INTO splits (guid, tx_guid, account_guid, memo, action, reconcile_state, value_num, value_denom, quantity_num, quantity_denom) VALUES ` +
          `(?, 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 'dddddddddddddddddddddddddddddddd', '', '', 'n', ?, 100, ?, 100)`,
      )
      .run('ffffffffffffffffffffffffffffffff', 500, 500);
    writer.close();
    const org = await gnucashOrganisation('No Prices Ltd', { bookPath: copy });
    const error = await rejection(() => run(reportsProfitAndLoss, org, { from: '2026-03-01', to: '2026-03-31' }));
    assert.deepEqual([error.status, error.code], [502, 'accounting_unavailable']);
    assert.match(error.message, /no GBP price for USD, needed for the transaction "US contractor" of 2026-03-05/);
    const february = await run<Report>(reportsProfitAndLoss, org, { from: '2026-02-01', to: '2026-02-28' });
    assert.equal(summary(february, 'Net Profit', 0), -9_480, 'a transaction with its own rate needs no price');
  });
});

describe('GnuCash: a book that cannot be read fails for its organisation only', () => {
  const broken: Record<string, { config: unknown; currency?: string; message: RegExp }> = {};

  before(async () => {
    const path = (name: string) => join(scratch, name);
    mkdirSync(path('folder.gnucash'));
    writeFileSync(path('notes.gnucash'), 'these are not books\n');
    writeFileSync(path('xml.gnucash'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    const other = new SqliteDatabase(path('other.sqlite'));
    other.exec('CREATE TABLE accounts (id TEXT); CREATE TABLE notes (body TEXT)');
    other.close();
    copyFileSync(BOOK, path('truncated.gnucash'));
    truncateSync(path('truncated.gnucash'), 16_384);
    Object.assign(broken, {
      missing: { config: { bookPath: path('missing.gnucash') }, message: /^The GnuCash book "missing.gnucash" does not exist\.$/ },
      directory: { config: { bookPath: path('folder.gnucash') }, message: /"folder.gnucash" is a directory/ },
      text: { config: { bookPath: path('notes.gnucash') }, message: /^"notes.gnucash" is not a GnuCash book \(it is not an SQLite database\)\.$/ },
      xml: { config: { bookPath: path('xml.gnucash') }, message: /"xml.gnucash" is a GnuCash XML book; .*saved as SQLite/ },
      otherDatabase: {
        config: { bookPath: path('other.sqlite') },
        message: /"other.sqlite" is not a GnuCash book \(it has no books, commodities, transactions, splits/,
      },
      damaged: { config: { bookPath: path('truncated.gnucash') }, message: /The GnuCash book "truncated.gnucash" cannot be read: it is damaged/ },
      currency: { config: { bookPath: BOOK }, currency: 'EUR', message: /keeps its accounts in GBP, but the organisation's home currency is EUR/ },
      settings: { config: { path: BOOK }, message: /GnuCash settings are invalid \(bookPath: .*; settings: Unrecognized key/ },
    });
    for (const [name, b] of Object.entries(broken)) orgs[name] = await gnucashOrganisation(`Broken ${name}`, b.config, b.currency);
  });

  it('each gives a clear accounting error for the reports, the chart and the ledger', async () => {
    for (const [name, b] of Object.entries(broken)) {
      for (const [op, input] of [
        [accountsList, {}],
        [reportsProfitAndLoss, {}],
        [reportsBalanceSheet, {}],
        [ledgerAccountTransactions, { account: 'Rent' }],
      ] as const) {
        const error = await rejection(() => run(op, orgs[name]!, input));
        assert.equal(error.status, 502, `${name}/${op.name}: ${error}`);
        assert.equal(error.code, 'accounting_unavailable');
        assert.match(error.message, b.message, `${name}/${op.name}`);
      }
    }
  });

  it('bills to pay of the missing book fail as its reads do; the good books and the builtin organisation keep working', async () => {
    // a list that is empty because the book could not be read would read "nothing owed" (issue 38)
    const bills = await rejection(() => run(billsListToPay, orgs.missing!, {}));
    assert.match(bills.message, /"missing.gnucash" does not exist/);
    const builtin = await run<Report>(reportsProfitAndLoss, orgs.builtin!, { from: '2026-11-01', to: '2026-11-30' });
    assert.equal(summary(builtin, 'Net Profit', 0), 178_825);
    const good = await run<Report>(reportsProfitAndLoss, orgs.book!, { from: '2026-11-01', to: '2026-11-30' });
    assert.equal(summary(good, 'Net Profit', 0), readGnuCashReport('pl-2026-11').lines.get('Net income for Period'));
  });

  it('an unreadable file (permissions) is said so', { skip: process.getuid?.() === 0 && 'root reads any file' }, async () => {
    const { chmodSync } = await import('node:fs');
    const locked = join(scratch, 'locked.gnucash');
    copyFileSync(BOOK, locked);
    chmodSync(locked, 0o000);
    const org = await gnucashOrganisation('Locked Ltd', { bookPath: locked });
    const error = await rejection(() => run(accountsList, org, {}));
    assert.match(error.message, /"locked.gnucash" cannot be read \(permission denied\)/);
  });

  it("the operator's check names the full path and the problem", () => {
    assert.deepEqual(validateGnuCashBook(BOOK, 'GBP'), { bookPath: BOOK, currency: 'GBP', accounts: 42 });
    assert.throws(
      () => validateGnuCashBook(join(scratch, 'missing.gnucash'), 'GBP'),
      (e: any) => e instanceof AccountingSystemError && e.message.includes(join(scratch, 'missing.gnucash')),
    );
    assert.throws(() => validateGnuCashBook(BOOK, 'USD'), /keeps its accounts in GBP, but the organisation's home currency is USD/);
    assert.throws(() => validateGnuCashBook(join(scratch, 'other.sqlite'), 'GBP'), /is not a GnuCash book/);
  });
});

describe('GnuCash: read live and read-only, while GnuCash has the book open', () => {
  it("sees committed changes at once, not GnuCash's unsaved ones, and leaves its lock alone", async () => {
    const open = join(scratch, 'open.gnucash');
    copyFileSync(BOOK, open);
    const org = await gnucashOrganisation('Open Book Ltd', { bookPath: open });
    // GnuCash holds the book: its lock row, and a save in progress (a write transaction not yet committed)
    const gnucash = new SqliteDatabase(open);
    gnucash.prepare(`INSERT INTO gnclock (Hostname, PID) VALUES ('accounts-pc', 4242)`).run();
    const stationery = guidOf.get('Expenses:Office:Stationery')!;
    const bank = guidOf.get('Assets:Current Assets:Business Current Account')!;
    const gbp = (gnucash.prepare(`SELECT guid FROM commodities WHERE mnemonic = 'GBP'`).get() as { guid: string }).guid;
    gnucash.exec('BEGIN IMMEDIATE');
    gnucash
      .prepare(`INSERT INTO transactions VALUES ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', ?, '', '2026-12-10 10:59:00', '2026-12-10 10:59:00', 'Printer ink')`)
      .run(gbp);
    const split = gnucash.prepare(
      `INSERT INTO splits (guid, tx_guid, account_guid, memo, action, reconcile_state, reconcile_date, value_num, value_denom, quantity_num, quantity_denom)
       VALUES (?, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', ?, '', '', 'n', NULL, ?, 100, ?, 100)`,
    );
    split.run('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', stationery, 2_999, 2_999);
    split.run('cccccccccccccccccccccccccccccccc', bank, -2_999, -2_999);
    const december = { account: 'Stationery', from: '2026-12-01', to: '2026-12-31' };
    // a book last written a while ago (answers from a book written in the last 2 s are not kept)
    const past = new Date(Date.now() - 60_000);
    const settled = () => utimesSync(open, past, past);
    settled();
    const during = await runCached(ledgerAccountTransactions, org, december);
    assert.equal(during.count, 0, 'an unsaved change is not read');
    assert.equal(await runCached(ledgerAccountTransactions, org, december), during, 'kept while the book stands still');
    gnucash.exec('COMMIT');
    const justSaved = await runCached(ledgerAccountTransactions, org, december);
    assert.equal(justSaved.count, 1, 'a book just written is read afresh');
    // the same file times as before the save: the header's change counter still tells
    settled();
    const saved = await runCached(ledgerAccountTransactions, org, december);
    assert.notEqual(saved, justSaved, 'the settled book is read once more, then kept');
    assert.equal(await runCached(ledgerAccountTransactions, org, december), saved);
    assert.deepEqual(
      saved.transactions.map((t: any) => [t.date, t.type, t.description, t.amount]),
      [['2026-12-10', 'expense', 'Printer ink', 29.99]],
    );
    assert.deepEqual(gnucash.prepare('SELECT Hostname AS hostname, PID AS pid FROM gnclock').all(), [{ hostname: 'accounts-pc', pid: 4242 }]);
    gnucash.close();
  });

  it('never wrote the committed book', () => {
    const book = new SqliteDatabase(BOOK, { readonly: true });
    assert.deepEqual(book.prepare('SELECT * FROM gnclock').all(), []);
    book.close();
    assert.equal(sha256(BOOK), bookHash);
  });
});

describe('GnuCash: dates and amounts as GnuCash stores them', () => {
  it('reads neutral-time dates, local midnights either side of UTC, and the old compact format', () => {
    assert.equal(bookDate('2025-03-15 10:59:00'), '2025-03-15', 'neutral time');
    assert.equal(bookDate('2025-03-14 23:00:00'), '2025-03-15', 'midnight in UTC+1');
    assert.equal(bookDate('2025-03-14 12:00:00'), '2025-03-15', 'midnight in UTC+12');
    assert.equal(bookDate('2025-03-15 05:00:00'), '2025-03-15', 'midnight in UTC-5');
    assert.equal(bookDate('2025-03-15 00:00:00'), '2025-03-15', 'midnight in UTC');
    assert.equal(bookDate('2024-12-31 23:00:00'), '2025-01-01', 'across a year end');
    assert.equal(bookDate('2024-02-28 12:30:00'), '2024-02-29', 'into a leap day');
    assert.equal(bookDate('20250314230000'), '2025-03-15', 'the format of GnuCash 2');
    assert.throws(() => bookDate('not a date'), AccountingSystemError);
  });

  it('selects by date in SQL exactly as the dates are read', () => {
    const db = new SqliteDatabase(':memory:');
    db.exec('CREATE TABLE t (post_date TEXT)');
    const stamps = [
      '2025-02-28 10:59:00',
      '2025-02-28 12:00:00',
      '2025-03-01 10:59:00',
      '2025-03-31 11:59:59',
      '2025-03-31 12:00:00',
      '20250228230000',
      '20250331110000',
      '20250331120000',
    ];
    for (const p of stamps) db.prepare('INSERT INTO t VALUES (?)').run(p);
    const select = (from: string | undefined, to: string) => {
      const c = postDateCondition('post_date', from, to);
      return (db.prepare(`SELECT post_date FROM t WHERE ${c.sql} ORDER BY post_date`).all(c.params) as { post_date: string }[]).map((r) => r.post_date);
    };
    const march = select('2025-03-01', '2025-03-31');
    assert.deepEqual(march, stamps.filter((p) => bookDate(p) >= '2025-03-01' && bookDate(p) <= '2025-03-31').sort());
    assert.deepEqual(march, ['2025-02-28 12:00:00', '2025-03-01 10:59:00', '2025-03-31 11:59:59', '20250228230000', '20250331110000']);
    assert.deepEqual(select(undefined, '2025-02-28'), ['2025-02-28 10:59:00']);
    db.close();
  });

  it('rounds exact fractions to minor units half away from zero', () => {
    assert.equal(toUnits(fraction(12_345, 100), 100n), 12_345n);
    assert.equal(toUnits(fraction(5_775, 1_000), 100n), 578n);
    assert.equal(toUnits(fraction(-5_775, 1_000), 100n), -578n);
    assert.equal(toUnits(fraction(5_774_999, 1_000_000), 100n), 577n);
    assert.equal(toUnits(fraction(1, 3), 100n), 33n);
    assert.equal(toUnits(fraction(-2, 3), 100n), -67n);
    assert.equal(toUnits(fraction(9_007_199_254_740_993n, 1), 1n), 9_007_199_254_740_993n, 'BigInt all the way');
    assert.throws(() => fraction(1, 0), AccountingSystemError);
  });
});
