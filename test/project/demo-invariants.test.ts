/**
 * The accounting identities over the whole demo history, through the operations: every month end
 * balances, each financial year's net profit is the movement in equity it causes, ledger totals are
 * the sum of their lines (also when limit cuts the list), and bank closing balances follow.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { addDays, addMonths, endOfMonth } from '../../src/domain/dates.js';
import { financialYearStart } from '../../src/domain/periods.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { call } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

const TODAY = '2026-11-21';
const cents = (n: number) => Math.round(n * 100);
const summary = (r: any, label: string): number[] => r.summary.find((l: any) => l.label === label).amounts;
const line = (r: any, name: string, i: number): number =>
  r.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts)).find((a: any) => a.name === name)?.amounts[i] ?? 0;

let demo: DemoSummary;

describeEachDialect(
  'demo invariants',
  (store) => {
    it('every month end of every organisation balances', async () => {
      for (const org of demo.organisations) {
        const ends: string[] = [];
        for (let d = endOfMonth(demo.from); d <= TODAY; d = endOfMonth(addMonths(d, 1))) ends.push(d);
        // 13 dates per call: the date and the 12 month ends before it
        for (let i = ends.length - 1; i >= 0; i -= 13) {
          const r = await call(store(), reportsBalanceSheet, org.id, { asAt: ends[i], compareBy: 'month', comparePeriods: 12 }, { today: TODAY });
          const assets = summary(r, 'Total Assets').map(cents);
          const liabilitiesAndEquity = summary(r, 'Total Liabilities and Equity').map(cents);
          assert.deepEqual(assets, liabilitiesAndEquity, `${org.name} at ${ends[i]}`);
          assert.ok(assets[0]! > 0, `${org.name} has assets at ${ends[i]}`);
        }
      }
    });

    it("a financial year's net profit is the movement in equity it causes", async () => {
      for (const org of demo.organisations) {
        const lastYearStart = addMonths(financialYearStart(TODAY, org.fyStartMonth), -12);
        const yearEnd = addDays(addMonths(lastYearStart, 12), -1);
        const pl = await call(store(), reportsProfitAndLoss, org.id, { period: 'last_year' }, { today: TODAY });
        const netProfit = cents(summary(pl, 'Net Profit')[0]!);
        assert.notEqual(netProfit, 0);
        const bs = await call(store(), reportsBalanceSheet, org.id, { asAt: addDays(yearEnd, 1), compareBy: 'year', comparePeriods: 1 }, { today: TODAY });
        // at the year end the year's profit is this year's earnings; the day after, it has moved to retained earnings
        const atEnd = await call(store(), reportsBalanceSheet, org.id, { asAt: yearEnd }, { today: TODAY });
        assert.equal(cents(line(atEnd, 'Current Year Earnings', 0)), netProfit, org.name);
        const retainedAfter = cents(line(bs, 'Equity:Retained Earnings', 0) || line(bs, 'Retained Earnings', 0));
        const retainedAtEnd = cents(line(atEnd, 'Equity:Retained Earnings', 0) || line(atEnd, 'Retained Earnings', 0));
        assert.equal(retainedAfter - retainedAtEnd, netProfit, `${org.name}: retained earnings grow by the year's profit`);
      }
    });

    it('ledger totals are the sum of their lines, also when limit cuts the list', async () => {
      for (const org of demo.organisations) {
        const accounts = await store()
          .db.selectFrom('acct_accounts')
          .select(['full_name'])
          .where('organisation_id', '=', org.id)
          .where('classification', '=', 'Expense')
          .execute();
        for (const { full_name } of accounts) {
          const all = await call(store(), ledgerAccountTransactions, org.id, { account: full_name, period: 'last_year', limit: 1000 }, { today: TODAY });
          if (all.count === 0) continue;
          assert.ok(all.count <= 1000, 'the demo at scale 1 fits one page');
          assert.equal(
            cents(all.total),
            all.transactions.reduce((s: number, t: any) => s + cents(t.amount), 0),
            `${org.name} ${full_name}`,
          );
          const cut = await call(store(), ledgerAccountTransactions, org.id, { account: full_name, period: 'last_year', limit: 1 }, { today: TODAY });
          assert.deepEqual([cut.total, cut.count, cut.truncated], [all.total, all.count, all.count > 1]);
          const byMonth = await call(
            store(),
            ledgerAccountTransactions,
            org.id,
            { account: full_name, period: 'last_year', groupBy: 'month' },
            { today: TODAY },
          );
          assert.equal(
            byMonth.groups.reduce((s: number, g: any) => s + cents(g.total), 0),
            cents(all.total),
          );
        }
      }
    });

    it('bank closing balances are opening plus money in minus money out', async () => {
      for (const org of demo.organisations) {
        const accounts = await store().db.selectFrom('bank_accounts').select(['id']).where('organisation_id', '=', org.id).execute();
        for (const account of [...accounts.map((a) => a.id), undefined]) {
          for (const period of ['last_year', 'ytd', 'this_month']) {
            const r = await call(store(), bankingTransactions, org.id, { ...(account ? { account } : {}), period, limit: 1 }, { today: TODAY });
            const t = r.totals;
            assert.equal(cents(t.closingBalance), cents(t.openingBalance) + cents(t.moneyIn) - cents(t.moneyOut), `${org.name} ${account ?? 'all'} ${period}`);
            assert.equal(t.transactions, t.toReconcile + t.reconciled);
          }
        }
      }
    });
  },
  async (s) => {
    demo = await generateDemo(s, { date: TODAY, seed: 3, scale: 1 });
  },
);
