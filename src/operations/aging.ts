/**
 * Aging, the rule named once for aged payables and aged receivables: open items by contact in the
 * buckets current, 1-30, 31-60, 61-90 and 91+ days past due at a date, as GnuCash's own aging
 * reports place them. Pure but for the shapes it declares. Amounts are integer minor units.
 */
import { z } from 'zod';
import type { ChartAccount } from '../accounting/types.js';
import type { OperationContext } from './context.js';
import { daysBetween, type IsoDate } from '../domain/dates.js';
import { toMajor } from '../domain/money.js';
import { booleanParam, dateParam, intParam, textParam } from './params.js';

export const BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'days91plus'] as const;
export type Bucket = (typeof BUCKETS)[number];

/**
 * Days past due at the end of `date`: GnuCash ages from the end of the report day, so an item due
 * on the date itself is one day past due by then, and one due the day after is not yet due (0).
 */
export function daysPastDue(dueDate: IsoDate, date: IsoDate): number {
  return daysBetween(dueDate, date) + 1;
}

export function bucketOf(dueDate: IsoDate, date: IsoDate): Bucket {
  const days = daysPastDue(dueDate, date);
  if (days <= 0) return 'current';
  if (days <= 30) return 'days1to30';
  if (days <= 60) return 'days31to60';
  if (days <= 90) return 'days61to90';
  return 'days91plus';
}

export interface OpenItem {
  contact: string;
  /** the contact's id where the system gives one */
  contactId: string | null;
  number: string;
  date: IsoDate;
  dueDate: IsoDate;
  /** home minor units still open, positive for what is owed */
  amount: number;
  /** the transaction that made the item, where it is one (receivables from ledger lines) */
  transactionId?: string;
}

const bucketsShape = {
  prepaid: z.number().describe('payments not yet matched to an open item, negative (builtin receivables only; 0 otherwise)'),
  current: z.number().describe('not yet due at the end of date'),
  days1to30: z.number().describe('1 to 30 days past due (an item due on date itself is 1 day past due by its end)'),
  days31to60: z.number(),
  days61to90: z.number(),
  days91plus: z.number().describe('91 days or more past due'),
  total: z.number(),
};

export const agingInput = z
  .object({
    date: dateParam('The date to age at, yyyy-MM-dd. Omitted means today.').optional(),
    contact: textParam().describe('Only contacts whose name contains every word of this text (case-insensitive).').optional(),
    detail: booleanParam.describe('When true, each contact lists its open items (number, dates, amount, bucket). Default false.').optional(),
    limit: intParam(1, 500).describe('Contacts per page, 1 to 500; default 100. count and totals cover every contact.').optional(),
    page: intParam(1, 1_000_000).describe('Page number, from 1 (default).').optional(),
  })
  .strict();

export const agingOutput = z.object({
  report: z.string(),
  organisation: z.string(),
  currency: z.string().describe('home currency, ISO 4217'),
  date: z.string(),
  count: z.number().int().describe('every contact with something open, on every page'),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
  contacts: z.array(
    z.object({
      contact: z.string(),
      contactId: z.string().nullable(),
      ...bucketsShape,
      items: z
        .array(
          z.object({ number: z.string(), date: z.string(), dueDate: z.string(), daysPastDue: z.number().int(), bucket: z.enum(BUCKETS), amount: z.number() }),
        )
        .nullable()
        .describe('with detail true, the open items oldest due first; null otherwise'),
    }),
  ),
  totals: z.object(bucketsShape).describe('over every contact'),
  ledgerBalance: z
    .number()
    .nullable()
    .describe("the balance of the chart's receivable (or payable) accounts at date, owed positive; null when the chart has none"),
  notes: z.array(z.string()),
});

type Sums = Record<Bucket | 'prepaid' | 'total', number>;
const zero = (): Sums => ({ prepaid: 0, current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days91plus: 0, total: 0 });

export interface AgingOptions {
  date: IsoDate;
  currency: string;
  contact?: string | undefined;
  detail?: boolean | undefined;
  limit?: number | undefined;
  page?: number | undefined;
  /** contact key -> payments not matched to an item (negative) */
  prepaid?: Map<string, { contact: string; contactId: string | null; amount: number }>;
}

