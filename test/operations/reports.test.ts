import assert from 'node:assert/strict';
import { it } from 'node:test';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { call, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

type Books = Awaited<ReturnType<typeof buildBooks>>;
const summary = (r: any, label: string) => r.summary.find((l: any) => l.label === label)?.amounts;
const section = (r: any, title: string) => r.sections.find((s: any) => s.title === title);
const line = (r: any, name: string) => r.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts)).find((a: any) => a.name === name)?.amounts;

let books: Books;
describeEachDialect(
  'reports',
  (store) => {
    const pl = (input: Record<string, unknown>, text = false) => call(store(), reportsProfitAndLoss, books.org.id, input, { today: TODAY, text });
    const bs = (input: Record<string, unknown>, text = false) => call(store(), reportsBalanceSheet, books.org.id, input, { today: TODAY, text });

    it('profit and loss for this month (the default), exact to the penny', async () => {
      const r = await pl({});
      assert.equal(r.period, 'this_month');
      assert.deepEqual(r.periods, [{ label: 'Nov 2026', from: '2026-11-01', to: '2026-11-30' }]);
      assert.equal(r.currency, 'GBP');
      assert.equal(r.organisation, 'Test Books Ltd');
      assert.deepEqual(section(r, 'Income').total, [3000]);
      assert.deepEqual(section(r, 'Cost of Sales').total, [1200]);
      assert.deepEqual(summary(r, 'Gross Profit'), [1800]);
      const office = section(r, 'Operating Expenses').groups.find((g: any) => g.title === 'Office');
      assert.deepEqual(office.total, [15]);
      assert.deepEqual(office.accounts, [
        { name: 'Office', amounts: [15] },
        { name: 'Office:Software', amounts: [4] },
        { name: 'Office:Stationery', amounts: [-4] },
      ]);
      assert.deepEqual(section(r, 'Other Income').total, [5.25]);
      assert.deepEqual(section(r, 'Other Expenses').total, [2]);
      assert.deepEqual(summary(r, 'Net Profit'), [1788.25]);
      assert.equal(r.compareBy, 'none');
      assert.equal(r.comparePeriods, 0);
    });

    it('compares by month and by year, one amount per period, current first', async () => {
      const r = await pl({ comparePeriods: 2, compareBy: 'month' });
      assert.deepEqual(
        r.periods.map((p: any) => p.label),
        ['Nov 2026', 'Oct 2026', 'Sep 2026'],
      );
      assert.deepEqual(summary(r, 'Net Profit'), [1788.25, -1980, -20]);
      assert.deepEqual(line(r, 'Office:Software'), [4, -20, 20]);
      assert.deepEqual(line(r, 'Rent'), [0, 2000, 0]);
      for (const s of r.sections) for (const g of s.groups) for (const a of g.accounts) assert.equal(a.amounts.length, 3);
      const y = await pl({ compareBy: 'year' }, true);
      assert.deepEqual(
        y.periods.map((p: any) => p.from),
        ['2026-11-01', '2025-11-01'],
      );
      assert.deepEqual(summary(y, 'Net Profit'), [1788.25, -3000]);
      assert.equal(y.comparePeriods, 1);
    });

    it('year to date follows the April financial year', async () => {
      const r = await pl({ period: 'ytd' });
      assert.deepEqual([r.periods[0].from, r.periods[0].to], ['2026-04-01', '2026-11-21']);
      assert.deepEqual(section(r, 'Operating Expenses').total, [2156.5]);
      assert.deepEqual(summary(r, 'Net Profit'), [-353.25]);
      const last = await pl({ period: 'last_year' });
      assert.deepEqual(summary(last, 'Net Profit'), [4500], 'FY 2025/26: sales 10,000 - wages 3,000 - rent 2,000 - depreciation 500');
    });

    it('custom periods that start and end mid-month', async () => {
      const r = await pl({ period: 'custom', from: '2026-09-03', to: '2026-11-14' });
      assert.deepEqual(line(r, 'Office:Software'), [-30], 'refund -10, credit -20; the charge on 2 Sep is outside');
      assert.deepEqual(summary(r, 'Net Profit'), [-2000 - 15 + 5.25 + 30]);
      const leap = await pl({ from: '2024-02-29', to: '2024-02-29' }, true);
      assert.deepEqual(summary(leap, 'Net Profit'), [-1]);
    });

    it('balance sheet at today balances, with retained and current year earnings', async () => {
      const r = await bs({});
      assert.equal(r.period, 'as_at');
      assert.deepEqual(r.periods, [{ label: 'As at 21 Nov 2026', from: TODAY, to: TODAY }]);
      assert.deepEqual(line(r, 'Current Account'), [58932.65]);
      assert.deepEqual(line(r, 'Equipment:Accumulated Depreciation'), [-500]);
      assert.deepEqual(summary(r, 'Total Assets'), [62032.65]);
      assert.deepEqual(summary(r, 'Total Liabilities'), [7886.9]);
      assert.deepEqual(line(r, 'Retained Earnings'), [4499]);
      assert.deepEqual(line(r, 'Current Year Earnings'), [-353.25]);
      assert.deepEqual(summary(r, 'Total Equity'), [54145.75]);
      assert.deepEqual(summary(r, 'Total Liabilities and Equity'), [62032.65]);
    });

    it('balance sheet compared with month ends and a year back', async () => {
      const r = await bs({ comparePeriods: 2, compareBy: 'month' });
      assert.deepEqual(
        r.periods.map((p: any) => p.to),
        ['2026-11-21', '2026-10-31', '2026-09-30'],
      );
      assert.deepEqual(summary(r, 'Total Assets'), [62032.65, 58444.4, 58444.4]);
      assert.deepEqual(summary(r, 'Total Assets'), summary(r, 'Total Liabilities and Equity'));
      const y = await bs({ asAt: '2025-03-31', compareBy: 'year', comparePeriods: 1 });
      assert.deepEqual(
        y.periods.map((p: any) => p.to),
        ['2025-03-31', '2024-03-31'],
      );
      assert.deepEqual(summary(y, 'Total Assets'), [49999, 49999]);
      // the leap-day fee is this year's earnings on 2024-03-31 and retained a year later
      assert.deepEqual(line(y, 'Current Year Earnings'), [0, -1]);
      assert.deepEqual(line(y, 'Retained Earnings'), [-1, 0]);
      assert.deepEqual(summary(y, 'Total Liabilities and Equity'), [49999, 49999]);
      const lastMonth = await bs({ period: 'last_month' });
      assert.deepEqual(lastMonth.periods[0].to, '2026-10-31');
    });

    it('the balance sheet balances at every month end of the books', async () => {
      const dates = [];
      for (let m = 0; m < 36; m++) {
        const d = new Date(Date.UTC(2024, m + 1, 0));
        dates.push(d.toISOString().slice(0, 10));
      }
      for (const asAt of dates) {
        const r = await bs({ asAt });
        assert.deepEqual(summary(r, 'Total Assets'), summary(r, 'Total Liabilities and Equity'), asAt);
      }
    });

    it('the balance sheet reads its balances and its prior years in one statement, however many dates it compares', async () => {
      const counted = countingQueries(store().db);
      const counting = { ...store(), db: counted.db };
      const statements = async (input: Record<string, unknown>) => {
        const before = counted.count();
        await call(counting, reportsBalanceSheet, books.org.id, input, { today: TODAY });
        return counted.count() - before;
      };
      // the chart is read by the first call and kept; each call then reads the organisation's row and the totals
      await statements({});
      assert.equal(await statements({ asAt: '2026-11-14' }), 2);
      assert.equal(await statements({ comparePeriods: 12, compareBy: 'month' }), 2);
      assert.equal(await statements({ asAt: '2026-06-15', comparePeriods: 3, compareBy: 'year' }), 2);
    });

    it(
      'the account totals are compiled once per shape (store/prepared.ts): the same report again builds nothing, and another shape answers its ' + 'own',
      async () => {
        const counted = countingQueries(store().db);
        const counting = { ...store(), db: counted.db };
        for (const [op, input] of [
          [reportsProfitAndLoss, { comparePeriods: 2, compareBy: 'month' }],
          [reportsProfitAndLoss, { period: 'custom', from: '2026-09-03', to: '2026-11-14' }],
          [reportsBalanceSheet, { comparePeriods: 2, compareBy: 'month' }],
          [reportsBalanceSheet, { asAt: '2025-03-31', compareBy: 'year', comparePeriods: 1 }],
        ] as const) {
          const first = await call(counting, op, books.org.id, input, { today: TODAY });
          const compiled = counted.compiled();
          assert.deepEqual(await call(counting, op, books.org.id, input, { today: TODAY }), first, JSON.stringify(input));
          assert.equal(counted.compiled() - compiled, 0, JSON.stringify(input));
          // the same shape through the uncounted handle answers the same
          assert.deepEqual(await call(store(), op, books.org.id, input, { today: TODAY }), first);
        }
      },
    );

    it('refuses invalid report parameters, naming each', async () => {
      const e1 = await rejection(() => pl({ comparePeriods: 13, compareBy: 'week', extra: 1 }));
      assert.equal(e1.status, 400);
      assert.deepEqual(e1.errors.map((e: any) => e.parameter).sort(), ['compareBy', 'comparePeriods', 'extra']);
      const e2 = await rejection(() => pl({ period: 'custom', from: '2026-02-30' }, true));
      assert.deepEqual(e2.errors.map((e: any) => e.parameter).sort(), ['from']);
      const e3 = await rejection(() => pl({ period: 'custom', from: '2026-03-01' }));
      assert.deepEqual(e3.errors, [{ parameter: 'to', message: 'is required with period custom (last day, yyyy-MM-dd)' }]);
      const e4 = await rejection(() => pl({ period: 'ytd', from: '2026-03-01', to: '2026-03-02' }));
      assert.deepEqual(
        e4.errors.map((e: any) => e.parameter),
        ['from', 'to'],
      );
      const e5 = await rejection(() => pl({ from: '2026-03-02', to: '2026-03-01' }));
      assert.match(e5.errors[0].message, /must not be before from/);
      const e6 = await rejection(() => bs({ asAt: '2026-01-01', period: 'ytd' }));
      assert.equal(e6.errors[0].parameter, 'period');
      const e7 = await rejection(() => bs({ period: 'custom' }));
      assert.equal(e7.errors[0].parameter, 'period');
      const e8 = await rejection(() => pl({ comparePeriods: 'two' }, true));
      assert.equal(e8.errors[0].message, 'must be a whole number from 1 to 12');
      const e9 = await rejection(() => pl({ comparePeriods: 0 }, true));
      assert.equal(e9.errors[0].parameter, 'comparePeriods');
    });

    it('the chart of accounts: active only by default, search across name, full name and number', async () => {
      const all = await call(store(), accountsList, books.org.id, {}, { today: TODAY });
      assert.equal(all.count, 19);
      assert.ok(!all.accounts.some((a: any) => a.name === 'Old Expenses'));
      const inactive = await call(store(), accountsList, books.org.id, { includeInactive: 'true' }, { today: TODAY, text: true });
      assert.equal(inactive.count, 20);
      const software = await call(store(), accountsList, books.org.id, { search: 'office soft' }, { today: TODAY });
      assert.deepEqual(software.accounts, [
        {
          id: books.ids.software,
          name: 'Software',
          fullName: 'Office:Software',
          number: '6010',
          type: 'Expense',
          classification: 'Expense',
          active: true,
          parentId: books.ids.office,
        },
      ]);
      const byNumber = await call(store(), accountsList, books.org.id, { search: '61' }, { today: TODAY });
      assert.deepEqual(
        byNumber.accounts.map((a: any) => a.fullName),
        ['Rent'],
      );
      // a word matches the start of a word, not letters inside one: "rent" is not in "Current Account"
      const rent = await call(store(), accountsList, books.org.id, { search: 'rent' }, { today: TODAY });
      assert.deepEqual(
        rent.accounts.map((a: any) => a.fullName),
        ['Rent'],
      );
      const starts = await call(store(), accountsList, books.org.id, { search: 'CURR acc' }, { today: TODAY });
      assert.deepEqual(
        starts.accounts.map((a: any) => a.fullName),
        ['Current Account'],
      );
      const inside = await call(store(), accountsList, books.org.id, { search: 'ware' }, { today: TODAY });
      assert.deepEqual(inside.accounts, [], '"ware" is inside Software, at the start of no word');
      const byPart = await call(store(), accountsList, books.org.id, { search: 'office:soft' }, { today: TODAY });
      assert.deepEqual(
        byPart.accounts.map((a: any) => a.fullName),
        ['Office:Software'],
        'a full name as written finds its account',
      );
      const bad = await rejection(() => call(store(), accountsList, books.org.id, { includeInactive: 'yes' }, { today: TODAY, text: true }));
      assert.equal(bad.errors[0].message, 'must be true or false');
    });

    it('a required parameter left out "is required", whatever its type (not "must be text")', async () => {
      const missing = await rejection(() => call(store(), ledgerAccountTransactions, books.org.id, {}, { today: TODAY, text: true }));
      assert.deepEqual(missing.errors, [{ parameter: 'account', message: 'is required' }]);
      const empty = await rejection(() => call(store(), ledgerAccountTransactions, books.org.id, { account: '' }, { today: TODAY, text: true }));
      assert.deepEqual(empty.errors, [{ parameter: 'account', message: 'is required' }], 'an empty query value is an absent one');
      const inJson = await rejection(() => call(store(), ledgerAccountTransactions, books.org.id, { period: 'ytd' }, { today: TODAY }));
      assert.deepEqual(inJson.errors, [{ parameter: 'account', message: 'is required' }]);
      const wrongType = await rejection(() => call(store(), ledgerAccountTransactions, books.org.id, { account: 42 }, { today: TODAY }));
      assert.deepEqual(wrongType.errors, [{ parameter: 'account', message: 'must be text' }], 'given, but not text');
    });

    it('every role may read reports by default; the policy is read on every call', async () => {
      const { asUser } = await import('../helpers/call.js');
      const r = await call(store(), reportsProfitAndLoss, books.org.id, {}, { today: TODAY, principal: asUser(books.users.submitter.id) });
      assert.deepEqual(summary(r, 'Net Profit'), [1788.25]);
      const { setRoleAllowed } = await import('../../src/store/role-policy.js');
      await setRoleAllowed(store().db, books.org.id, 'reports.profit_and_loss', 'submitter', false);
      const refused = await rejection(() =>
        call(store(), reportsProfitAndLoss, books.org.id, {}, { today: TODAY, principal: asUser(books.users.submitter.id) }),
      );
      assert.equal(refused.status, 403);
      assert.equal(refused.code, 'role_not_allowed');
      await setRoleAllowed(store().db, books.org.id, 'reports.profit_and_loss', 'submitter', true);
    });
  },
  async (s) => {
    books = await buildBooks(s);
  },
);
