/**
 * Issue 38, item 3 and what must be true of it: a QuickBooks company that sells by item (the coffee
 * roaster of helpers/fake-quickbooks-roaster.ts: 36 invoices and the sales receipts naming Items and
 * no account, discounts, sales tax, a group item, a refund receipt, a credit memo partly applied,
 * deposits of Undeposited Funds, bill payments by cheque and card, a vendor credit, card purchases,
 * transfers, journals), connected through the organisation's settings page (the fake's Intuit
 * sign-in), answers the reads over REST and over MCP with each report's totals equal to the fake's
 * own to the cent: the profit and loss of a month with twelve months' comparison and of a year, the
 * balance sheet at two dates, the trial balance account by account, aged receivables and payables,
 * sales invoices and bills to pay. The fake enforces Intuit's rate limits and counts no 429. Both
 * dialects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { MemoryCallBudget, useCallBudget } from '../../src/accounting/call-budget.js';
import { createApiClient } from '../../src/auth/clients.js';
import { ConnectionKeys } from '../../src/domain/connection-keys.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { Browser } from '../helpers/browser.js';
import { movements, postingsOf, type Entity } from '../helpers/fake-quickbooks-book.js';
import { reportRow, startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { roasterFakeCompany } from '../helpers/fake-quickbooks-roaster.js';
import { fakeVendorClient } from '../helpers/fake-vendor-identity.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken } from '../helpers/rest-calls.js';
import { bothTransports } from '../helpers/both-transports.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-06-30';
const PASSWORD = 'correct horse battery';
const cents = (major: number) => Math.round(major * 100);

for (const dialect of DIALECTS) {
  describe(`a QuickBooks company that sells by item, connected through the pages [${dialect}]`, () => {
    let store: Store;
    let qb: FakeQuickBooks;
    let server: Awaited<ReturnType<typeof startServer>>;
    let token: string;
    let mcp: Connected;

    before(async () => {
      useCallBudget(new MemoryCallBudget());
      store = await openTestStore(dialect);
      qb = await startFakeQuickBooks({ company: roasterFakeCompany(), today: TODAY });
      const org = await provisionOrganisation(store.db, { name: 'Harbour Coffee', homeCurrency: 'USD', timeZone: 'America/Los_Angeles', fyStartMonth: 1 });
      const admin = await createUser(store.db, { email: `owner-${dialect}@roaster.test`, name: 'Owner', passwordHash: await hash(PASSWORD) });
      await setMembership(store.db, org.id, admin.id, 'admin');
      server = await startServer(store, {
        today: TODAY,
        resultCacheBytes: 0,
        // allowInsecureRequests: the fake's identity endpoints are http on 127.0.0.1, which openid-client refuses otherwise
        accountingConnections: { keys: ConnectionKeys.random(), quickbooks: fakeVendorClient(qb, 'quickbooks'), allowInsecureRequests: true },
      });

      // connected as a new user connects: the settings page's button, Intuit's sign-in, back
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      assert.equal((await browser.submit({ email: admin.email, password: PASSWORD })).response.status, 200);
      const path = `/orgs/${org.id}/accounting`;
      await browser.follow(path);
      const toIntuit = await browser.submit({}, { action: `${path}/connect/quickbooks` });
      const back = await fetch(toIntuit.url, { redirect: 'manual' });
      const done = await browser.follow(back.headers.get('location')!);
      assert.match(done.body, /Connected\. The books are now read from there\./);
      // named from the company's own record (item 7), not "QuickBooks company 9341…"
      assert.match(done.body, /Harbour Coffee Roasters/);

      token = await clientToken(store, server.baseUrl, org.id, ['service.read']);
      const own = await createApiClient(store.db, { organisationId: org.id, name: 'assistant' });
      const mcpUrl = `${server.baseUrl}/mcp`;
      mcp = await connectWithToken(mcpUrl, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcpUrl));
    });
    after(async () => {
      await mcp?.client.close();
      await server?.close();
      await store?.close();
      await qb?.close();
    });

    const { both } = bothTransports(() => ({ baseUrl: server.baseUrl, token, mcp }));
    const e = () => qb.company.entities;
    const summary = (report: any, label: string) => report.summary.find((l: any) => l.label === label).amounts.map(cents);
    const section = (report: any, title: string) => report.sections.find((s: any) => s.title === title)?.total.map(cents);
    /** a row of the fake's report, zeros when QuickBooks leaves it out (an account without a balance) */
    const row = (report: any, title: string, n: number) => {
      try {
        return reportRow(report, title);
      } catch {
        return Array.from({ length: n }, () => 0);
      }
    };
    /** an account's line of a Ledgerline report, by name (zeros when it has none) */
    const account = (report: any, name: string, n: number) =>
      report.sections
        .flatMap((s: any) => s.groups.flatMap((g: any) => [...(g.accounts ?? []), ...(g.name === name || g.title === name ? [g] : [])]))
        .find((a: any) => a.name === name || a.fullName === name)
        ?.amounts.map(cents) ?? Array.from({ length: n }, () => 0);
    /** each account's debit-positive balance (cents) at a date, from the fake's postings */
    const balances = (to: string, from?: string) => movements(postingsOf(qb.company), from, to);

    it('the profit and loss of a month compared with the twelve before, month by month, and of 2025: QuickBooks’ own to the cent', async () => {
      // QuickBooks' report by month: May 2025 … May 2026 and a Total column
      const fake = await qb.get('/reports/ProfitAndLoss?start_date=2025-05-01&end_date=2026-05-31&summarize_column_by=Month&accounting_method=Accrual');
      const byMonth = (title: string) => reportRow(fake, title).slice(0, 13).reverse();
      for (const pl of await both('reports.profit_and_loss', {
        period: 'custom',
        from: '2026-05-01',
        to: '2026-05-31',
        comparePeriods: 12,
        compareBy: 'month',
      })) {
        assert.equal(pl.periods.length, 13);
        assert.deepEqual(section(pl, 'Income'), byMonth('Total Income'), 'income, month by month');
        assert.deepEqual(summary(pl, 'Gross Profit'), byMonth('Gross Profit'));
        assert.deepEqual(summary(pl, 'Net Profit'), byMonth('Net Income'));
      }
      const year = await qb.get('/reports/ProfitAndLoss?start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Total&accounting_method=Accrual');
      for (const pl of await both('reports.profit_and_loss', { period: 'custom', from: '2025-01-01', to: '2025-12-31' })) {
        assert.deepEqual(section(pl, 'Income'), reportRow(year, 'Total Income'), '2025 income, every item-based sale in it');
        assert.deepEqual(summary(pl, 'Net Profit'), reportRow(year, 'Net Income'));
        for (const name of ['Training Income', 'Discounts Given']) assert.deepEqual(account(pl, name, 1), row(year, name, 1), name);
        // Coffee Sales with its sub-account Wholesale: QuickBooks' section total
        assert.deepEqual(
          account(pl, 'Coffee Sales', 1).map((v: number, k: number) => v + account(pl, 'Coffee Sales:Wholesale', 1)[k]!),
          row(year, 'Total Coffee Sales', 1),
        );
      }
    });

    it('the balance sheet at the end of 2025 and today: QuickBooks’ own totals to the cent', async () => {
      for (const date of ['2025-12-31', TODAY]) {
        const fake = await qb.get(`/reports/BalanceSheet?start_date=${date}&end_date=${date}&accounting_method=Accrual`);
        for (const bs of await both('reports.balance_sheet', { asAt: date })) {
          assert.deepEqual(summary(bs, 'Total Assets'), reportRow(fake, 'TOTAL ASSETS'), `assets at ${date}`);
          assert.deepEqual(summary(bs, 'Total Liabilities'), reportRow(fake, 'Total Liabilities'), `liabilities at ${date}`);
          assert.deepEqual(summary(bs, 'Total Equity'), reportRow(fake, 'Total Equity'), `equity at ${date}`);
          for (const name of ['Accounts Receivable (A/R)', 'Undeposited Funds', 'State Sales Tax Payable', 'Checking'])
            assert.deepEqual(account(bs, name, 1), row(fake, name, 1), `${name} at ${date}`);
        }
      }
    });

    it('the trial balance, account by account, is the books’ own', async () => {
      const bs = balances(TODAY);
      const pl = balances(TODAY, '2026-01-01');
      const earlier = balances('2025-12-31');
      const isPl = (a: Entity) => a.Classification === 'Revenue' || a.Classification === 'Expense';
      const retainedExtra = e()
        .Account.filter(isPl)
        .reduce((s, a) => s + (earlier.get(a.Id) ?? 0), 0);
      for (const trial of await both('reports.trial_balance', { date: TODAY })) {
        assert.equal(trial.balanced, true);
        for (const a of e().Account) {
          const expected = (isPl(a) ? pl.get(a.Id) : bs.get(a.Id)) ?? 0;
          const want = a.AccountSubType === 'RetainedEarnings' ? expected + retainedExtra : expected;
          const row = trial.accounts.find((r: any) => r.id === a.Id);
          assert.equal(row ? cents(row.debit) - cents(row.credit) : 0, want, a.Name);
        }
      }
    });

    it('aged receivables and payables: what QuickBooks says is owed, by customer and in all', async () => {
      const receivable = balances(TODAY).get('84')!;
      for (const aged of await both('reports.aged_receivables', { date: TODAY })) {
        assert.equal(cents(aged.totals.total), receivable, 'the receivables account: open invoices less the unused credit');
        assert.ok(receivable > 0);
        for (const c of e().Customer.filter((x) => x.Balance !== 0)) {
          assert.equal(cents(aged.contacts.find((r: any) => r.contact === c.DisplayName)?.total ?? 0), cents(c.Balance), c.DisplayName);
        }
      }
      const bills = e().Bill.filter((b) => b.Balance > 0);
      for (const aged of await both('reports.aged_payables', { date: TODAY })) {
        assert.equal(
          cents(aged.totals.total),
          bills.reduce((s, b) => s + cents(b.Balance), 0),
        );
      }
      for (const toPay of await both('bills.list_to_pay')) {
        assert.deepEqual(toPay.bills.map((b: any) => [b.invoiceNumber, cents(b.amountDue)]).sort(), bills.map((b) => [b.DocNumber, cents(b.Balance)]).sort());
      }
    });

    it('sales invoices: every invoice and the credit memo, their totals and what is still owed', async () => {
      const invoices = e().Invoice;
      const memo = e().CreditMemo[0]!;
      for (const listed of await both('sales.list_invoices', { period: 'custom', from: '2025-01-01', to: TODAY, limit: 100 })) {
        assert.equal(listed.totals.count, invoices.length + 1, '36 invoices and a credit memo');
        assert.equal(invoices.length, 36);
        assert.equal(cents(listed.totals.total), invoices.reduce((s, i) => s + cents(i.TotalAmt), 0) - cents(memo.TotalAmt));
        assert.equal(cents(listed.totals.amountDue), balances(TODAY).get('84'));
        const open = listed.invoices
          .filter((i: any) => i.type === 'invoice' && i.amountDue > 0)
          .map((i: any) => i.number)
          .sort();
        assert.ok(open.length >= 2, JSON.stringify(open));
      }
    });

    it("the ledger holds each item-based sale on its item's income account, a group item's lines included", async () => {
      const cafe = e().Invoice.find((i) => i.TxnDate === '2025-08-05')!;
      for (const ledger of await both('ledger.account_transactions', {
        account: 'Training Income',
        period: 'custom',
        from: '2025-08-01',
        to: '2025-08-31',
        reconcile: true,
      })) {
        // the starter kit's training, a line of a group item: the account's whole movement in August
        assert.equal(cents(ledger.movement), -(balances('2025-08-31', '2025-08-01').get('82') ?? 0));
        assert.equal(cents(ledger.movement), 15_000);
        assert.ok(JSON.stringify(ledger.reconciliation).includes(cafe.DocNumber), JSON.stringify(ledger.reconciliation).slice(0, 400));
      }
    });

    it('asked only what Intuit allows, within its limits', () => {
      assert.deepEqual(qb.violations, []);
      assert.deepEqual(qb.load.refused, [], 'no 429');
    });
  });
}
