import { LISTED_TYPES, OTHER_TYPES, type ChartAccount, type LedgerLine } from '../accounting/types.js';
import { formatMoney } from '../domain/money.js';
import { agingAnswer, agingDescription, agingOptionsOf, agingReport, arrangeAging, ledgerBalanceOf, type OpenItem } from './aging.js';
import type { OperationContext } from './context.js';
import { defineOperation } from './operation.js';
import { EARLIEST_DATE } from './params.js';

/** The most receivable lines read to allocate payments: far beyond any small business's books. */
export const RECEIVABLE_LINES_MAX = 1_000_000;

export interface AllocatedReceivables {
  items: OpenItem[];
  prepaid: Map<string, { contact: string; contactId: string | null; amount: number }>;
  /** the net of lines on receivable accounts with no contact (minor units, owed positive) */
  withoutContact: number;
}

/**
 * Receivables from the receivable accounts' lines, for systems that hold no invoice documents (the
 * builtin ledger, which keeps no allocation of payments to invoices). Per contact, each
 * transaction's net on the receivable accounts is one entry: a debit (an invoice, a refund paid
 * out) is an item owed, due on its date (the ledger keeps no due dates); every credit (a payment,
 * a credit note) settles that contact's items oldest first (FIFO: by date, then number). Credits
 * beyond the items are `prepaid`. Items of the transactions in `settleLast` (documents the service
 * knows are still open) are settled after every other item of their contact.
 */
export function allocateFifo(lines: LedgerLine[], names: Map<string, string>, settleLast: ReadonlySet<string> = new Set()): AllocatedReceivables {
  const byContact = new Map<string, Map<string, { line: LedgerLine; net: number }>>();
  let withoutContact = 0;
  for (const l of lines) {
    if (!l.contactId) {
      withoutContact += l.amount;
      continue;
    }
    const txs = byContact.get(l.contactId) ?? new Map<string, { line: LedgerLine; net: number }>();
    const tx = txs.get(l.transactionId) ?? { line: l, net: 0 };
    tx.net += l.amount;
    txs.set(l.transactionId, tx);
    byContact.set(l.contactId, txs);
  }
  const items: OpenItem[] = [];
  const prepaid = new Map<string, { contact: string; contactId: string | null; amount: number }>();
  for (const [contactId, txs] of byContact) {
    const contact = names.get(contactId) ?? [...txs.values()][0]!.line.contactName ?? contactId;
    const owed = [...txs.values()]
      .filter((t) => t.net > 0)
      .map((t) => ({
        contact,
        contactId,
        number: t.line.number ?? t.line.transactionId,
        date: t.line.date,
        dueDate: t.line.date,
        amount: t.net,
        transactionId: t.line.transactionId,
      }))
      .sort(
        (a, b) =>
          Number(settleLast.has(a.transactionId)) - Number(settleLast.has(b.transactionId)) || a.date.localeCompare(b.date) || a.number.localeCompare(b.number),
      );
    let credit = -[...txs.values()].filter((t) => t.net < 0).reduce((s, t) => s + t.net, 0);
    for (const item of owed) {
      const settled = Math.min(credit, item.amount);
      credit -= settled;
      if (item.amount - settled > 0) items.push({ ...item, amount: item.amount - settled });
    }
    if (credit > 0) prepaid.set(contactId, { contact, contactId, amount: -credit });
  }
  return { items, prepaid, withoutContact };
}

export async function fromLedgerLines(ctx: OperationContext, chart: ChartAccount[], date: string): Promise<AllocatedReceivables> {
  const ids = chart.filter((a) => a.type === 'Accounts Receivable').map((a) => a.id);
  if (ids.length === 0) return { items: [], prepaid: new Map(), withoutContact: 0 };
  const [lines, contacts] = await Promise.all([
    ctx.accounting.lines({ accountIds: ids, from: EARLIEST_DATE, to: date, types: [...LISTED_TYPES, ...OTHER_TYPES] }, RECEIVABLE_LINES_MAX),
    ctx.accounting.contacts(),
  ]);
  return allocateFifo(lines, new Map(contacts.map((c) => [c.id, c.name])));
}

export const reportsAgedReceivables = defineOperation({
  ...agingReport,
  name: 'reports.aged_receivables',
  tool: 'reports_aged_receivables',
  title: 'Aged receivables',
  summary: 'Who owes the organisation money, by customer, in buckets of days past due at a date.',
  description: agingDescription('Receivable', {
    what: 'What customers owe, by customer',
    systems:
      'With a GnuCash book: its posted customer invoices and credit notes with a balance left on their lot at `date` (after the payments and ' +
      'credit notes applied to each by then), by due date.',
  }),
  async run(ctx, input) {
    const options = agingOptionsOf(ctx, input);
    const { date, currency } = options;
    const chart = await ctx.accounting.chartOfAccounts();
    let allocated: AllocatedReceivables;
    if (ctx.accounting.receivables) {
      const open = await ctx.accounting.receivables(date);
      allocated = {
        items: open.map((r) => ({ contact: r.contactName, contactId: r.contactId, number: r.number, date: r.date, dueDate: r.dueDate, amount: r.amountDue })),
        prepaid: new Map(),
        withoutContact: 0,
      };
    } else allocated = await fromLedgerLines(ctx, chart, date);
    const aging = arrangeAging(allocated.items, { ...options, prepaid: allocated.prepaid });
    const notes: string[] = [];
    if (allocated.withoutContact !== 0)
      notes.push(`${formatMoney(allocated.withoutContact, currency)} on the Accounts Receivable accounts has no customer (journals) and is not aged.`);
    const ledgerBalance = await ledgerBalanceOf(ctx, chart, 'Accounts Receivable', date, 1);
    if (ledgerBalance !== null && ledgerBalance !== aging.totalMinor && !input.contact && allocated.withoutContact === 0)
      notes.push(
        `The Accounts Receivable accounts stand at ${formatMoney(ledgerBalance, currency)} at ${date}, the aged invoices ` +
          `at ${formatMoney(aging.totalMinor, currency)}: payments not applied to an invoice and entries without an invoice make the difference.`,
      );
    return agingAnswer(ctx, 'Aged Receivables', date, aging, ledgerBalance, notes);
  },
});