/** Open items arranged by contact (by name), bucketed at the date, paged; totals over every contact. */
export function arrangeAging(items: OpenItem[], options: AgingOptions) {
  const words = (options.contact ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const wanted = (name: string) => words.every((w) => name.toLowerCase().includes(w));
  const byContact = new Map<string, { contact: string; contactId: string | null; sums: Sums; items: OpenItem[] }>();
  const entry = (contact: string, contactId: string | null) => {
    const key = contactId ?? `name:${contact}`;
    let e = byContact.get(key);
    if (!e) byContact.set(key, (e = { contact, contactId, sums: zero(), items: [] }));
    return e;
  };
  for (const item of items) {
    if (!wanted(item.contact)) continue;
    const e = entry(item.contact, item.contactId);
    e.sums[bucketOf(item.dueDate, options.date)] += item.amount;
    e.sums.total += item.amount;
    e.items.push(item);
  }
  for (const p of options.prepaid?.values() ?? []) {
    if (!wanted(p.contact) || p.amount === 0) continue;
    const e = entry(p.contact, p.contactId);
    e.sums.prepaid += p.amount;
    e.sums.total += p.amount;
  }
  const rows = [...byContact.values()].sort(
    (a, b) => a.contact.toLowerCase().localeCompare(b.contact.toLowerCase()) || (a.contactId ?? '').localeCompare(b.contactId ?? ''),
  );
  const totals = zero();
  for (const r of rows) for (const k of Object.keys(totals) as (keyof Sums)[]) totals[k] += r.sums[k];
  const limit = options.limit ?? 100;
  const page = options.page ?? 1;
  const money = (m: number) => toMajor(m, options.currency);
  const major = (s: Sums) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, money(v)])) as Record<keyof Sums, number>;
  return {
    count: rows.length,
    page,
    pageSize: limit,
    hasMore: rows.length > page * limit,
    contacts: rows.slice((page - 1) * limit, page * limit).map((r) => ({
      contact: r.contact,
      contactId: r.contactId,
      ...major(r.sums),
      items: options.detail
        ? [...r.items]
            .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.number.localeCompare(b.number))
            .map((i) => ({
              number: i.number,
              date: i.date,
              dueDate: i.dueDate,
              daysPastDue: Math.max(0, daysPastDue(i.dueDate, options.date)),
              bucket: bucketOf(i.dueDate, options.date),
              amount: money(i.amount),
            }))
        : null,
    })),
    totals: major(totals),
    /** minor units, for checks against the ledger */
    totalMinor: totals.total,
  };
}

/** The balance of the chart's accounts of one type at a date, in the direction given (1 debit, -1 credit); null when there are none. */
export async function ledgerBalanceOf(
  ctx: OperationContext,
  chart: ChartAccount[],
  type: ChartAccount['type'],
  date: string,
  sign: 1 | -1,
): Promise<number | null> {
  const ids = chart.filter((a) => a.type === type).map((a) => a.id);
  if (ids.length === 0) return null;
  const totals = await ctx.accounting.accountTotals([{ to: date }], ids);
  let sum = 0;
  for (const amounts of totals.values()) sum += amounts[0] ?? 0;
  return sign * sum;
}

/** What the two aging reports declare alike: their input and output, a read for the organisation's admins, answers kept per organisation. */
export const agingReport = {
  kind: 'organisation',
  input: agingInput,
  output: agingOutput,
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
} as const;

/**
 * The words of each side of the books: its open items, whom they are with, the side of the accounts
 * an item is raised on (a credit on the payable accounts, a debit on the receivable ones), and what
 * settles it.
 */
const SIDES = {
  Payable: { item: 'bill', an: 'a', contact: 'supplier', raised: 'credit', settled: 'debit', settledBy: 'payments, supplier credits' },
  Receivable: { item: 'invoice', an: 'an', contact: 'customer', raised: 'debit', settled: 'credit', settledBy: 'payments, credit notes' },
} as const;

/**
 * An aging report's description, in the words both reports share: the buckets and how days are
 * counted, how a system holding the open items is read (`systems`), the builtin ledger's first in,
 * first out (and what else its answer holds: `ledgerAlso`), the ledger balance and the defaults.
 */
export function agingDescription(side: keyof typeof SIDES, text: { what: string; systems: string; ledgerAlso?: string }): string {
  const { item, an, contact, raised, settled, settledBy } = SIDES[side];
  return [
    `${text.what}, aged at \`date\` by due date in the buckets current (not yet due), days1to30, days31to60, days61to90 and days91plus past due,`,
    `as GnuCash's ${side} Aging report places them: days are counted to the end of \`date\`, so ${an} ${item} due on \`date\` is 1 day past due.`,
    'Home currency.',
    text.systems,
    `With the builtin ledger, which keeps no due dates and no allocation of payments to ${item}s: each ${contact}'s ${raised}s on the Accounts`,
    `${side} accounts up to \`date\` (${item}s) less every ${settled} (${settledBy}), applied to the oldest ${item} first (FIFO), each due on its date;`,
    `${settled}s beyond the ${item}s are \`prepaid\` (negative).`,
    ...(text.ledgerAlso ? [text.ledgerAlso] : []),
    `ledgerBalance is the balance of the chart's Accounts ${side} accounts at \`date\`; a note explains any difference.`,
    `Defaults: today, every ${contact}, no item detail, limit 100.`,
  ].join(' ');
}

/** An aging report's input as arrangeAging reads it: at today when no date is given, in the home currency. */
export function agingOptionsOf(ctx: OperationContext, input: z.infer<typeof agingInput>): AgingOptions {
  const { contact, detail, limit, page } = input;
  return { date: input.date ?? ctx.today, currency: ctx.organisation.homeCurrency, contact, detail, limit, page };
}

/** An aging report's answer: the arranged aging (its minor-unit total only checked, not shown) and the ledger balance in major units. */
export function agingAnswer(
  ctx: OperationContext,
  report: string,
  date: string,
  aging: ReturnType<typeof arrangeAging>,
  ledgerBalance: number | null,
  notes: string[],
) {
  const currency = ctx.organisation.homeCurrency;
  const { totalMinor: _, ...shown } = aging;
  const balance = ledgerBalance === null ? null : toMajor(ledgerBalance, currency);
  return { report, organisation: ctx.organisation.name, currency, date, ...shown, ledgerBalance: balance, notes };
}
