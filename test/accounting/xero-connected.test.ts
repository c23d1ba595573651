/**
 * Issue 38, what must be true, for Xero: an organisation connected through its settings page (the
 * fake's Xero sign-in, asking for the scopes scopes.ts derives from Xero's contract, the fake
 * refusing any call whose scope the token lacks) answers the reads over REST and over MCP with each
 * report's totals equal to the fake Xero's own to the penny: the profit and loss of a month with
 * twelve months' comparison and of a year, the balance sheet at two dates, the trial balance
 * account by account, aged receivables and payables, sales invoices and bills to pay. The fake
 * enforces Xero's rate limits (a rolling minute, the calls at once) and counts no 429, and refuses
 * no call for want of a scope. Both dialects.
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
import { CLASS_OF, journalsOf, movements } from '../helpers/fake-xero-book.js';
import { reportRow, startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { fakeVendorClient } from '../helpers/fake-vendor-identity.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken } from '../helpers/rest-calls.js';
import { bothTransports } from '../helpers/both-transports.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-06-30';
const PASSWORD = 'correct horse battery';
const pence = (major: number) => Math.round(major * 100);

for (const dialect of DIALECTS) {
  describe(`a Xero organisation connected through the pages [${dialect}]`, () => {
    let store: Store;
    let xero: FakeXero;
    let server: Awaited<ReturnType<typeof startServer>>;
    let token: string;
    let mcp: Connected;

    before(async () => {
      useCallBudget(new MemoryCallBudget());
      store = await openTestStore(dialect);
      xero = await startFakeXero({ today: TODAY });
      const org = await provisionOrganisation(store.db, { name: 'Harbour', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
      const admin = await createUser(store.db, { email: `owner-${dialect}@harbour.test`, name: 'Owner', passwordHash: await hash(PASSWORD) });
      await setMembership(store.db, org.id, admin.id, 'admin');
      server = await startServer(store, {
        today: TODAY,
        resultCacheBytes: 0,
        // allowInsecureRequests: the fake's identity endpoints are http on 127.0.0.1, which openid-client refuses otherwise
        accountingConnections: { keys: ConnectionKeys.random(), xero: fakeVendorClient(xero, 'xero'), allowInsecureRequests: true },
      });

      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      assert.equal((await browser.submit({ email: admin.email, password: PASSWORD })).response.status, 200);
      const path = `/orgs/${org.id}/accounting`;
      await browser.follow(path);
      const toXero = await browser.submit({}, { action: `${path}/connect/xero` });
      const back = await fetch(toXero.url, { redirect: 'manual' });
      const done = await browser.follow(back.headers.get('location')!);
      assert.match(done.body, /Connected\. The books are now read from there\./);
      assert.match(done.body, new RegExp(xero.book.name));

      token = await clientToken(store, server.baseUrl, org.id, ['service.read']);
      const own = await createApiClient(store.db, { organisationId: org.id, name: 'assistant' });
      const mcpUrl = `${server.baseUrl}/mcp`;
      mcp = await connectWithToken(mcpUrl, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcpUrl));
    });
    after(async () => {
      await mcp?.client.close();
      await server?.close();
      await store?.close();
      await xero?.close();
    });

    const { both } = bothTransports(() => ({ baseUrl: server.baseUrl, token, mcp }));
    const summary = (report: any, label: string) => report.summary.find((l: any) => l.label === label).amounts.map(pence);
    const section = (report: any, title: string) => report.sections.find((s: any) => s.title === title)?.total.map(pence);
    const balances = (to: string, from?: string) => movements(journalsOf(xero.book), from, to);
    const accountOf = (code: string) => xero.book.accounts.find((a) => a.code === code)!;

    it("the profit and loss of a month compared with the twelve before, and of 2025: Xero's own to the penny", async () => {
      const fake = await xero.get('/Reports/ProfitAndLoss?fromDate=2026-05-01&toDate=2026-05-31&periods=12&timeframe=MONTH');
      for (const pl of await both('reports.profit_and_loss', {
        period: 'custom',
        from: '2026-05-01',
        to: '2026-05-31',
        comparePeriods: 12,
        compareBy: 'month',
      })) {
        assert.equal(pl.periods.length, 13);
        assert.deepEqual(section(pl, 'Income'), reportRow(fake, 'Total Income'));
        assert.deepEqual(summary(pl, 'Gross Profit'), reportRow(fake, 'Gross Profit'));
        assert.deepEqual(summary(pl, 'Net Profit'), reportRow(fake, 'Net Profit'));
      }
      const year = await xero.get('/Reports/ProfitAndLoss?fromDate=2025-01-01&toDate=2025-12-31');
      for (const pl of await both('reports.profit_and_loss', { period: 'custom', from: '2025-01-01', to: '2025-12-31' })) {
        assert.deepEqual(section(pl, 'Income'), reportRow(year, 'Total Income'));
        assert.deepEqual(summary(pl, 'Net Profit'), reportRow(year, 'Net Profit'));
      }
    });

    it("the balance sheet at the end of 2025 and today: Xero's own totals to the penny", async () => {
      for (const date of ['2025-12-31', TODAY]) {
        const fake = await xero.get(`/Reports/BalanceSheet?date=${date}`);
        for (const bs of await both('reports.balance_sheet', { asAt: date })) {
          assert.deepEqual(summary(bs, 'Total Assets'), reportRow(fake, 'Total Assets'), `assets at ${date}`);
          assert.deepEqual(summary(bs, 'Total Liabilities'), reportRow(fake, 'Total Liabilities'), `liabilities at ${date}`);
          assert.deepEqual(summary(bs, 'Total Equity'), reportRow(fake, 'Total Equity'), `equity at ${date}`);
        }
      }
    });

    it("the trial balance, account by account, is the journals' own", async () => {
      const bs = balances(TODAY);
      const pl = balances(TODAY, '2026-01-01');
      const earlier = balances('2025-12-31');
      const isPl = (cls: string) => cls === 'REVENUE' || cls === 'EXPENSE';
      const retainedExtra = xero.book.accounts.filter((a) => isPl(CLASS_OF[a.type])).reduce((s, a) => s + (earlier.get(a.id) ?? 0), 0);
      for (const trial of await both('reports.trial_balance', { date: TODAY, includeZero: true })) {
        assert.equal(trial.balanced, true);
        for (const a of xero.book.accounts) {
          const own = (isPl(CLASS_OF[a.type]) ? pl.get(a.id) : bs.get(a.id)) ?? 0;
          const want = a.systemAccount === 'RETAINEDEARNINGS' ? own + retainedExtra : own;
          const row = trial.accounts.find((r: any) => r.id === a.id);
          assert.equal(row ? pence(row.debit) - pence(row.credit) : 0, want, a.name);
        }
      }
    });

    it('aged receivables and payables, sales invoices and bills to pay: what Xero says is owed', async () => {
      const receivable = balances(TODAY).get(accountOf('610').id) ?? 0;
      assert.ok(receivable > 0);
      for (const aged of await both('reports.aged_receivables', { date: TODAY })) assert.equal(pence(aged.totals.total), receivable);
      const owed = xero.book.invoices
        .filter((i) => i.type === 'ACCPAY')
        .map((i) => ({ number: i.number, due: i.lines.reduce((s, l) => s + l.amount + (l.tax ?? 0), 0) - i.payments.reduce((s, p) => s + p.amount, 0) }))
        .filter((b) => b.due > 0);
      for (const aged of await both('reports.aged_payables', { date: TODAY }))
        assert.equal(
          pence(aged.totals.total),
          owed.reduce((s, b) => s + b.due, 0),
        );
      for (const toPay of await both('bills.list_to_pay'))
        assert.deepEqual(toPay.bills.map((b: any) => [b.invoiceNumber, pence(b.amountDue)]).sort(), owed.map((b) => [b.number, b.due]).sort());
      const sales = xero.book.invoices.filter((i) => i.type === 'ACCREC');
      for (const listed of await both('sales.list_invoices', { period: 'custom', from: '2025-01-01', to: TODAY })) {
        assert.equal(listed.totals.count, sales.length);
        assert.equal(
          pence(listed.totals.total),
          sales.reduce((s, i) => s + i.lines.reduce((t, l) => t + l.amount + (l.tax ?? 0), 0), 0),
        );
        assert.equal(pence(listed.totals.amountDue), receivable);
      }
    });

    it('asked only what the contract allows, with the scopes granted, within Xero’s limits', () => {
      assert.deepEqual(xero.violations, []);
      assert.deepEqual(xero.scopeRefusals, []);
      assert.deepEqual(xero.load.refused, [], 'no 429');
    });
  });
}
