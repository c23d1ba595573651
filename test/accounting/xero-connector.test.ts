/**
 * The Xero connector over the operations' real path (runOrganisationOperation), against the
 * contract-checked fake of Xero's Accounting API (helpers/fake-xero.ts): every request the
 * connector makes and every answer the fake gives is checked against xero_accounting.yaml, and each
 * Ledgerline report's totals must equal the fake Xero report's own total rows, to the penny.
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
import { reportRow, startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { fakeId } from '../helpers/fake-xero-book.js';
import { describeEachDialect } from '../helpers/store.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';

// these tests check the connector's own reading of Xero, many calls a minute to one fake company;
// the published call budget is tested in call-budget.test.ts, with a Xero organisation over REST
useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const pence = (major: number) => Math.round(major * 100);

let xero: FakeXero;
/** a second Xero organisation on its own fake, for the outage of one organisation only */
let other: FakeXero;

before(async () => {
  // three journals a page, so the connector has to page through /Journals
  xero = await startFakeXero({ limits: false, today: TODAY, journalsPageSize: 3 });
  other = await startFakeXero({ limits: false, today: TODAY });
});

after(async () => {
  await xero?.close();
  await other?.close();
});

async function xeroOrganisation(store: Store, name: string, fake: FakeXero, extra: Record<string, unknown> = {}) {
  const row = await provisionOrganisation(store.db, { name, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'xero' });
  // mirrorMaxAgeMs 0: every call asks Xero what changed, so each test sees the vendor's behaviour
  // (the mirror's own reuse is tested in xero-mirror.test.ts)
  const config = { tenantId: fake.tenantId, accessToken: fake.token, baseUrl: fake.baseUrl, mirrorMaxAgeMs: 0, ...extra };
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

type Report = {
  sections: { title: string; total: number[]; groups: { accounts: { name: string; amounts: number[] }[] }[] }[];
  summary: { label: string; amounts: number[] }[];
};
const summary = (r: Report, label: string) => r.summary.find((l) => l.label === label)!.amounts.map(pence);
const section = (r: Report, title: string, n: number) => r.sections.find((s) => s.title === title)?.total.map(pence) ?? Array.from({ length: n }, () => 0);

const orgs = {} as { xero: string; other: string; builtin: string };

describeEachDialect(
  'Xero connector',
  (store) => {
    const run = <T = any>(op: OrganisationOperation<any, any>, organisationId: string, input: Record<string, unknown> = {}) =>
      call<T>(store(), op, organisationId, input, { today: TODAY });

    it('lists the chart of accounts with Xero types mapped to the spec types and classifications', async () => {
      const r = await run(accountsList, orgs.xero, { includeInactive: true });
      const byNumber = new Map(r.accounts.map((a: any) => [a.number, a]));
      const expected: Record<string, [string, string]> = {
        '090': ['Bank', 'Asset'],
        '091': ['Bank', 'Asset'],
        '610': ['Accounts Receivable', 'Asset'],
        '630': ['Other Current Asset', 'Asset'],
        '720': ['Fixed Asset', 'Asset'],
        '800': ['Accounts Payable', 'Liability'],
        '900': ['Long Term Liability', 'Liability'],
        '960': ['Equity', 'Equity'],
        '970': ['Equity', 'Equity'],
        '200': ['Income', 'Revenue'],
        '260': ['Other Income', 'Revenue'],
        '310': ['Cost of Goods Sold', 'Expense'],
        '416': ['Expense', 'Expense'],
        '429': ['Expense', 'Expense'],
        '461': ['Expense', 'Expense'],
        '489': ['Expense', 'Expense'],
        '499': ['Expense', 'Expense'],
      };
      assert.equal(r.count, Object.keys(expected).length);
      for (const [number, [type, classification]] of Object.entries(expected)) {
        const a: any = byNumber.get(number);
        assert.deepEqual([a.type, a.classification], [type, classification], number);
        assert.equal(a.fullName, a.name, 'Xero has no sub-accounts: the full name is the name');
        assert.equal(a.parentId, null);
      }
      assert.equal((byNumber.get('499') as any).active, false, 'archived in Xero');
      const active = await run(accountsList, orgs.xero);
      assert.equal(active.count, r.count - 1);
    });

    it("answers the profit and loss whose totals equal Xero's own total rows, compared with a year before", async () => {
      const r = await run<Report>(reportsProfitAndLoss, orgs.xero, {
        period: 'custom',
        from: '2026-01-01',
        to: '2026-06-30',
        compareBy: 'year',
        comparePeriods: 1,
      });
      const x = await xero.get('/Reports/ProfitAndLoss?fromDate=2026-01-01&toDate=2026-06-30&periods=1&timeframe=YEAR');
      assert.deepEqual(summary(r, 'Net Profit'), reportRow(x, 'Net Profit'));
      assert.deepEqual(summary(r, 'Gross Profit'), reportRow(x, 'Gross Profit'));
      assert.deepEqual(section(r, 'Income', 2), reportRow(x, 'Total Income'));
      assert.deepEqual(section(r, 'Cost of Sales', 2), reportRow(x, 'Total Cost of Sales'));
      assert.deepEqual(section(r, 'Operating Expenses', 2), reportRow(x, 'Total Operating Expenses'));
      assert.deepEqual(section(r, 'Other Income', 2), reportRow(x, 'Total Other Income'));
      // the figures themselves: 2,500 + 325 sales less 800 beans, 240 paper, 60 phone, 100 depreciation, plus 100 training; nothing a year before
      assert.deepEqual(summary(r, 'Net Profit'), [172_500, 0]);
    });

    it("answers the balance sheet whose totals equal Xero's own total rows, at three month ends", async () => {
      const r = await run<Report>(reportsBalanceSheet, orgs.xero, { asAt: '2026-06-30', compareBy: 'month', comparePeriods: 2 });
      const x = await xero.get('/Reports/BalanceSheet?date=2026-06-30&periods=2&timeframe=MONTH');
      const liabilities = reportRow(x, 'Total Liabilities');
      const equity = reportRow(x, 'Total Equity');
      assert.deepEqual(summary(r, 'Total Assets'), reportRow(x, 'Total Assets'));
      assert.deepEqual(summary(r, 'Total Liabilities'), liabilities);
      assert.deepEqual(summary(r, 'Total Equity'), equity);
      assert.deepEqual(
        summary(r, 'Total Liabilities and Equity'),
        liabilities.map((v, k) => v + equity[k]!),
      );
      assert.deepEqual(summary(r, 'Total Assets'), summary(r, 'Total Liabilities and Equity'));
    });

    it('answers the balance sheet at a year end, earlier profit shown with Retained Earnings as Xero shows it', async () => {
      const r = await run<Report>(reportsBalanceSheet, orgs.xero, { asAt: '2025-12-31' });
      const x = await xero.get('/Reports/BalanceSheet?date=2025-12-31');
      assert.deepEqual(summary(r, 'Total Assets'), reportRow(x, 'Total Assets'));
      assert.deepEqual(summary(r, 'Total Equity'), reportRow(x, 'Total Equity'));
      const equityOf = (report: Report) => report.sections.find((s) => s.title === 'Equity')!.groups.flatMap((g) => g.accounts);
      const line = (name: string) =>
        equityOf(r)
          .find((a) => a.name === name)
          ?.amounts.map(pence);
      assert.deepEqual(line('Current Year Earnings'), reportRow(x, 'Current Year Earnings'));
      const next = await xero.get('/Reports/BalanceSheet?date=2026-01-31');
      const january = await run<Report>(reportsBalanceSheet, orgs.xero, { asAt: '2026-01-31' });
      assert.deepEqual(
        equityOf(january)
          .find((a) => a.name === 'Retained Earnings')!
          .amounts.map(pence),
        reportRow(next, 'Retained Earnings'),
      );
    });

    it('lists ledger lines from the journals: bills with their supplier, card charges, and the whole movement', async () => {
      const paper = await run(ledgerAccountTransactions, orgs.xero, { account: '461', period: 'custom', from: '2026-01-01', to: '2026-06-30' });
      assert.equal(paper.total, 240);
      assert.equal(paper.count, 2);
      assert.deepEqual(
        paper.transactions.map((t: any) => [t.date, t.type, t.amount, t.supplier, t.number]),
        [
          ['2026-03-03', 'bill', 180, 'Paper Co', 'PC-7781'],
          ['2026-03-03', 'bill', 60, 'Paper Co', 'PC-7781'],
        ],
      );
      // a bill's lines lead to the bill as a document of Xero's (documents.get), as a GnuCash bill's do
      const bill = `xero:${fakeId('bill PC-7781')}`;
      assert.equal(paper.transactions[0].link, `https://ledgerline.test/v1/operations/documents.get?ids=${encodeURIComponent(bill)}`);
      assert.deepEqual([paper.transactions[0].document.id, paper.transactions[0].document.total], [bill, 240]);

      const phone = await run(ledgerAccountTransactions, orgs.xero, {
        account: 'Telephone & Internet',
        period: 'custom',
        from: '2026-01-01',
        to: '2026-06-30',
      });
      assert.deepEqual(
        phone.transactions.map((t: any) => [t.type, t.amount, t.supplier]),
        [['card_charge', 60, 'Telco Ltd']],
      );

      const payable = await run(ledgerAccountTransactions, orgs.xero, {
        account: 'Accounts Payable',
        period: 'custom',
        from: '2026-01-01',
        to: '2026-06-30',
        reconcile: true,
      });
      // bills raise what is owed (credit, shown positive on a liability); the part payment is not a listed type
      assert.equal(payable.total, 1_040);
      assert.equal(payable.reconciliation.accountingSystemTotal, 740);
      assert.equal(payable.reconciliation.unexplained, 0);
      assert.deepEqual(
        payable.reconciliation.entries.map((e: any) => [e.date, e.type, e.amount]),
        [['2026-05-01', 'payment', -300]],
      );

      const bySupplier = await run(ledgerAccountTransactions, orgs.xero, {
        account: '310',
        period: 'custom',
        from: '2025-01-01',
        to: '2026-06-30',
        groupBy: 'supplier',
      });
      assert.deepEqual(
        bySupplier.groups.map((g: any) => [g.name, g.total, g.count]),
        [['Bean Importers Ltd', 1_250, 2]],
      );
    });

    it("lists the bills to pay from Xero's ACCPAY invoices with their amount due after part payments", async () => {
      const r = await run(billsListToPay, orgs.xero, {});
      assert.deepEqual(
        r.bills.map((b: any) => [b.supplier, b.invoiceNumber, b.dueDate, b.amountDue]),
        [
          ['Bean Importers Ltd', 'BI-2025-77', '2025-12-31', 450],
          ['Paper Co', 'PC-7781', '2026-04-02', 240],
          ['Bean Importers Ltd', 'BI-2026-14', '2026-05-10', 500],
        ],
        'sales invoices (ACCREC) are not bills; the part-paid bill shows what is left',
      );
      assert.equal(r.total, 1_190);
    });

    it("waits out Xero's 429 for its Retry-After, within the call's budget", async () => {
      const before = xero.requests.length;
      xero.rateLimit(1, 1);
      const started = Date.now();
      const r = await run(accountsList, orgs.xero);
      assert.ok(r.count > 0);
      assert.ok(Date.now() - started >= 950, `waited ${Date.now() - started} ms`);
      assert.deepEqual(
        xero.requests.slice(before, before + 2).map((q) => [q.path, q.status]),
        [
          ['/Accounts', 429],
          ['/Accounts', 200],
        ],
      );
    });

    it("fails at once with 503 accounting_rate_limited and Xero's Retry-After when it is beyond the budget, while there is no whole copy", async () => {
      const fresh = await xeroOrganisation(store(), `Budget ${Math.random()}`, xero);
      xero.rateLimit(1, 120);
      const started = Date.now();
      const error = await rejection(() => run(accountsList, fresh));
      assert.ok(Date.now() - started < 2_000);
      assert.deepEqual([error.status, error.code, error.extra.retryAfter], [503, 'accounting_rate_limited', 120]);
      assert.match(error.message, /rate limit.*retry after 120 s/);
    });

    it('answers from a whole copy when bringing it up to date would exceed the budget', async () => {
      const before = await run(accountsList, orgs.xero);
      xero.rateLimit(1, 120);
      assert.deepEqual(await run(accountsList, orgs.xero), before);
      assert.equal(xero.requests.at(-1)!.status, 429, 'the pass was refused');
    });

    it('answers 502 accounting_unavailable for an organisation whose Xero is down, and only for it', async () => {
      other.outage(true);
      try {
        const error = await rejection(() => run(reportsProfitAndLoss, orgs.other, {}));
        assert.deepEqual([error.status, error.code], [502, 'accounting_unavailable']);
        assert.match(error.message, /Xero is unavailable \(HTTP 503\)/);
        // bills to pay (the service's own merged with the books'): the outage, never a list that reads as nothing owed
        const bills = await rejection(() => run(billsListToPay, orgs.other, {}));
        assert.deepEqual([bills.status, bills.code], [502, 'accounting_unavailable']);
        assert.match(bills.message, /Xero is unavailable \(HTTP 503\)/);
        assert.ok((await run(accountsList, orgs.xero)).count > 0, 'the other Xero organisation still answers');
        // answers (no outage of another organisation's vendor reaches it) with what it holds: a new organisation's empty chart
        assert.deepEqual(await run(accountsList, orgs.builtin), { count: 0, accounts: [] }, 'a builtin organisation still answers');
      } finally {
        other.outage(false);
      }
      assert.ok((await run(accountsList, orgs.other)).count > 0, 'answers again once Xero is back');
    });

    it('refuses settings that cannot be used with accounting_unavailable naming the field', async () => {
      const row = await provisionOrganisation(store().db, {
        name: 'Unset Xero',
        homeCurrency: 'GBP',
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: 'xero',
      });
      const error = await rejection(() => run(accountsList, row.id));
      assert.deepEqual([error.status, error.code], [502, 'accounting_unavailable']);
      assert.match(error.message, /Xero settings are invalid/);
    });

    it('made only requests the contract allows, and the fake answered only what it allows', () => {
      assert.deepEqual([...xero.violations, ...other.violations], []);
      assert.ok(
        xero.requests.some((q) => q.path === '/Journals' && q.query.offset === '3'),
        'paged through the journals',
      );
    });
  },
  async (store) => {
    orgs.xero = await xeroOrganisation(store, 'Harbour Roasters', xero);
    orgs.other = await xeroOrganisation(store, 'Other Roasters', other);
    orgs.builtin = (await provisionOrganisation(store.db, { name: 'Builtin Books', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 })).id;
  },
);
