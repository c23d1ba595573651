import { z } from 'zod';
import { toMajor } from '../domain/money.js';
import { listSavedBillFilters, type SavedBillFilter } from '../store/bills.js';
import { outstandingBillSource, type BillSource } from './bills-outstanding.js';
import { defineOperation } from './operation.js';

export const savedFilterSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  count: z.number().int().describe('outstanding bills the filter matches'),
  total: z.number().describe('total amount due of those bills, base currency'),
});

export type SavedFilterSummary = z.infer<typeof savedFilterSummarySchema>;

/** Each filter with the number and total of the outstanding bills it matches, in filter order. */
export async function summariseFilters(filters: readonly SavedBillFilter[], source: BillSource, homeCurrency: string): Promise<SavedFilterSummary[]> {
  const totals = await source.totals(filters.map((f) => f.criteria));
  return filters.map((f, i) => ({
    id: f.id,
    name: f.name,
    description: f.description,
    count: totals[i]!.count,
    total: toMajor(totals[i]!.amountDue, homeCurrency),
  }));
}

const NAME = 'bills.list_saved_filters';

export const billsListSavedFilters = defineOperation({
  kind: 'organisation',
  name: NAME,
  tool: 'bills_list_saved_filters',
  title: 'Saved Bills to Pay filters',
  summary: 'The saved Bills to Pay filters, each with how many outstanding bills it matches and their total due.',
  description: [
    'Lists the Bills to Pay filters saved for the organisation, in their display order.',
    'Each filter has an id, a name, a description, the number of outstanding bills and expense claims it matches today (count;',
    "the service's own and the connected accounting system's, as bills.list_to_pay lists them),",
    'and their total amount due in the base currency (total, major units). Outstanding means something is still to pay.',
    'Pass a filter name (or its id, or words from its name or description) as `filter` to bills.list_to_pay to list those bills.',
    'No parameters.',
  ].join(' '),
  input: z.object({}).strict(),
  output: z.object({
    baseCurrency: z.string().describe('the organisation home currency every total is in'),
    filters: z.array(savedFilterSummarySchema),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin', 'submitter', 'custom'],
  reuse: 'organisation',
  async run(ctx) {
    // with a system that supplies bills, the filters count what bills.list_to_pay lists: both sources
    const [filters, source] = await Promise.all([listSavedBillFilters(ctx.db, ctx.organisation.id, ctx.dataVersion), outstandingBillSource(ctx)]);
    const baseCurrency = ctx.organisation.homeCurrency;
    return { baseCurrency, filters: await summariseFilters(filters, source, baseCurrency) };
  },
});
