import { z } from 'zod';
import { CLASSIFICATIONS } from '../accounting/types.js';
import { addDays, humanDate } from '../domain/dates.js';
import { toMajor } from '../domain/money.js';
import { financialYearStart } from '../domain/periods.js';
import { isProfitAndLossAccount } from '../domain/report.js';
import { defineOperation } from './operation.js';
import { booleanParam, dateParam } from './params.js';

/** The row of earlier years' profit when the chart has no retained-earnings account to hold it. */
export const EARLIER_YEARS_ROW = 'Retained Earnings (profit of earlier financial years)';

export const reportsTrialBalance = defineOperation({
  kind: 'organisation',
  name: 'reports.trial_balance',
  tool: 'reports_trial_balance',
  title: 'Trial balance',
  summary: "Every account's debit or credit balance at a date, with totals that balance.",
  description:
    'The trial balance read live from the accounting system at a date, in the home currency: one row per account with a balance (its own, sub-accounts ' +
    'listed separately), in chart order, the balance in `debit` when it is a debit balance and in `credit` when it is a credit balance (the other is ' +
    "0). Balance-sheet accounts show their balance since the books began; income and expense accounts show this financial year's movement up to the " +
    'date, and the profit of earlier financial years is added to the retained-earnings account (or shown as its own row when the chart has none), as ' +
    "the balance sheet shows it. totals.debit always equals totals.credit. Defaults: today's date, accounts with a zero balance left out.",
  input: z
    .object({
      date: dateParam('Balance date, yyyy-MM-dd. Omitted means today.').optional(),
      includeZero: booleanParam.describe('When true, accounts with a zero balance are listed too (active ones). Default false.').optional(),
    })
    .strict(),
  output: z.object({
    report: z.string(),
    organisation: z.string(),
    currency: z.string().describe('home currency, ISO 4217'),
    date: z.string(),
    label: z.string(),
    financialYearStart: z.string().describe('income and expense rows cover this date to `date`'),
    count: z.number().int(),
    accounts: z.array(
      z.object({
        id: z.string().nullable().describe("the account's id; null for the earlier years' profit row of a chart without a retained-earnings account"),
        number: z.string().nullable(),
        name: z.string(),
        fullName: z.string(),
        type: z.string(),
        classification: z.enum(CLASSIFICATIONS),
        debit: z.number(),
        credit: z.number(),
      }),
    ),
    totals: z.object({ debit: z.number(), credit: z.number() }),
    balanced: z.boolean().describe('totals.debit equals totals.credit (always so for books that balance)'),
    notes: z.array(z.string()),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const date = input.date ?? ctx.today;
    const fyStart = financialYearStart(date, ctx.organisation.fyStartMonth);
    const chart = await ctx.accounting.chartOfAccounts();
    const plIds = chart.filter(isProfitAndLossAccount).map((a) => a.id);
    const [balances, earlier] = await Promise.all([
      ctx.accounting.accountTotals([{ to: date }]),
      ctx.accounting.accountTotals([{ to: addDays(fyStart, -1) }], plIds),
    ]);
    // earlier years' profit leaves the income and expense accounts for retained earnings
    let earlierProfit = 0;
    for (const id of plIds) earlierProfit += earlier.get(id)?.[0] ?? 0;
    const retained = chart.find((a) => a.retainedEarnings);
    const currency = ctx.organisation.homeCurrency;
    const money = (minor: number) => toMajor(minor, currency);
    const rows: {
      id: string | null;
      number: string | null;
      name: string;
      fullName: string;
      type: string;
      classification: (typeof CLASSIFICATIONS)[number];
      minor: number;
    }[] = [];
    for (const a of chart) {
      let minor = balances.get(a.id)?.[0] ?? 0;
      if (isProfitAndLossAccount(a)) minor -= earlier.get(a.id)?.[0] ?? 0;
      if (a === retained) minor += earlierProfit;
      if (minor === 0 && !(input.includeZero && a.active)) continue;
      rows.push({ id: a.id, number: a.number, name: a.name, fullName: a.fullName, type: a.type, classification: a.classification, minor });
    }
    if (!retained && earlierProfit !== 0)
      rows.push({
        id: null,
        number: null,
        name: EARLIER_YEARS_ROW,
        fullName: EARLIER_YEARS_ROW,
        type: 'Equity',
        classification: 'Equity',
        minor: earlierProfit,
      });
    let debit = 0;
    let credit = 0;
    for (const r of rows) {
      if (r.minor > 0) debit += r.minor;
      else credit -= r.minor;
    }
    const notes: string[] = [];
    if (debit !== credit) notes.push(`The books do not balance at ${date}: debits exceed credits by ${money(debit - credit)} ${currency}.`);
    return {
      report: 'Trial Balance',
      organisation: ctx.organisation.name,
      currency,
      date,
      label: `As at ${humanDate(date)}`,
      financialYearStart: fyStart,
      count: rows.length,
      accounts: rows.map(({ minor, ...r }) => ({ ...r, debit: minor > 0 ? money(minor) : 0, credit: minor < 0 ? money(-minor) : 0 })),
      totals: { debit: money(debit), credit: money(credit) },
      balanced: debit === credit,
      notes,
    };
  },
});
