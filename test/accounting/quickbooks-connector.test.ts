/**
 * The QuickBooks Online connector over the operations' real path (runOrganisationOperation),
 * against the fake of QuickBooks' Accounting API v3 (helpers/fake-quickbooks.ts) whose every answer
 * is checked against Intuit's XML schemas; each Ledgerline report's totals must equal the fake
 * QuickBooks report's own total rows, to the cent.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { accountsList } from '../../src/operations/accounts-list.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { call, rejection } from '../helpers/call.js';
import { reportRow, startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { describeEachDialect } from '../helpers/store.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';

// these tests check the connector's own reading of QuickBooks, many calls a minute to one fake company;
// the published call budget is tested in call-budget.test.ts, with a QuickBooks organisation over REST
useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const cents = (major: number) => Math.round(major * 100);

let qb: FakeQuickBooks;
/** a second QuickBooks organisation on its own fake, for the outage of one organisation only */
let other: FakeQuickBooks;

before(async () => {
  qb = await startFakeQuickBooks({ limits: false, today: TODAY });
  other = await startFakeQuickBooks({ limits: false, today: TODAY });
});

after(async () => {
  await qb?.close();
  await other?.close();
});

async function quickBooksOrganisation(store: Store, name: string, fake: FakeQuickBooks, extra: Record<string, unknown> = {}) {
  const row = await provisionOrganisation(store.db, {
    name,
    homeCurrency: 'USD',
    timeZone: 'America/Los_Angeles',
    fyStartMonth: 1,
    accountingSystem: 'quickbooks',
  });
  // mirrorMaxAgeMs 0: every call asks QuickBooks what changed, so each test sees the vendor's behaviour
  // (the mirror's own reuse is tested in quickbooks-mirror.test.ts)
  const config = { realmId: fake.realmId, accessToken: fake.token, baseUrl: fake.baseUrl, mirrorMaxAgeMs: 0, ...extra };
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

type Report = {
  sections: { title: string; total: number[]; groups: { title: string; total: number[]; accounts: { name: string; amounts: number[] }[] }[] }[];
  summary: { label: string; amounts: number[] }[];
};
const summary = (r: Report, label: string) => r.summary.find((l) => l.label === label)!.amounts.map(cents);
const section = (r: Report, title: string, n: number) => r.sections.find((s) => s.title === title)?.total.map(cents) ?? Array.from({ length: n }, () => 0);
const q = (sql: string) => `/query?query=${encodeURIComponent(sql)}`;

const orgs = {} as { qb: string; other: string; builtin: string };

describeEachDialect(
  'QuickBooks connector',
  (store) => {
    const run = <T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}) =>
      call<T>(store(), op, organisationId, input, { today: TODAY });

    it("lists the chart with QuickBooks' types and classifications, sub-accounts by their Parent:Child full names", async () => {
      const r = await run(accountsList, orgs.qb, { includeInactive: true });
      const byNumber = new Map<string, any>(r.accounts.map((a: any) => [a.number, a]));
      const expected: Record<string, [string, string]> = {
        '1000': ['Bank', 'Asset'],
        '1010': ['Bank', 'Asset'],
        '1100': ['Accounts Receivable', 'Asset'],
        '1200': ['Other Current Asset', 'Asset'],
        '1500': ['Fixed Asset', 'Asset'],
        '1800': ['Other Asset', 'Asset'],
        '2000': ['Accounts Payable', 'Liability'],
        '2100': ['Credit Card', 'Liability'],
        '2200': ['Other Current Liability', 'Liability'],
        '2500': ['Long Term Liability', 'Liability'],
        '3000': ['Equity', 'Equity'],
        '3100': ['Equity', 'Equity'],
        '4000': ['Income', 'Revenue'],
        '4010': ['Income', 'Revenue'],
        '5000': ['Cost of Goods Sold', 'Expense'],
        '6100': ['Expense', 'Expense'],
        '6110': ['Expense', 'Expense'],
        '6120': ['Expense', 'Expense'],
        '6200': ['Expense', 'Expense'],
        '6300': ['Expense', 'Expense'],
        '7000': ['Other Income', 'Revenue'],
        '8000': ['Other Expense', 'Expense'],
      };
      assert.equal(r.count, Object.keys(expected).length);
      for (const [number, [type, classification]] of Object.entries(expected)) {
        const a = byNumber.get(number);
        assert.deepEqual([a.type, a.classification], [type, classification], number);
      }
      assert.equal(byNumber.get('6110').fullName, 'Utilities:Telephone');
      assert.equal(byNumber.get('6110').parentId, byNumber.get('6100').id);
      assert.equal(byNumber.get('4010').fullName, 'Sales:Catering');
      assert.equal(byNumber.get('6300').active, false, 'inactive in QuickBooks');
      const active = await run(accountsList, orgs.qb);
      assert.equal(active.count, r.count - 1);
    });

    it("answers the profit and loss whose totals equal QuickBooks' own ProfitAndLoss, compared with a year before", async () => {
      const r = await run<Report>(reportsProfitAndLoss, orgs.qb, {
        period: 'custom',
        from: '2026-01-01',
        to: '2026-06-30',
        compareBy: 'year',
        comparePeriods: 1,
      });
      const now = await qb.get('/reports/ProfitAndLoss?start_date=2026-01-01&end_date=2026-06-30&summarize_column_by=Total');
      const before = await qb.get('/reports/ProfitAndLoss?start_date=2025-01-01&end_date=2025-06-30&summarize_column_by=Total');
      const both = (title: string) => [...reportRow(now, title), ...reportRow(before, title)];
      assert.deepEqual(summary(r, 'Net Profit'), both('Net Income'));
      assert.deepEqual(summary(r, 'Gross Profit'), both('Gross Profit'));
      assert.deepEqual(summary(r, 'Operating Profit'), both('Net Operating Income'));
      assert.deepEqual(section(r, 'Income', 2), both('Total Income'));
      assert.deepEqual(section(r, 'Cost of Sales', 2), both('Total Cost of Goods Sold'));
      assert.deepEqual(section(r, 'Operating Expenses', 2), both('Total Expenses'));
      assert.deepEqual(section(r, 'Other Income', 2), both('Total Other Income'));
      assert.deepEqual(section(r, 'Other Expenses', 2), both('Total Other Expenses'));
      // 2,400 + 300 + 325 + 180 sales, 12 interest, less 850 flour (after the 150 credit), 245 utilities, 45 supplies, 100 depreciation
      assert.deepEqual(summary(r, 'Net Profit'), [197_700, 0]);
      const utilities = r.sections.find((s) => s.title === 'Operating Expenses')!.groups.find((g) => g.title === 'Utilities')!;
      assert.deepEqual(
        utilities.accounts.map((a) => [a.name, a.amounts[0]]),
        [
          ['Utilities:Telephone', 125],
          ['Utilities:Internet', 120],
        ],
        'sub-accounts grouped under their parent, as QuickBooks nests them',
      );
      assert.deepEqual(
        utilities.accounts.reduce((s, a) => s + cents(a.amounts[0]!), 0),
        reportRow(now, 'Total Utilities')[0],
      );
    });

    it("answers the balance sheet whose totals equal QuickBooks' own BalanceSheet, at three month ends", async () => {
      const r = await run<Report>(reportsBalanceSheet, orgs.qb, { asAt: '2026-06-30', compareBy: 'month', comparePeriods: 2 });
      const x = await qb.get('/reports/BalanceSheet?start_date=2026-04-01&end_date=2026-06-30&summarize_column_by=Month');
      // QuickBooks' columns run April to June; Ledgerline's from the date asked back
      const row = (title: string) => reportRow(x, title).reverse();
      assert.deepEqual(summary(r, 'Total Assets'), row('TOTAL ASSETS'));
      assert.deepEqual(summary(r, 'Total Liabilities'), row('Total Liabilities'));
      assert.deepEqual(summary(r, 'Total Equity'), row('Total Equity'));
      assert.deepEqual(summary(r, 'Total Liabilities and Equity'), row('TOTAL LIABILITIES AND EQUITY'));
      const group = (title: string) =>
        r.sections
          .flatMap((s) => s.groups)
          .find((g) => g.title === title)!
          .total.map(cents);
      assert.deepEqual(group('Current Assets'), row('Total Current Assets'));
      assert.deepEqual(group('Current Liabilities'), row('Total Current Liabilities'));
      assert.deepEqual(group('Long Term Liabilities'), row('Total Long-Term Liabilities'));
      assert.deepEqual(summary(r, 'Total Assets'), summary(r, 'Total Liabilities and Equity'));
    });

    it('answers the balance sheet at a year end and after it, with Net Income and Retained Earnings as QuickBooks shows them', async () => {
      const r = await run<Report>(reportsBalanceSheet, orgs.qb, { asAt: '2025-12-31' });
      const x = await qb.get('/reports/BalanceSheet?start_date=2025-12-31&end_date=2025-12-31');
      assert.deepEqual(summary(r, 'Total Assets'), reportRow(x, 'TOTAL ASSETS'));
      assert.deepEqual(summary(r, 'Total Equity'), reportRow(x, 'Total Equity'));
      const equityOf = (report: Report) => report.sections.find((s) => s.title === 'Equity')!.groups.flatMap((g) => g.accounts);
      assert.deepEqual(
        equityOf(r)
          .find((a) => a.name === 'Current Year Earnings')!
          .amounts.map(cents),
        reportRow(x, 'Net Income'),
      );
      const january = await run<Report>(reportsBalanceSheet, orgs.qb, { asAt: '2026-01-31' });
      const next = await qb.get('/reports/BalanceSheet?start_date=2026-01-31&end_date=2026-01-31');
      assert.deepEqual(
        equityOf(january)
          .find((a) => a.name === 'Retained Earnings')!
          .amounts.map(cents),
        reportRow(next, 'Retained Earnings'),
      );
      assert.deepEqual(reportRow(next, 'Retained Earnings'), [90_000], '1,500 sourdough less 600 flour in 2025');
    });

    it('lists ledger lines posted from the transactions: bills, card charges and refunds, cash expenses, cheques, deposits', async () => {
      const phone = await run(ledgerAccountTransactions, orgs.qb, { account: '6110', period: 'custom', from: '2026-01-01', to: '2026-06-30' });
      assert.deepEqual(
        phone.transactions.map((t: any) => [t.date, t.type, t.amount, t.supplier, t.number]),
        [
          ['2026-03-02', 'bill', 80, 'City Power & Light', 'CPL-0326'],
          ['2026-02-14', 'card_charge', 45, 'Telco Inc', null],
        ],
      );
      assert.equal(phone.total, 125);
      // a bill is a document documents.get shows (quickbooks-operations.test.ts); a card charge links to QuickBooks' own page
      assert.match(phone.transactions[0].link, /\/v1\/operations\/documents\.get\?ids=quickbooks%3ABill%3A147$/);
      assert.match(phone.transactions[1].link, /^https:\/\/app\.qbo\.intuit\.com\/app\/creditcardcharge\?txnId=161$/);

      const supplies = await run(ledgerAccountTransactions, orgs.qb, { account: 'Office Supplies', period: 'custom', from: '2026-01-01', to: '2026-06-30' });
      assert.deepEqual(
        supplies.transactions.map((t: any) => [t.date, t.type, t.amount, t.supplier]),
        [
          ['2026-03-15', 'expense', 60, 'Paper Supply Co'],
          ['2026-02-20', 'card_refund', -15, 'Paper Supply Co'],
        ],
      );

      const checking = await run(ledgerAccountTransactions, orgs.qb, { account: '1000', period: 'custom', from: '2025-01-01', to: '2026-06-30' });
      assert.deepEqual(
        checking.transactions.map((t: any) => [t.date, t.type, t.amount]),
        [
          ['2026-06-06', 'deposit', 180],
          ['2026-04-25', 'deposit', 337],
          ['2026-03-15', 'expense', -60],
          ['2025-03-10', 'cheque', -8_000],
        ],
        'a sales receipt is a deposit; the bill payment, customer payment, transfer and opening journal are not listed types',
      );
      const checkingAll = await run(ledgerAccountTransactions, orgs.qb, {
        account: '1000',
        period: 'custom',
        from: '2025-01-01',
        to: '2026-06-30',
        reconcile: true,
      });
      assert.equal(checkingAll.reconciliation.unexplained, 0);
      assert.deepEqual(checkingAll.reconciliation.entries.map((e: any) => [e.date, e.type, e.amount]).sort(), [
        ['2025-01-02', 'journal', 10_000],
        ['2025-01-02', 'journal', 20_000],
        ['2026-01-20', 'payment', 1_000],
        ['2026-02-01', 'transfer', -5_000],
        ['2026-05-01', 'payment', -400],
      ]);
      const checkingBalance = (await qb.get(q('SELECT * FROM Account WHERE Active = true MAXRESULTS 1000'))).QueryResponse.Account.find(
        (a: any) => a.AcctNum === '1000',
      ).CurrentBalance;
      assert.equal(cents(checkingAll.reconciliation.accountingSystemTotal), cents(checkingBalance), "the lines add up to QuickBooks' CurrentBalance");

      const payable = await run(ledgerAccountTransactions, orgs.qb, {
        account: '2000',
        period: 'custom',
        from: '2026-01-01',
        to: '2026-06-30',
        reconcile: true,
      });
      // two bills (200 + 1,000) less the 150 supplier credit; the 400 part payment is not a listed type
      assert.equal(payable.total, 1_050);
      assert.equal(payable.reconciliation.accountingSystemTotal, 650);
      assert.equal(payable.reconciliation.unexplained, 0);

      const bySupplier = await run(ledgerAccountTransactions, orgs.qb, {
        account: '5000',
        period: 'custom',
        from: '2025-01-01',
        to: '2026-06-30',
        groupBy: 'supplier',
      });
      assert.deepEqual(
        bySupplier.groups.map((g: any) => [g.name, g.total, g.count]),
        [['Flour Mill Co', 1_450, 3]],
      );
    });

    it('lists the bills to pay from Bills with a Balance, the part-paid one with what is left', async () => {
      const r = await run(billsListToPay, orgs.qb, {});
      assert.deepEqual(
        r.bills.map((b: any) => [b.supplier, b.invoiceNumber, b.dueDate, b.amountDue]),
        [
          ['Flour Mill Co', 'FM-2025-311', '2025-12-31', 600],
          ['City Power & Light', 'CPL-0326', '2026-04-01', 200],
          ['Flour Mill Co', 'FM-2026-118', '2026-05-08', 600],
        ],
      );
      assert.equal(r.total, 1_400);
      const bills = (await qb.get(q('SELECT * FROM Bill MAXRESULTS 1000'))).QueryResponse.Bill;
      assert.equal(
        cents(r.total),
        bills.reduce((s: number, b: any) => s + cents(b.Balance), 0),
        "QuickBooks' own Balance",
      );
    });

    it("waits out QuickBooks' 429 for its Retry-After, within the call's budget", async () => {
      const before = qb.requests.length;
      qb.rateLimit(1, 1);
      const started = Date.now();
      const r = await run(accountsList, orgs.qb);
      assert.ok(r.count > 0);
      assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
      assert.deepEqual(
        qb.requests.slice(before, before + 2).map((x) => x.status),
        [429, 200],
      );
    });

    it(
      'fails at once with 503 accounting_rate_limited when QuickBooks asks for 60 s (no Retry-After), beyond the budget, while there is no whole ' + 'copy',
      async () => {
        const fresh = await quickBooksOrganisation(store(), `Budget ${Math.random()}`, qb);
        qb.rateLimit(1);
        const started = Date.now();
        const error = await rejection(() => run(accountsList, fresh));
        assert.ok(Date.now() - started < 2_000);
        assert.deepEqual([error.status, error.code, error.extra.retryAfter], [503, 'accounting_rate_limited', 60]);
        assert.match(error.message, /rate limit.*retry after 60 s/);
      },
    );

    it('answers from a whole copy when bringing it up to date would exceed the budget', async () => {
      const before = await run(accountsList, orgs.qb);
      qb.rateLimit(1);
      assert.deepEqual(await run(accountsList, orgs.qb), before);
      assert.equal(qb.requests.at(-1)!.status, 429, 'the pass was refused');
    });

    it('answers 502 accounting_unavailable for an organisation whose QuickBooks is down, and only for it', async () => {
      other.outage(true);
      try {
        const error = await rejection(() => run(reportsProfitAndLoss, orgs.other, {}));
        assert.deepEqual([error.status, error.code], [502, 'accounting_unavailable']);
        assert.match(error.message, /QuickBooks is unavailable \(HTTP 503\)/);
        // bills to pay (the service's own merged with the books'): the outage, never a list that reads as nothing owed
        const bills = await rejection(() => run(billsListToPay, orgs.other, {}));
        assert.deepEqual([bills.status, bills.code], [502, 'accounting_unavailable']);
        assert.match(bills.message, /QuickBooks is unavailable \(HTTP 503\)/);
        assert.ok((await run(accountsList, orgs.qb)).count > 0, 'the other QuickBooks organisation still answers');
        // answers (no outage of another organisation's vendor reaches it) with what it holds: a new organisation's empty chart
        assert.deepEqual(await run(accountsList, orgs.builtin), { count: 0, accounts: [] }, 'a builtin organisation still answers');
      } finally {
        other.outage(false);
      }
      assert.ok((await run(accountsList, orgs.other)).count > 0, 'answers again once QuickBooks is back');
    });

    it('refuses settings that cannot be used with accounting_unavailable naming the field', async () => {
      const row = await provisionOrganisation(store().db, {
        name: 'Unset QuickBooks',
        homeCurrency: 'USD',
        timeZone: 'America/Los_Angeles',
        fyStartMonth: 1,
        accountingSystem: 'quickbooks',
      });
      const error = await rejection(() => run(accountsList, row.id));
      assert.deepEqual([error.status, error.code], [502, 'accounting_unavailable']);
      assert.match(error.message, /QuickBooks settings are invalid/);
    });

    it('paged through the queries, and the fake answered only what the schemas allow', () => {
      assert.deepEqual([...qb.violations, ...other.violations], []);
      assert.ok(
        qb.requests.some((x) => /FROM Account .*STARTPOSITION 5 MAXRESULTS 4/.test(x.query.query ?? '')),
        'paged through the accounts, four at a time',
      );
      assert.ok(
        qb.requests.filter((x) => /ORDERBY/.test(x.query.query ?? '')).every((x) => x.query.minorversion === '75'),
        'the connector names the minor version',
      );
    });
  },
  async (store) => {
    orgs.qb = await quickBooksOrganisation(store, 'Maple Street Bakery', qb, { pageSize: 4 });
    orgs.other = await quickBooksOrganisation(store, 'Other Bakery', other);
    orgs.builtin = (await provisionOrganisation(store.db, { name: 'Builtin Books', homeCurrency: 'USD', timeZone: 'America/Los_Angeles', fyStartMonth: 1 })).id;
  },
);
