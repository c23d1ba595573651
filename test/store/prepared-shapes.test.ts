/**
 * A statement of many shapes keeps each one compiled (store/prepared.ts, SHAPES_KEPT): the report
 * totals take a shape per count of month and day segments, and a profit and loss asked as clients
 * ask (any range, 0-12 comparisons) meets a few hundred of them. Kept too few, each call past the
 * limit built and compiled its statement again.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readAccountTotals } from '../../src/accounting/builtin/range-totals.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { DateRange } from '../../src/accounting/types.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

let organisationId = '';
const pad = (n: number) => String(n).padStart(2, '0');

/** `months` whole months of 2025 and `days` single days of March 2024: one shape of the totals' statement each. */
function rangesOf(months: number, days: number): DateRange[] {
  const lastDay = (month: number) => new Date(Date.UTC(2025, month, 0)).getUTCDate();
  const whole = Array.from({ length: months }, (_, k) => ({ from: `2025-${pad(k + 1)}-01`, to: `2025-${pad(k + 1)}-${lastDay(k + 1)}` }));
  const single = Array.from({ length: days }, (_, k) => ({ from: `2024-03-${pad(k + 2)}`, to: `2024-03-${pad(k + 2)}` }));
  return [...whole, ...single];
}

describeEachDialect(
  'a statement of many shapes',
  (store) => {
    it('300 shapes of the report totals, asked twice: each is compiled once (one in all on PostgreSQL), and each answers its own sums', async () => {
      const counted = countingQueries(store().db);
      const shapes = Array.from({ length: 12 }, (_, m) => Array.from({ length: 25 }, (_, d) => [m + 1, d + 1] as const)).flat();
      for (const round of [1, 2]) {
        const before = counted.compiled();
        for (const [months, days] of shapes) {
          const totals = await readAccountTotals(counted.db, organisationId, rangesOf(months, days));
          const amounts = totals.get('acc_cash')!;
          // January 2025 holds 700 and 2024-03-02 holds 5: the first range and the first day's range
          assert.equal(amounts[0], 700);
          assert.equal(amounts[months], 5);
          assert.equal(amounts.length, months + days);
          assert.equal(
            amounts.reduce((a, b) => a + b, 0),
            705,
          );
        }
        // SQLite compiles a statement per count of segments; PostgreSQL's one statement takes them as arrays
        const compiled = store().dialect.name === 'postgres' ? 1 : shapes.length;
        assert.equal(counted.compiled() - before, round === 1 ? compiled : 0, `round ${round}: statements compiled`);
      }
    });
  },
  async (s) => {
    ({ id: organisationId } = await provisionOrganisation(s.db, { name: 'Shapes Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 }));
    const account = { organisation_id: organisationId, account_id: 'acc_cash' };
    await s.db
      .insertInto('acct_month_totals')
      .values({ ...account, month: '2025-01', amount: 700 })
      .execute();
    await s.db
      .insertInto('acct_day_totals')
      .values({ ...account, date: '2024-03-02', amount: 5 })
      .execute();
  },
);
