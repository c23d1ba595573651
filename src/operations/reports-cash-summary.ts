import { z } from 'zod';
import { LISTED_TYPES, OTHER_TYPES, type ChartAccount } from '../accounting/types.js';
import { addDays } from '../domain/dates.js';
import { formatMoney, toMajor } from '../domain/money.js';
import { defineOperation } from './operation.js';
import { dateParam, periodParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';

/** The most lines read for one period's in and out: far beyond any small business's month. */
export const CASH_LINES_MAX = 1_000_000;

const CASH_TYPES = new Set<ChartAccount['type']>(['Bank', 'Credit Card']);

const row = z.object({
  start: z.number().describe('balance at the end of the day before from'),
  in: z.number().describe('money in over the period (receipts, deposits, transfers in; for a card, payments and refunds)'),
  out: z.number().describe('money out over the period, a positive number (payments, transfers out; for a card, charges)'),
  end: z.number().describe('balance at the end of to: start + in - out'),
});

export const reportsCashSummary = defineOperation({
  kind: 'organisation',
  name: 'reports.cash_summary',
  tool: 'reports_cash_summary',
  title: 'Cash summary',
  summary: 'Cash at start, money in, money out and cash at end for each bank and card account over a period.',
  description:
    'For each bank and credit card account of the chart (accounts of type Bank and Credit Card) read live from the accounting system, in the home ' +
    'currency: the balance at the start of the period (end of the day before from), money in, money out (a positive number) and the balance at the end ' +
    "(start + in - out), with totals over the accounts. Balances are money held: a card's balance owed is negative, its charges are money out and " +
    "payments to it money in. In and out are counted per transaction: a transaction's lines on one account are netted first. A transfer between two of " +
    "the accounts is out of one and in to the other, so it shows in both but leaves the totals' net unchanged. Accounts with no balance and no " +
    "movement are left out. These are the books' figures (figures says so): the bank's own balance of a linked bank account, with the book balance at " +
    'that date and what is still to reconcile, is in banking.accounts. Defaults: this month (period this_month).',
  input: z
    .object({
      period: periodParam('Omitted (and no from/to) means this_month.').optional(),
      from: dateParam('First day, yyyy-MM-dd (with to; period custom is implied).').optional(),
      to: dateParam('Last day, yyyy-MM-dd (with from).').optional(),
    })
    .strict(),
  output: z.object({
    report: z.string(),
    organisation: z.string(),
    currency: z.string().describe('home currency, ISO 4217'),
    period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
    count: z.number().int(),
    accounts: z.array(
      row.extend({ id: z.string(), name: z.string(), fullName: z.string(), number: z.string().nullable(), type: z.enum(['Bank', 'Credit Card']) }),
    ),
    totals: row,
    figures: z
      .string()
      .describe(
        "which figures these are: the books' balances (the accounting system's ledger), not the bank's; the bank's own balance of a linked bank " +
          'account, from its statements, the book balance at the same date and what is still to reconcile are in banking.accounts',
      ),
    notes: z.array(z.string()),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const period = resolvePeriodInput(input, ctx, 'this_month');
    const chart = await ctx.accounting.chartOfAccounts();
    const cash = chart.filter((a) => CASH_TYPES.has(a.type));
    const ids = cash.map((a) => a.id);
    const currency = ctx.organisation.homeCurrency;
    const notes: string[] = [];
    if (ids.length === 0) notes.push('The chart of accounts has no bank or credit card account.');
    const [totals, lines] = await Promise.all([
      ids.length ? ctx.accounting.accountTotals([{ to: addDays(period.from, -1) }, { from: period.from, to: period.to }], ids) : new Map<string, number[]>(),
      ctx.accounting.lines({ accountIds: ids, from: period.from, to: period.to, types: [...LISTED_TYPES, ...OTHER_TYPES] }, CASH_LINES_MAX),
    ]);
    // each transaction's net on each account: in when positive, out when negative
    const nets = new Map<string, Map<string, number>>();
    for (const l of lines) {
      const byTx = nets.get(l.accountId) ?? new Map<string, number>();
      byTx.set(l.transactionId, (byTx.get(l.transactionId) ?? 0) + l.amount);
      nets.set(l.accountId, byTx);
    }
    const sum = { start: 0, in: 0, out: 0, end: 0 };
    const rows = [];
    for (const a of cash) {
      const start = totals.get(a.id)?.[0] ?? 0;
      const movement = totals.get(a.id)?.[1] ?? 0;
      let moneyIn = 0;
      let moneyOut = 0;
      for (const net of nets.get(a.id)?.values() ?? []) {
        if (net > 0) moneyIn += net;
        else moneyOut -= net;
      }
      if (moneyIn - moneyOut !== movement) {
        // the lines read do not make up the account's movement (a connector with types it cannot list): say so, keep the balances true
        notes.push(
          `${a.fullName}: the lines read make up ${formatMoney(moneyIn - moneyOut, currency)} of the account's ${formatMoney(movement, currency)} ` +
            `movement; the difference is counted as ${movement - (moneyIn - moneyOut) > 0 ? 'in' : 'out'}.`,
        );
        const gap = movement - (moneyIn - moneyOut);
        if (gap > 0) moneyIn += gap;
        else moneyOut -= gap;
      }
      const end = start + movement;
      if (start === 0 && moneyIn === 0 && moneyOut === 0) continue;
      sum.start += start;
      sum.in += moneyIn;
      sum.out += moneyOut;
      sum.end += end;
      rows.push({ a, start, in: moneyIn, out: moneyOut, end });
    }
    const money = (m: number) => toMajor(m, currency);
    return {
      report: 'Cash Summary',
      organisation: ctx.organisation.name,
      currency,
      period: { from: period.from, to: period.to, label: period.label },
      count: rows.length,
      accounts: rows.map((r) => ({
        id: r.a.id,
        name: r.a.name,
        fullName: r.a.fullName,
        number: r.a.number,
        type: r.a.type as 'Bank' | 'Credit Card',
        start: money(r.start),
        in: money(r.in),
        out: money(r.out),
        end: money(r.end),
      })),
      totals: { start: money(sum.start), in: money(sum.in), out: money(sum.out), end: money(sum.end) },
      figures:
        `Balances in the books (${ctx.accounting.kind}): each account's ledger balance, not the bank's. The bank's balance of a linked bank ` +
        `account, from its imported statements, with the book balance at the same date and the difference still to reconcile, is in banking.accounts.`,
      notes,
    };
  },
});
