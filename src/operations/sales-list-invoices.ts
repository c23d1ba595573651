/**
 * Customer invoices and credit notes: what the organisation billed its customers in a period, and
 * what of each is still owed at its end. Read from the receivable accounts' lines, so it works for
 * every accounting system that supplies lines; what is still owed comes from the system's own
 * allocation where it keeps one (GnuCash: the invoice's lot), otherwise from the same oldest-first
 * rule as reports.aged_receivables, so the two always agree.
 */
import { z } from 'zod';
import { OTHER_TYPES, LISTED_TYPES, type LedgerLine } from '../accounting/types.js';
import { toMajor } from '../domain/money.js';
import { defineOperation } from './operation.js';
import { dateParam, EARLIEST_DATE, intParam, periodParam, textParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';
import { allocateFifo, RECEIVABLE_LINES_MAX } from './reports-aged-receivables.js';

const STATUSES = ['all', 'open', 'paid'] as const;

const invoiceSchema = z.object({
  transactionId: z.string().describe('the transaction in the accounting system'),
  type: z.enum(['invoice', 'credit_note']),
  number: z.string().nullable(),
  customer: z.string(),
  date: z.string(),
  dueDate: z.string().describe("the due date the system keeps; the invoice's date where it keeps none"),
  total: z.number().describe('home currency; a credit note is negative'),
  amountDue: z.number().describe('still owed at the end of the period (a credit note not yet used: negative); 0 when settled'),
  status: z.enum(['open', 'part_paid', 'paid']).describe('open: nothing received yet; part_paid; paid (a credit note: paid means used up)'),
});

export const salesListInvoices = defineOperation({
  kind: 'organisation',
  name: 'sales.list_invoices',
  tool: 'sales_list_invoices',
  title: 'Customer invoices and credit notes',
  summary: 'Customer invoices and credit notes dated in a period, each with what is still owed at its end.',
  description: [
    "Lists the organisation's customer invoices and credit notes (what was posted to its accounts receivable) dated in the period, newest first,",
    'each with customer, number, date, dueDate, total and amountDue at the end of the period (home currency, major units) and a status',
    '(open, part_paid, paid). Payments are matched to invoices as the accounting system records them; where it records no matching',
    "(Ledgerline's own ledger), a customer's payments and credit notes settle their oldest invoices first, as reports.aged_receivables does.",
    'Parameters: period (or from/to); customer (words of the name); status (all, open: something still owed, paid);',
    'limit (default 100) and page. totals cover every matching invoice, whatever the page. Defaults: the last 3 months up to today, every status.',
  ].join(' '),
  input: z
    .object({
      period: periodParam('Omitted (and no from/to) means the three months up to today.').optional(),
      from: dateParam('First day, yyyy-MM-dd (with to).').optional(),
      to: dateParam('Last day, yyyy-MM-dd (with from).').optional(),
      customer: textParam(200).describe("Words of the customer's name; every word must appear (case-insensitive).").optional(),
      status: z.enum(STATUSES).default('all').describe('all (default), open (something still owed) or paid'),
      limit: intParam(1, 500).default(100).describe('Invoices per page, 1 to 500 (default 100; the MCP tool: 1 to 100, default 25).'),
      page: intParam(1, 100_000).default(1).describe('Page number, from 1.'),
    })
    .strict(),
  output: z.object({
    currency: z.string(),
    period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
    totals: z.object({ count: z.number().int(), total: z.number(), amountDue: z.number() }),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
    invoices: z.array(invoiceSchema),
    notes: z.array(z.string()),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  toolDefaults: { limit: 25 },
  toolMaximums: { limit: 100 },
  reuse: 'organisation',
  async run(ctx, input) {
    const period = resolvePeriodInput(input, ctx, 'last_three_months');
    const currency = ctx.organisation.homeCurrency;
    const chart = await ctx.accounting.chartOfAccounts();
    const receivable = chart.filter((a) => a.type === 'Accounts Receivable').map((a) => a.id);
    const notes: string[] = [];
    if (receivable.length === 0) notes.push('The chart of accounts has no Accounts Receivable account, so there are no customer invoices.');
    const [lines, contacts, open] = await Promise.all([
      receivable.length
        ? ctx.accounting.lines({ accountIds: receivable, from: EARLIEST_DATE, to: period.to, types: [...LISTED_TYPES, ...OTHER_TYPES] }, RECEIVABLE_LINES_MAX)
        : Promise.resolve([] as LedgerLine[]),
      ctx.accounting.contacts(),
      ctx.accounting.receivables ? ctx.accounting.receivables(period.to) : Promise.resolve(null),
    ]);
    const names = new Map(contacts.map((c) => [c.id, c.name]));
    // what is still owed on each transaction at the end of the period, and its due date where the system keeps one
    const due = new Map<string, { amount: number; dueDate: string | null }>();
    if (open) for (const r of open) due.set(r.transactionId, { amount: (due.get(r.transactionId)?.amount ?? 0) + r.amountDue, dueDate: r.dueDate });
    else for (const item of allocateFifo(lines, names).items) if (item.transactionId) due.set(item.transactionId, { amount: item.amount, dueDate: null });

    // one entry per invoice transaction: its net on the receivable accounts
    const byTransaction = new Map<string, { line: LedgerLine; net: number }>();
    for (const l of lines) {
      if (l.type !== 'invoice' || !l.contactId) continue;
      const t = byTransaction.get(l.transactionId) ?? { line: l, net: 0 };
      t.net += l.amount;
      byTransaction.set(l.transactionId, t);
    }
    const words = (input.customer ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const all = [...byTransaction.values()]
      .filter(({ line, net }) => net !== 0 && line.date >= period.from && line.date <= period.to)
      .map(({ line, net }) => {
        const customer = names.get(line.contactId!) ?? line.contactName ?? line.contactId!;
        const owed = due.get(line.transactionId);
        // a credit note's open amount is what is left of it to use; FIFO uses credits in full, so none is left
        const amountDue = owed?.amount ?? 0;
        const status: 'open' | 'part_paid' | 'paid' = amountDue === 0 ? 'paid' : amountDue === net ? 'open' : 'part_paid';
        return { line, net, customer, amountDue, status, dueDate: owed?.dueDate ?? line.date };
      })
      .filter((i) => words.every((w) => i.customer.toLowerCase().includes(w)))
      .filter((i) => input.status === 'all' || (input.status === 'paid' ? i.status === 'paid' : i.status !== 'paid'))
      .sort(
        (a, b) =>
          b.line.date.localeCompare(a.line.date) ||
          (b.line.number ?? '').localeCompare(a.line.number ?? '') ||
          a.line.transactionId.localeCompare(b.line.transactionId),
      );
    const start = (input.page - 1) * input.limit;
    const money = (minor: number) => toMajor(minor, currency);
    return {
      currency,
      period: { from: period.from, to: period.to, label: period.label },
      totals: { count: all.length, total: money(all.reduce((s, i) => s + i.net, 0)), amountDue: money(all.reduce((s, i) => s + i.amountDue, 0)) },
      page: input.page,
      pageSize: input.limit,
      hasMore: start + input.limit < all.length,
      invoices: all.slice(start, start + input.limit).map((i) => ({
        transactionId: i.line.transactionId,
        type: i.net < 0 ? ('credit_note' as const) : ('invoice' as const),
        number: i.line.number,
        customer: i.customer,
        date: i.line.date,
        dueDate: i.dueDate,
        total: money(i.net),
        amountDue: money(i.amountDue),
        status: i.status,
      })),
      notes,
    };
  },
});
