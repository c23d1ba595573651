import { formatMoney } from '../domain/money.js';
import { agingAnswer, agingDescription, agingOptionsOf, agingReport, arrangeAging, ledgerBalanceOf, type OpenItem } from './aging.js';
import { outstandingBills } from './bills-outstanding.js';
import { defineOperation } from './operation.js';
import { billContact, payablesFromLedger } from './payables-from-ledger.js';

export const reportsAgedPayables = defineOperation({
  ...agingReport,
  name: 'reports.aged_payables',
  tool: 'reports_aged_payables',
  title: 'Aged payables',
  summary: 'What the organisation owes, by supplier, in buckets of days past due at a date.',
  description: agingDescription('Payable', {
    what: 'The outstanding bills and expense claims by supplier (an expense claim under its employee)',
    systems:
      "With a system that holds bills (GnuCash, Xero, QuickBooks): the same bills as bills_list_to_pay, the service's own and the system's open " +
      "ones after part payments and credit notes; bills dated after `date` are left out, and each bill's amount is what is due on it now (the " +
      "service keeps no history of its bills' payments), so for a past date a note says so.",
    ledgerAlso: "A bill the service holds is due on the service's due date, and the service's bills not yet in the books are added as they stand.",
  }),
  async run(ctx, input) {
    const options = agingOptionsOf(ctx, input);
    const { date, currency } = options;
    const [{ bills }, chart] = await Promise.all([outstandingBills(ctx), ctx.accounting.chartOfAccounts()]);
    const ledgerBalance = await ledgerBalanceOf(ctx, chart, 'Accounts Payable', date, -1);
    const notes: string[] = [];
    let aging: ReturnType<typeof arrangeAging>;
    if (!ctx.accounting.payables) {
      // the builtin ledger: the books' payables, first in first out, with the service's bills (payables-from-ledger.ts)
      const books = await payablesFromLedger(ctx, chart, date, bills);
      aging = arrangeAging(books.items, { ...options, prepaid: books.prepaid });
      if (books.withoutContact !== 0)
        notes.push(`${formatMoney(books.withoutContact, currency)} on the Accounts Payable accounts has no supplier (journals) and is not aged.`);
      if (books.serviceOnly.count)
        notes.push(
          `${books.serviceOnly.count} of the service's bill(s), ${formatMoney(books.serviceOnly.amount, currency)}, are not in the books yet and are ` +
            `aged as they stand` +
            (date < ctx.today ? ` (what is due on each today, ${ctx.today})` : '') +
            '.',
        );
      if (ledgerBalance !== null && !input.contact && ledgerBalance - books.withoutContact + books.serviceOnly.amount !== aging.totalMinor)
        notes.push(
          `The Accounts Payable accounts stand at ${formatMoney(ledgerBalance, currency)} at ${date}, the aged bills ` +
            `at ${formatMoney(aging.totalMinor, currency)}.`,
        );
    } else {
      const items: OpenItem[] = bills
        .filter((b) => b.date <= date)
        .map((b) => ({ contact: billContact(b), contactId: null, number: b.invoiceNumber, date: b.date, dueDate: b.dueDate, amount: b.amountDue }));
      aging = arrangeAging(items, options);
      if (date < ctx.today)
        notes.push(`Amounts are what is due on each bill today (${ctx.today}); a bill paid between ${date} and today is not shown as open at ${date}.`);
      const skipped = bills.length - items.length;
      if (skipped) notes.push(`${skipped} bill(s) dated after ${date} are left out.`);
      if (ledgerBalance !== null && ledgerBalance !== aging.totalMinor && !input.contact)
        notes.push(
          `The Accounts Payable accounts stand at ${formatMoney(ledgerBalance, currency)} at ${date}, the aged bills ` +
            `at ${formatMoney(aging.totalMinor, currency)}: bills kept only in the ledger, payments not matched to a bill and the service's own ` +
            `unpublished bills make the difference.`,
        );
    }
    return agingAnswer(ctx, 'Aged Payables', date, aging, ledgerBalance, notes);
  },
});
