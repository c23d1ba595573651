import type { ChartAccount } from '../accounting/types.js';
import { formatMoney, toMajor } from '../domain/money.js';
import { agingInput, agingOutput, arrangeAging, type OpenItem } from './aging.js';
import type { OperationContext } from './context.js';
import { outstandingBills } from './bills-outstanding.js';
import { defineOperation } from './operation.js';

/** The balance of the chart's accounts of one type at a date, in the direction given (1 debit, -1 credit); null when there are none. */
export async function ledgerBalanceOf(ctx: OperationContext, chart: ChartAccount[], type: ChartAccount['type'], date: string, sign: 1 | -1): Promise<number | null> {
  const ids = chart.filter((a) => a.type === type).map((a) => a.id);
  if (ids.length === 0) return null;
  const totals = await ctx.accounting.accountTotals([{ to: date }], ids);
  let sum = 0;
  for (const amounts of totals.values()) sum += amounts[0] ?? 0;
  return sign * sum;
}

export const reportsAgedPayables = defineOperation({
  kind: 'organisation',
  name: 'reports.aged_payables',
  tool: 'reports_aged_payables',
  title: 'Aged payables',
  summary: 'What the organisation owes, by supplier, in buckets of days past due at a date.',
  description:
    "The outstanding bills and expense claims (the same bills as bills_list_to_pay: the service's own and the accounting system's, such as a GnuCash book's open vendor bills and expense vouchers after part payments and credit notes) by supplier (an expense claim under its employee), aged at `date` by due date in the buckets current (not yet due), days1to30, days31to60, days61to90 and days91plus past due, as GnuCash's Payable Aging report places them: days are counted to the end of `date`, so a bill due on `date` is 1 day past due. Home currency. Bills dated after `date` are left out; the amount of each bill is what is due on it now (the service keeps no history of its bills' payments), so for a past date a note says so. ledgerBalance is the balance of the chart's Accounts Payable accounts at `date`, for comparison. Defaults: today, every supplier, no item detail, limit 100.",
  input: agingInput,
  output: agingOutput,
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const date = input.date ?? ctx.today;
    const currency = ctx.organisation.homeCurrency;
    const [{ bills, unavailable }, chart] = await Promise.all([outstandingBills(ctx), ctx.accounting.chartOfAccounts()]);
    const items: OpenItem[] = bills
      .filter((b) => b.date <= date)
      .map((b) => ({
        // an expense claim is named "<employee> — <claim>": the employee is the contact
        contact: b.kind === 'expense_claim' ? b.supplier.split(' — ')[0]! : b.supplier,
        contactId: null,
        number: b.invoiceNumber,
        date: b.date,
        dueDate: b.dueDate,
        amount: b.amountDue,
      }));
    const aging = arrangeAging(items, { date, currency, contact: input.contact, detail: input.detail, limit: input.limit, page: input.page });
    const notes: string[] = [];
    if (unavailable !== null) notes.push(`Only the service's own bills are aged: the accounting system's could not be read (${unavailable}).`);
    if (date < ctx.today) notes.push(`Amounts are what is due on each bill today (${ctx.today}); a bill paid between ${date} and today is not shown as open at ${date}.`);
    const skipped = bills.length - items.length;
    if (skipped) notes.push(`${skipped} bill(s) dated after ${date} are left out.`);
    const ledgerBalance = await ledgerBalanceOf(ctx, chart, 'Accounts Payable', date, -1);
    if (ledgerBalance !== null && ledgerBalance !== aging.totalMinor && !input.contact)
      notes.push(
        `The Accounts Payable accounts stand at ${formatMoney(ledgerBalance, currency)} at ${date}, the aged bills at ${formatMoney(aging.totalMinor, currency)}: bills kept only in the ledger, payments not matched to a bill and the service's own unpublished bills make the difference.`,
      );
    const { totalMinor: _, ...shown } = aging;
    return { report: 'Aged Payables', organisation: ctx.organisation.name, currency, date, ...shown, ledgerBalance: ledgerBalance === null ? null : toMajor(ledgerBalance, currency), notes };
  },
});
