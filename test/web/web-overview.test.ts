/**
 * The organisation overview (issue 18 item 4): on the demo's books, the page shows what the
 * operations answer (the profit and loss, the balance sheet, bank balances and bills due), for
 * admins only, and a part the organisation's role policy refuses to the viewer is refused on the page too.
 */
import assert from 'node:assert/strict';
import { humanDate } from '../../src/domain/dates.js';
import { after, before, describe, it } from 'node:test';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { DEMO_PASSWORD } from '../../src/demo/users.js';
import { bankingAccounts } from '../../src/operations/banking-accounts.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import type { Store } from '../../src/store/db.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import { escapeHtml } from '../../src/web/html.js';
import { axisTicks, compactNumber } from '../../src/web/pages/svg-chart.js';
import { Browser } from '../helpers/browser.js';
import { call } from '../helpers/call.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const TODAY = '2026-11-21';
const MONTHLY = { period: 'last_month', comparePeriods: 11, compareBy: 'month' };

/** Written independently of the page's own formatter: two decimals, thousands separated. */
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A table row as the page writes it: the label, then one cell per month, oldest first. */
const row = (label: string, amounts: number[]) =>
  `<th scope="row">${escapeHtml(label)}</th>${[...amounts]
    .reverse()
    .map((n) => `<td class="num">${money(n)}</td>`)
    .join('')}</tr>`;

it('chart axes: round steps that take in zero and every value, and short labels', () => {
  assert.deepEqual(axisTicks([-1980, 3000]), [-2000, 0, 2000, 4000]);
  assert.deepEqual(axisTicks([441013.41, 62823.07]), [0, 200000, 400000, 600000]);
  assert.deepEqual(axisTicks([-835.76, -1359.64]), [-1500, -1000, -500, 0]);
  assert.deepEqual(axisTicks([]), [0, 0.25, 0.5, 0.75, 1], 'nothing to show still draws an axis');
  assert.deepEqual([-1500, 0, 2500, 40000, 1_200_000].map(compactNumber), ['-1.5k', '0', '2.5k', '40k', '1.2M']);
});

