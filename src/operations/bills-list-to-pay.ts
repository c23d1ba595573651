import { z } from 'zod';
import { BILL_KINDS } from '../domain/bill-criteria.js';
import { toMajor } from '../domain/money.js';
import { listSavedBillFilters, type OutstandingBill, type SavedBillFilter } from '../store/bills.js';
import { outstandingBillSource } from './bills-outstanding.js';
import { savedFilterSummarySchema, summariseFilters } from './bills-list-saved-filters.js';
import { defineOperation } from './operation.js';
import { intParam, textParam } from './params.js';

export type FilterChoice = { kind: 'all' } | { kind: 'one'; filter: SavedBillFilter } | { kind: 'none' } | { kind: 'several'; matches: SavedBillFilter[] };

/**
 * Which saved filter a caller means. An exact id or name (case-insensitive) wins outright, so a
 * filter called "Overdue" is still reachable when another is called "Not overdue"; otherwise the
 * filters whose name and description contain every word, which must come down to exactly one.
 */
export function resolveBillFilter(text: string | undefined, filters: readonly SavedBillFilter[]): FilterChoice {
  const wanted = (text ?? '').trim();
  if (wanted === '') return { kind: 'all' };
  const lower = wanted.toLowerCase();
  const exact = filters.filter((f) => f.id === wanted || f.name.trim().toLowerCase() === lower);
  if (exact.length === 1) return { kind: 'one', filter: exact[0]! };
  if (exact.length > 1) return { kind: 'several', matches: exact };
  const words = lower.split(/\s+/);
  const matches = filters.filter((f) => {
    const haystack = `${f.name} ${f.description}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  if (matches.length === 1) return { kind: 'one', filter: matches[0]! };
  return matches.length === 0 ? { kind: 'none' } : { kind: 'several', matches };
}

function choiceNote(choice: FilterChoice, text: string, filters: readonly SavedBillFilter[]): string {
  if (filters.length === 0)
    return `No saved filter matches "${text}": this organisation has no saved filters. Leave filter empty to list every outstanding bill.`;
  if (choice.kind === 'several') {
    const names = choice.matches.map((f) => `"${f.name}"`).join(', ');
    return `Several saved filters match "${text}" (${names}). Pick one of the candidates by name and pass it as filter.`;
  }
  return `No saved filter matches "${text}". Pick one of the candidates by name and pass it as filter, or leave filter empty to list every outstanding bill.`;
}

const billSchema = z.object({
  supplier: z.string().describe('the supplier; for an expense claim the employee and the claim'),
  invoiceNumber: z.string(),
  type: z.enum(BILL_KINDS),
  date: z.string(),
  dueDate: z.string(),
  scheduledDate: z.string().nullable().describe('the date payment is scheduled for; null when not scheduled'),
  tags: z.string().describe('comma separated'),
  currency: z.string().describe("the bill's own currency"),
  originalAmount: z.number().nullable().describe("amount in the bill's own currency when it differs from the base currency; null when it is the base currency"),
  amountDue: z.number().describe('base currency'),
  latestNote: z.string().nullable(),
});

type BillOutput = z.infer<typeof billSchema>;

function toBillOutput(bill: OutstandingBill, baseCurrency: string): BillOutput {
  const foreign = bill.currency !== baseCurrency;
  return {
    supplier: bill.supplier,
    invoiceNumber: bill.invoiceNumber,
    type: bill.kind as BillOutput['type'],
    date: bill.date,
    dueDate: bill.dueDate,
    scheduledDate: bill.scheduledDate,
    tags: bill.tags,
    currency: bill.currency,
    originalAmount: foreign ? toMajor(bill.originalAmount, bill.currency) : null,
    amountDue: toMajor(bill.amountDue, baseCurrency),
    latestNote: bill.latestNote,
  };
}

const NAME = 'bills.list_to_pay';

export const billsListToPay = defineOperation({
  kind: 'organisation',
  name: NAME,
  tool: 'bills_list_to_pay',
  title: 'Bills to pay',
  summary: 'Outstanding bills and expense claims, all of them or those of one saved filter.',
  description: [
    'Lists the bills and expense claims that still have an amount due, ordered by due date then supplier:',
    "the service's own and those the connected accounting system holds (a GnuCash book's open vendor bills and expense vouchers, amount due after part " +
      'payments and credit notes), each bill once,',
    'with count and total (sum of amountDue, base currency, major units) over every matching bill, a page at a time (limit 1-500, default 100; page ' +
      'from 1; hasMore says whether another page exists).',
    'filter (optional): the name of a saved Bills to Pay filter, its id, or words from its name or description',
    '(see bills.list_saved_filters); empty or omitted lists every outstanding bill and answers filter: null.',
    'A filter text that matches no saved filter, or several, lists no bills: the answer has filter: null,',
    'candidates (every saved filter with its count and total) and a note; call again with one candidate name.',
    'Each bill: supplier (for an expense claim, the employee and the claim), invoiceNumber, type (bill or expense_claim),',
    "date, dueDate, scheduledDate (null when not scheduled), tags (comma separated), currency (the bill's own),",
    "originalAmount (in the bill's currency, null when that is the base currency), amountDue (base currency), latestNote.",
  ].join(' '),
  input: z
    .object({
      filter: textParam(200).optional().describe('saved filter name or id, or words from its name or description; empty means every outstanding bill'),
      limit: intParam(1, 500)
        .default(100)
        .describe('Bills per page, 1 to 500 (the MCP tool: 1 to 100); default 100. count and total always cover every matching bill.'),
      page: intParam(1, 1_000_000).default(1).describe('Page number, from 1 (default).'),
    })
    .strict(),
  output: z.object({
    filter: z
      .object({ id: z.string(), name: z.string(), description: z.string() })
      .nullable()
      .describe('the saved filter applied; null when every outstanding bill is listed or no single filter matched'),
    count: z.number().int().describe('every matching bill, on every page'),
    total: z.number().describe('total amount due of every matching bill, base currency'),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean().describe('whether another page holds more bills'),
    baseCurrency: z.string(),
    bills: z.array(billSchema),
    candidates: z
      .array(savedFilterSummarySchema)
      .nullable()
      .describe('every saved filter, when the filter text matched no saved filter or several; null otherwise'),
    note: z.string().nullable().describe('what to do when the filter text matched no saved filter or several; null otherwise'),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin', 'submitter', 'custom'],
  toolMaximums: { limit: 100 },
  reuse: 'organisation',
  async run(ctx, input) {
    const baseCurrency = ctx.organisation.homeCurrency;
    const [filters, source] = await Promise.all([listSavedBillFilters(ctx.db, ctx.organisation.id, ctx.dataVersion), outstandingBillSource(ctx)]);
    const choice = resolveBillFilter(input.filter, filters);
    if (choice.kind === 'none' || choice.kind === 'several') {
      return {
        filter: null,
        count: 0,
        total: 0,
        page: input.page,
        pageSize: input.limit,
        hasMore: false,
        baseCurrency,
        bills: [],
        candidates: await summariseFilters(filters, source, baseCurrency),
        note: choiceNote(choice, input.filter!.trim(), filters),
      };
    }
    const offset = (input.page - 1) * input.limit;
    const { bills, count, amountDue } = await source.page(choice.kind === 'one' ? choice.filter.criteria : null, { offset, limit: input.limit });
    return {
      filter: choice.kind === 'one' ? { id: choice.filter.id, name: choice.filter.name, description: choice.filter.description } : null,
      count,
      total: toMajor(amountDue, baseCurrency),
      page: input.page,
      pageSize: input.limit,
      hasMore: count > offset + input.limit,
      baseCurrency,
      bills: bills.map((b) => toBillOutput(b, baseCurrency)),
      candidates: null,
      note: null,
    };
  },
});
