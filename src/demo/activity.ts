/**
 * Two years and more of an organisation's activity, month by month up to the demo date: the
 * recurring bills, the everyday volume (bills, card spend, sales, claims…) which the benchmark
 * organisation multiplies by its scale, the month-end journals, and whatever earlier events
 * scheduled for the month (payments, statements, tax returns). Books are written once a month.
 */
import { addDays, daysBetween, daysInMonth, formatDate, maxDate, parseDate } from '../domain/dates.js';
import { busyCardSpend } from './card-feed.js';
import { CATEGORY_TAGS } from './catalog.js';
import { contactId, dayBetween, demoMonths, makeItems, type OrgContext } from './context.js';
import { cashSalesPayout, salesInvoice, sundryDeposit } from './income.js';
import {
  bankFee,
  cardStatement,
  depreciation,
  foreignSweep,
  loanRepayment,
  openingBalances,
  payroll,
  quarterlySaving,
  releasePrepayment,
  savingsInterest,
  taxReturn,
} from './journals.js';
import { cardCharge, cardRefund, chequeSpend, directSpend, expenseClaim, postBill, supplierBill, supplierCredit } from './spending.js';

function recurringBills(ctx: OrgContext, first: string): void {
  const { year, month } = parseDate(first)!;
  for (const r of ctx.def.recurring) {
    if (r.months && !r.months.includes(month)) continue;
    const date = formatDate(year, month, Math.min(r.day, daysInMonth(year, month)));
    if (date < ctx.start || date > ctx.asOf) continue;
    const items = r.supplier.items;
    const pp = postBill(ctx, {
      supplier: r.supplier,
      contactId: contactId(ctx, r.supplier.name),
      kind: 'bill',
      date,
      items: makeItems(ctx, items, r.supplier.lines ?? [items.length, items.length], date, ctx.def.tax.purchaseDefault),
      payFrom: r.payFrom ?? 'current',
      cheque: r.cheque ?? false,
      tags: CATEGORY_TAGS[r.supplier.category],
      documentChance: 1,
    });
    if (r.prepaid) ctx.state.prepaid = { remaining: ctx.state.prepaid.remaining + pp.subtotal, months: 12 };
  }
}

/** Runs `event` on random days of the range, `perMonth` times a month on average (pro rata for a part month). */
function repeat(ctx: OrgContext, perMonth: number, first: string, last: string, event: (ctx: OrgContext, date: string) => void): void {
  const share = (daysBetween(first, last) + 1) / daysInMonth(parseDate(first)!.year, parseDate(first)!.month);
  const count = ctx.rng.count(perMonth * ctx.volume * share);
  for (let i = 0; i < count; i++) event(ctx, dayBetween(ctx, first, last));
}

export async function generateActivity(ctx: OrgContext, log?: (message: string) => void): Promise<void> {
  const v = ctx.def.volumes;
  openingBalances(ctx);
  let monthsDone = 0;
  for (const { first, last, monthEnd } of demoMonths(ctx.start, ctx.asOf)) {
    recurringBills(ctx, first);
    repeat(ctx, v.bills, first, last, supplierBill);
    repeat(ctx, v.cardCharges, first, last, cardCharge);
    repeat(ctx, v.cardRefunds, first, last, cardRefund);
    repeat(ctx, v.directSpend, first, last, directSpend);
    repeat(ctx, v.cheques, first, last, chequeSpend);
    repeat(ctx, v.expenseClaims, first, last, expenseClaim);
    repeat(ctx, v.supplierCredits, first, last, supplierCredit);
    repeat(ctx, v.invoices, first, last, salesInvoice);
    repeat(ctx, v.cashSales, first, last, cashSalesPayout);
    repeat(ctx, v.sundryDeposits, first, last, sundryDeposit);
    busyCardSpend(ctx, first, last);
    // a claim submitted a couple of days ago is always waiting to be reimbursed
    if (last === ctx.asOf) expenseClaim(ctx, maxDate(first, addDays(ctx.asOf, -2)));
    payroll(ctx, first);
    quarterlySaving(ctx, first);
    loanRepayment(ctx, addDays(first, 27));
    ctx.scheduler.runUntil(last);
    if (monthEnd <= ctx.asOf) {
      bankFee(ctx, monthEnd);
      savingsInterest(ctx, monthEnd);
      depreciation(ctx, monthEnd);
      releasePrepayment(ctx, monthEnd);
      foreignSweep(ctx, monthEnd);
      cardStatement(ctx, monthEnd);
      taxReturn(ctx, monthEnd);
    }
    await ctx.books.drain();
    monthsDone += 1;
    if (log && ctx.volume > 1 && monthsDone % 6 === 0) {
      log(`${ctx.def.name}: ${first.slice(0, 7)} written, ${ctx.books.counts.lines.toLocaleString('en-US')} ledger lines so far`);
    }
  }
  await ctx.books.drain(true);
}
