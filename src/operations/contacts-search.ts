import { z } from 'zod';
import { LISTED_TYPES, OTHER_TYPES, type ChartAccount, type Contact } from '../accounting/types.js';
import { toMajor } from '../domain/money.js';
import { defineOperation } from './operation.js';
import { dateParam, intParam, periodParam, textParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';

export const CONTACT_KINDS = ['supplier', 'customer', 'employee'] as const;
export const CONTACTS_LIMIT_DEFAULT = 25;
export const CONTACTS_LIMIT_MAX = 500;

/** Where spend is coded: expense accounts (cost of sales, other expenses) and fixed assets bought. */
export function isSpendAccount(a: Pick<ChartAccount, 'classification' | 'type'>): boolean {
  return a.classification === 'Expense' || a.type === 'Fixed Asset';
}

/** Where sales are coded: income and other income accounts. */
export function isSalesAccount(a: Pick<ChartAccount, 'classification'>): boolean {
  return a.classification === 'Revenue';
}

function compareNames(a: Contact, b: Contact): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const contactsSearch = defineOperation({
  kind: 'organisation',
  name: 'contacts.search',
  tool: 'contacts_search',
  title: 'Contacts',
  summary: 'Suppliers, customers and employees by name, with what was spent with and sold to each over a period.',
  description:
    'Finds the contacts of the accounting system (suppliers, customers, employees) whose name contains every word of `search` (case-insensitive; ' +
    'omitted lists them all), optionally of one `kind`, ordered by name, a page at a time. Each contact has `spend`: the net amount, tax excluded, of ' +
    'its lines coded to expense accounts (cost of sales, expenses, other expenses) and fixed assets in the period, whatever the transaction type ' +
    '(bills, expenses, cheques, card charges, less refunds and supplier credits); and `sales`: the net amount, tax excluded, of its lines coded to ' +
    'income accounts (invoices less credit notes, cash sales). Home currency. `total` counts every matching contact and `totals` sums spend and sales ' +
    'over all of them, on every page. Defaults: the financial year to date (period ytd), limit 25, page 1.',
  input: z
    .object({
      search: textParam()
        .describe("Words to look for in the contact's name; every word must appear (case-insensitive). Omitted or empty lists every contact.")
        .optional(),
      kind: z
        .enum(CONTACT_KINDS, { message: 'must be supplier, customer or employee' })
        .describe('Only contacts of this kind: supplier, customer or employee.')
        .optional(),
      period: periodParam('Omitted (and no from/to) means ytd.').optional(),
      from: dateParam('First day of the period for spend and sales, yyyy-MM-dd (with to; period custom is implied).').optional(),
      to: dateParam('Last day, yyyy-MM-dd (with from).').optional(),
      limit: intParam(1, CONTACTS_LIMIT_MAX)
        .describe(`Contacts per page, 1 to ${CONTACTS_LIMIT_MAX}; default ${CONTACTS_LIMIT_DEFAULT}. total and totals cover every matching contact.`)
        .optional(),
      page: intParam(1, 1_000_000).describe('Page number, from 1 (default).').optional(),
    })
    .strict(),
  output: z.object({
    currency: z.string().describe('home currency, ISO 4217'),
    period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
    total: z.number().int().describe('every matching contact, on every page'),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean(),
    totals: z.object({ spend: z.number(), sales: z.number() }).describe('over every matching contact'),
    contacts: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        kind: z.enum(CONTACT_KINDS),
        spend: z.number().describe('net, tax excluded, coded to expense and fixed asset accounts in the period'),
        sales: z.number().describe('net, tax excluded, coded to income accounts in the period'),
      }),
    ),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const period = resolvePeriodInput(input, ctx, 'ytd');
    const limit = input.limit ?? CONTACTS_LIMIT_DEFAULT;
    const page = input.page ?? 1;
    const words = (input.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const [all, chart] = await Promise.all([ctx.accounting.contacts(), ctx.accounting.chartOfAccounts()]);
    const matched = all
      .filter((c) => input.kind === undefined || c.kind === input.kind)
      .filter((c) => words.every((w) => c.name.toLowerCase().includes(w)))
      .sort(compareNames);
    const types = [...LISTED_TYPES, ...OTHER_TYPES];
    const narrowed = matched.length === all.length ? {} : { contactIds: matched.map((c) => c.id) };
    const sums = async (accounts: ChartAccount[]) => {
      if (matched.length === 0 || accounts.length === 0) return new Map<string, number>();
      const groups = await ctx.accounting.lineTotals(
        { accountIds: accounts.map((a) => a.id), from: period.from, to: period.to, types, ...narrowed },
        'supplier',
      );
      return new Map(groups.map((g) => [g.key, g.amount]));
    };
    const [spend, sales] = await Promise.all([sums(chart.filter(isSpendAccount)), sums(chart.filter(isSalesAccount))]);
    const currency = ctx.organisation.homeCurrency;
    // spend is debit-positive on expense accounts, sales credit-positive on income accounts
    const figures = (c: Contact) => ({ spend: spend.get(c.id) ?? 0, sales: -(sales.get(c.id) ?? 0) });
    let spendTotal = 0;
    let salesTotal = 0;
    for (const c of matched) {
      const f = figures(c);
      spendTotal += f.spend;
      salesTotal += f.sales;
    }
    const shown = matched.slice((page - 1) * limit, page * limit);
    return {
      currency,
      period: { from: period.from, to: period.to, label: period.label },
      total: matched.length,
      page,
      pageSize: limit,
      hasMore: matched.length > page * limit,
      totals: { spend: toMajor(spendTotal, currency), sales: toMajor(salesTotal, currency) },
      contacts: shown.map((c) => {
        const f = figures(c);
        return { id: c.id, name: c.name, kind: c.kind, spend: toMajor(f.spend, currency), sales: toMajor(f.sales, currency) };
      }),
    };
  },
});
