import { z } from 'zod';
import { daysBetween, endOfMonth, startOfMonth } from '../domain/dates.js';
import { toMajor } from '../domain/money.js';
import { comparisonPeriods, type CompareBy } from '../domain/periods.js';
import { profitAndLoss, reportToMajor } from '../domain/report.js';
import { defineOperation } from './operation.js';
import { compareByParam, comparePeriodsParam, dateParam, periodParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';
import { REPORT_DECLARATION } from './report-output.js';

export const reportsProfitAndLoss = defineOperation({
  kind: 'organisation',
  name: 'reports.profit_and_loss',
  tool: 'reports_profit_and_loss',
  title: 'Profit and loss',
  summary: 'Income statement for a period, optionally compared with earlier periods.',
  description:
    'The profit and loss (income statement) read live from the accounting system, in the home currency: sections Income, Cost of Sales, Operating ' +
    'Expenses, Other Income and Other Expenses, each with groups (top-level accounts) and accounts, then the summary lines Gross Profit, Operating ' +
    'Profit and Net Profit. Every section, group, account and summary line has one amount per period, in the order of `periods` (current period ' +
    'first). Income is shown positive; expenses are shown positive. Defaults: period this_month, no comparison.',
  input: z
    .object({
      period: periodParam('Omitted means this_month.').optional(),
      from: dateParam('With period custom: the first day, yyyy-MM-dd.').optional(),
      to: dateParam('With period custom: the last day, yyyy-MM-dd.').optional(),
      comparePeriods: comparePeriodsParam
        .describe(
          'How many earlier periods to compare with, 1 to 12. Given alone, compareBy defaults to month for a period of one month or less, otherwise year.',
        )
        .optional(),
      compareBy: compareByParam
        .describe(
          'month: each comparison is the period shifted back one more month; year: the same period one more year back. Given alone, comparePeriods ' +
            'defaults to 1.',
        )
        .optional(),
    })
    .strict(),
  ...REPORT_DECLARATION,
  async run(ctx, input) {
    const period = resolvePeriodInput(input, ctx, 'this_month');
    const comparing = input.comparePeriods !== undefined || input.compareBy !== undefined;
    const oneMonthOrLess = daysBetween(period.from, period.to) < 31 && endOfMonth(period.from) >= period.to && startOfMonth(period.to) <= period.from;
    const compareBy: CompareBy = input.compareBy ?? (oneMonthOrLess ? 'month' : 'year');
    const count = comparing ? (input.comparePeriods ?? 1) : 0;
    const periods = comparisonPeriods(period, compareBy, count, ctx.organisation.fyStartMonth);
    const [chart, totals] = await Promise.all([
      ctx.accounting.chartOfAccounts(),
      ctx.accounting.accountTotals(periods.map((p) => ({ from: p.from, to: p.to }))),
    ]);
    const currency = ctx.organisation.homeCurrency;
    return {
      report: 'Profit and Loss',
      organisation: ctx.organisation.name,
      currency,
      period: period.preset,
      compareBy: comparing ? compareBy : 'none',
      comparePeriods: count,
      periods: periods.map((p) => ({ label: p.label, from: p.from, to: p.to })),
      ...reportToMajor(profitAndLoss(chart, totals, periods.length), (m) => toMajor(m, currency)),
    };
  },
});