for (const dialect of DIALECTS) {
  describe(`organisation overview page [${dialect}]`, () => {
    let store: Store;
    let demo: DemoSummary;
    let server: Awaited<ReturnType<typeof startServer>>;
    let orgId: string;

    before(async () => {
      store = await openTestStore(dialect);
      demo = await generateDemo(store, { date: TODAY, seed: 7, scale: 1 });
      orgId = demo.organisations.find((o) => o.name === 'Northwind Studio Ltd')!.id;
      server = await startServer(store, { today: TODAY });
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    async function signedIn(email: string) {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const page = await browser.submit({ email, password: DEMO_PASSWORD });
      assert.equal(page.response.status, 200);
      return browser;
    }
    const ask = (op: Parameters<typeof call>[1], input: Record<string, unknown>) => call(store, op, orgId, input, { today: TODAY });

    it("an admin sees the operations' own numbers: profit and loss, balance sheet, bank balances and bills due", async () => {
      const browser = await signedIn('bob@demo.ledgerline.test');
      const { response, body } = await browser.follow(`/orgs/${orgId}/overview`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
      assert.match(body, /aria-current="page">Overview</);

      const pl = await ask(reportsProfitAndLoss, MONTHLY);
      assert.equal(pl.periods.length, 12);
      assert.equal(pl.periods[0].from, '2026-10-01', 'last month first: the twelve complete months');
      for (const s of pl.sections) assert.ok(body.includes(row(s.title, s.total)), `profit and loss: ${s.title}`);
      for (const s of pl.summary) assert.ok(body.includes(row(s.label, s.amounts)), `profit and loss: ${s.label}`);
      assert.ok(
        pl.summary.some((s: any) => s.label === 'Net Profit' && s.amounts.some((n: number) => n !== 0)),
        'the demo has a profit to show',
      );
      assert.match(body, /<svg class="chart"[^>]*role="img"[^>]*aria-labelledby="chart-pl-title chart-pl-desc"/);

      const bs = await ask(reportsBalanceSheet, MONTHLY);
      assert.equal(bs.periods[0].to, '2026-10-31');
      for (const s of bs.summary) assert.ok(body.includes(row(s.label, s.amounts)), `balance sheet: ${s.label}`);
      for (const s of bs.sections) for (const g of s.groups) assert.ok(body.includes(row(`${s.title}: ${g.title}`, g.total)), `balance sheet: ${g.title}`);

      const accounts = await ask(bankingAccounts, {});
      assert.ok(accounts.count > 0);
      for (const a of accounts.accounts) {
        // which figure it is: the bank's (from statements), only the imported lines, or the books'; and beside it the books' and what is to reconcile
        const label =
          a.balanceBasis === 'books'
            ? 'In the books (nothing imported)'
            : `${a.balanceBasis === 'transactions' ? 'Imported lines' : 'Bank balance'}${a.balanceDate ? ` at ${humanDate(a.balanceDate)}` : ''}`;
        assert.ok(body.includes(`${label} <strong>${money(a.balance)} ${a.currency}</strong>`), `${a.name} now`);
        if (a.bookBalance !== null && a.balanceBasis !== 'books')
          assert.ok(body.includes(`In the books ${money(a.bookBalance)} ${a.currency}`), `${a.name} in the books`);
        if (a.id.includes(':')) continue;
        const october = await ask(bankingTransactions, { account: a.id, period: 'custom', from: '2026-10-01', to: '2026-10-31', limit: 1 });
        // the table row: name, currency, twelve month ends (October last), then now
        const cells = new RegExp(
          `<th scope="row">${escapeHtml(a.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</th><td>${a.currency}</td>((?:<td class="num">[^<]*</td>){13})</tr>`,
        ).exec(body);
        assert.ok(cells, `${a.name} has a row of month ends`);
        const values = [...cells[1]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
        assert.equal(values[11], money(october.totals.closingBalance), `${a.name} at the end of October`);
        assert.equal(values[12], money(a.balance));
      }

      const bills = await ask(billsListToPay, { limit: 10 });
      assert.ok(bills.count > 0);
      assert.ok(body.includes(`<strong>${bills.count}</strong> bills to pay`));
      assert.ok(body.includes(`Total <strong>${money(bills.total)} ${bills.baseCurrency}</strong>`));
      for (const b of bills.bills)
        assert.ok(
          body.includes(`<td>${escapeHtml(b.supplier)}</td><td>${escapeHtml(b.invoiceNumber)}</td><td class="num">${money(b.amountDue)}</td>`),
          b.invoiceNumber,
        );
    });

    it('the overview is one of the organisation tabs, and names are escaped', async () => {
      const browser = await signedIn('bob@demo.ledgerline.test');
      const settings = await browser.follow(`/orgs/${orgId}/api-clients`);
      assert.match(settings.body, new RegExp(`<a href="/orgs/${orgId}/overview" >Overview</a>`));
      const accounts = await ask(bankingAccounts, {});
      const target = accounts.accounts.find((a: any) => !a.id.includes(':'))!;
      const original = target.name;
      await store.db.updateTable('bank_accounts').set({ name: 'Float <script>alert(1)</script> & "Co"' }).where('id', '=', target.id).execute();
      try {
        const { body } = await browser.follow(`/orgs/${orgId}/overview`);
        assert.ok(!body.includes('<script>alert(1)'));
        assert.ok(body.includes('Float &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;'));
      } finally {
        await store.db.updateTable('bank_accounts').set({ name: original }).where('id', '=', target.id).execute();
      }
    });

    it('a submitter is refused the page; an admin whose role the policy leaves out of an operation is refused that part', async () => {
      const carol = await signedIn('carol@demo.ledgerline.test');
      const refused = await carol.follow(`/orgs/${orgId}/overview`);
      assert.equal(refused.response.status, 403);
      assert.doesNotMatch(refused.body, /Net Profit|Bills due/);

      const pl = await ask(reportsProfitAndLoss, MONTHLY);
      const net = pl.summary.find((s: any) => s.label === 'Net Profit');
      await setRoleAllowed(store.db, orgId, 'reports.profit_and_loss', 'admin', false);
      await setRoleAllowed(store.db, orgId, 'banking.accounts', 'admin', false);
      try {
        const bob = await signedIn('bob@demo.ledgerline.test');
        const { response, body } = await bob.follow(`/orgs/${orgId}/overview`);
        assert.equal(response.status, 200, 'the parts the policy allows are still shown');
        assert.match(body, /The profit and loss is not shown\.<\/strong> Your role \(admin\) may not call reports\.profit_and_loss/);
        assert.match(body, /Bank and card balances are not shown\.<\/strong> Your role \(admin\) may not call banking\.accounts/);
        assert.ok(!body.includes(row('Net Profit', net.amounts)), "none of the refused report's numbers");
        assert.ok(!body.includes('chart-pl-title'));
        const bs = await ask(reportsBalanceSheet, MONTHLY);
        assert.ok(body.includes(row('Total Assets', bs.summary.find((s: any) => s.label === 'Total Assets').amounts)), 'the balance sheet is still there');
        // a super admin's role is allowed, so Alice sees it all
        const alice = await signedIn('alice@demo.ledgerline.test');
        const all = await alice.follow(`/orgs/${orgId}/overview`);
        assert.ok(all.body.includes(row('Net Profit', net.amounts)));
        assert.doesNotMatch(all.body, /data-refused/);
      } finally {
        await setRoleAllowed(store.db, orgId, 'reports.profit_and_loss', 'admin', true);
        await setRoleAllowed(store.db, orgId, 'banking.accounts', 'admin', true);
      }
    });
  });
}
