import { z } from 'zod';
import { addDays, humanDate } from '../domain/dates.js';
import { toMajor } from '../domain/money.js';
import { comparisonDates, financialYearStart, resolvePreset } from '../domain/periods.js';
import { balanceSheet, reportToMajor } from '../domain/report.js';
import { invalidParameter } from './errors.js';
import { defineOperation } from './operation.js';
import { compareByParam, comparePeriodsParam, dateParam, periodParam } from './params.js';
import { REPORT_DECLARATION } from './report-output.js';

export const reportsBalanceSheet = defineOperation({
  kind: 'organisation',
  name: 'reports.balance_sheet',
  tool: 'reports_balance_sheet',
  title: 'Balance sheet',
  summary: 'Assets, liabilities and equity at a date, optionally compared with earlier dates.',
  description:
    'The balance sheet read live from the accounting system, in the home currency: sections Assets, Liabilities and Equity with their groups and ' +
    'accounts, and the summary lines Total Assets, Total Liabilities, Total Equity and Total Liabilities and Equity. Profit of earlier financial years ' +
    "is shown as Retained Earnings and this financial year's as Current Year Earnings. One amount per date, current date first. Defaults: balances at " +
    "today's date, no comparison.",
  input: z
    .object({
      asAt: dateParam('Balance date, yyyy-MM-dd. Overrides period. Omitted (and no period) means today.').optional(),
      // exclude() makes a new schema without the description, so it is given again here
      period: periodParam('')
        .exclude(['custom'])
        .describe(
          'Balances at the last day of a period preset, used when asAt is absent: this_month, last_month, this_quarter, last_quarter (financial ' +
            "quarters), ytd (today) or last_year (the end of the last complete financial year), relative to the organisation's local today and its " +
            'financial year. The end of this_month and this_quarter may be after today.',
        )
        .optional(),
      comparePeriods: comparePeriodsParam.describe('How many earlier dates to compare with, 1 to 12. Given alone, compareBy defaults to month.').optional(),
      compareBy: compareByParam
        .describe(
          'month: the month end before the balance date, and the one before that…; year: the same date one more year back. Given alone, comparePeriods ' +
            'defaults to 1.',
        )
        .optional(),
    })
    .strict(),
  ...REPORT_DECLARATION,
  async run(ctx, input) {
    if (input.asAt !== undefined && input.period !== undefined) {
      throw invalidParameter('period', 'give either asAt or period, not both (asAt would override it)');
    }
    const cal = { today: ctx.today, fyStartMonth: ctx.organisation.fyStartMonth };
    const asAt = input.asAt ?? (input.period ? resolvePreset(input.period, cal).to : ctx.today);
    const comparing = input.comparePeriods !== undefined || input.compareBy !== undefined;
    const compareBy = input.compareBy ?? 'month';
    const count = comparing ? (input.comparePeriods ?? 1) : 0;
    const dates = comparisonDates(asAt, compareBy, count);
    const chart = await ctx.accounting.chartOfAccounts();
    // the balances at each date and the profit and loss up to the day before each date's financial
    // year, in ONE read: every range runs from the beginning of the books, so read together their
    // long shared history is read once (builtin/range-totals.ts cuts them at each other's ends), not
    // once for each read; a day asked for twice is read once
    const yearEnds = dates.map((d) => addDays(financialYearStart(d, ctx.organisation.fyStartMonth), -1));
    const days = [...new Set([...dates, ...yearEnds])];
    const totals = await ctx.accounting.accountTotals(days.map((to) => ({ to })));
    const balances = totalsAt(totals, days, dates);
    // balanceSheet reads only the profit and loss accounts' prior years
    const priorYears = totalsAt(totals, days, yearEnds);
    const currency = ctx.organisation.homeCurrency;
    return {
      report: 'Balance Sheet',
      organisation: ctx.organisation.name,
      currency,
      period: input.period ?? 'as_at',
      compareBy: comparing ? compareBy : 'none',
      comparePeriods: count,
      periods: dates.map((d) => ({ label: `As at ${humanDate(d)}`, from: d, to: d })),
      ...reportToMajor(balanceSheet(chart, balances, priorYears, dates.length), (m) => toMajor(m, currency)),
    };
  },
});

/** Each account's totals at the given days, picked from totals read for `read` (a list holding them all). */
function totalsAt(totals: Map<string, number[]>, read: string[], days: string[]): Map<string, number[]> {
  const at = days.map((d) => read.indexOf(d));
  return new Map([...totals].map(([id, amounts]) => [id, at.map((k) => amounts[k]!)]));
}
