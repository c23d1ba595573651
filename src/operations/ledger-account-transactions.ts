import { z } from 'zod';
import { LISTED_TYPES, OTHER_TYPES, type ChartAccount, type Contact, type LedgerLine, type LineQuery } from '../accounting/types.js';
import { LEDGER_GROUPINGS, ledgerGroups, narrowToGroup, sumGroups } from '../domain/ledger-groups.js';
import { formatMoney, toMajor } from '../domain/money.js';
import type { OperationContext } from './context.js';
import { invalidRequest, type ParameterError } from './errors.js';
import { normalSign, resolveAccount, withDescendants } from './account-lookup.js';
import { resolveSuppliers } from './ledger/suppliers.js';
import { systemDocumentsOfLines } from './documents-system.js';
import { entrySchema, transactionSchema } from './ledger/transaction-schemas.js';
import { publishedDocuments, type PublishedDocument } from './ledger/published-documents.js';
import { documentLink } from './links.js';
import { defineOperation } from './operation.js';
import { booleanParam, dateParam, intParam, pageParam, periodParam, textParam } from './params.js';
import { resolvePeriodInput } from './period-input.js';

export const LEDGER_LIMIT_DEFAULT = 100;
export const LEDGER_LIMIT_MAX = 1000;

export const ledgerAccountTransactions = defineOperation({
  kind: 'organisation',
  name: 'ledger.account_transactions',
  tool: 'ledger_account_transactions',
  title: 'Ledger account transactions',
  summary: 'Everything coded to one account in a period, in home currency, one row per line.',
  description:
    'Lists every line coded to one account (and its sub-accounts) in a period from bills, expenses, cheques, card charges and refunds, supplier ' +
    "credits and deposits, newest first, in the home currency: positive amounts increase the account's balance. " +
    'Paged: `limit` lines a page (1 to 1000, default 100), `page` from 1 (default); `hasMore` is true when a later page holds more, so ask for page 2, ' +
    '3, … until it is false. `total` and `count` always cover every matching line, on every page; `truncated` is true whenever the answer does not ' +
    'list them all (on page 1 it equals hasMore). A page past the end answers no lines, hasMore false, and the same totals. ' +
    'groupBy supplier gives totals per supplier, largest first; groupBy month gives totals per month in date order: then `groups` holds them and ' +
    '`transactions` is null (with groupBy none, `groups` is empty), and the pages are pages of groups (`limit` groups a page, in that order). ' +
    "detailForTop nests the lines of the largest N groups of the page, up to `limit` of each group's newest lines (the other groups' `transactions` " +
    "are null); to page through all of one group's lines, ask for that supplier (supplier) or that month (period custom, from and to) with groupBy none. " +
    "reconcile=true also reads the accounting system's own total for the account and period and lists the journal entries and other postings that make " +
    'up the difference (`reconciliation`, null otherwise), a page of them with the same limit and page (entriesCount counts them all). `movement` is ' +
    "always the account's whole movement in the period: on an income, receivable or tax account most of it comes from invoices, customer payments and " +
    'journals, which this list does not include, and then notes says so with the amount left out; answer questions about such an account from movement ' +
    "(or reports), not from total. A line's `document` is the service document it was published from, else the accounting system's own document behind " +
    'it (a GnuCash bill, id gnucash:<guid>; a Xero bill or supplier credit note, id xero:<id>), null when there is none. Defaults: the three months up ' +
    'to today, groupBy none, limit 100, page 1, reconcile false.',
  input: z
    .object({
      account: textParam()
        .min(1, { message: 'must not be empty' })
        .describe('The account: its name, full name (Parent:Child), number or id (see accounts_list). Sub-accounts are included.'),
      period: periodParam('Omitted means the three months up to today.').optional(),
      from: dateParam('With period custom: the first day, yyyy-MM-dd.').optional(),
      to: dateParam('With period custom: the last day, yyyy-MM-dd.').optional(),
      groupBy: z
        .enum(LEDGER_GROUPINGS, { message: 'must be none, supplier or month' })
        .describe('none (default): the lines; supplier: totals per supplier, largest first; month: totals per month, in date order.')
        .optional(),
      supplier: textParam(1000)
        .describe(
          'Only the lines of these suppliers: a name or id, several comma separated, or a JSON array of names or ids. A name that holds commas ' +
            '("Smith, Jones & Co") may be given as it is.',
        )
        .optional(),
      detailForTop: intParam(1, 100).describe('With groupBy supplier or month: nest the lines of the N groups with the largest totals under them.').optional(),
      limit: intParam(1, LEDGER_LIMIT_MAX)
        .describe(`Lines (or groups, with groupBy) a page, 1 to ${LEDGER_LIMIT_MAX}, default ${LEDGER_LIMIT_DEFAULT}. Totals always cover everything.`)
        .optional(),
      page: pageParam
        .describe(
          'Page number, from 1 (default): the lines (or groups) after the first limit × (page − 1) in the order listed. hasMore says whether a later ' +
            'page exists; a page past the end answers none, with the totals.',
        )
        .optional(),
      reconcile: booleanParam
        .describe(
          "When true, also reads the accounting system's own total for the account and period (slower) and reports the difference and the journal " +
            'entries that explain it.',
        )
        .optional(),
    })
    .strict(),
  output: z.object({
    account: z.object({ id: z.string(), name: z.string(), fullName: z.string(), type: z.string(), subAccounts: z.array(z.string()) }),
    period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
    currency: z.string(),
    total: z.number(),
    count: z.number().int(),
    groupBy: z.string(),
    groups: z
      .array(
        z.object({
          key: z.string(),
          name: z.string(),
          total: z.number(),
          count: z.number().int(),
          share: z.number().describe('fraction of the overall total, 4 decimals'),
          transactions: z
            .array(transactionSchema)
            .nullable()
            .describe("the group's lines when it is one of the detailForTop largest groups; null otherwise (not fetched)"),
        }),
      )
      .describe('the groups with groupBy supplier or month; empty ([]) with groupBy none'),
    transactions: z.array(transactionSchema).nullable().describe("the page's lines with groupBy none; null when grouped (see groups)"),
    truncated: z
      .boolean()
      .describe(
        'true when this answer does not list every matching line (or group): limit cut the list, or this is a later page; total and count still cover them all',
      ),
    page: z.number().int().describe('the page answered, from 1'),
    pageSize: z.number().int().describe('lines (or groups) a page: the limit'),
    hasMore: z.boolean().describe('true when a later page holds more lines (or groups); false on the last page and past it'),
    movement: z
      .number()
      .describe(
        "the account's whole movement in the period (every transaction type and contact, sub-accounts included), same sign as total; when it differs " +
          'from total, notes says what the list leaves out',
      ),
    reconciliation: z
      .object({
        accountingSystemTotal: z.number(),
        listedTotal: z.number(),
        difference: z.number(),
        explainedTotal: z.number(),
        unexplained: z.number(),
        entries: z.array(entrySchema),
        entriesCount: z
          .number()
          .int()
          .describe('every entry that explains the difference; entries lists a page of them, newest first, paged as the lines are (limit, page)'),
      })
      .nullable()
      .describe('with reconcile true; null otherwise'),
    notes: z.array(z.string()),
  }),
  scope: 'service.read',
  defaultRoles: ['super_admin', 'admin'],
  reuse: 'organisation',
  async run(ctx, input) {
    const errors: ParameterError[] = [];
    const groupBy = input.groupBy ?? 'none';
    if (input.detailForTop !== undefined && groupBy === 'none')
      errors.push({ parameter: 'detailForTop', message: 'applies only with groupBy supplier or month' });
    if (input.reconcile && input.supplier !== undefined)
      errors.push({ parameter: 'reconcile', message: 'compares whole-account totals, so it cannot be combined with supplier' });
    if (errors.length) throw invalidRequest(errors);
    const period = resolvePeriodInput(input, ctx, 'last_three_months');
    const limit = input.limit ?? LEDGER_LIMIT_DEFAULT;
    const page = input.page ?? 1;
    const offset = (page - 1) * limit;
    // no line can sit past the exact integer range, and the databases would not take such an offset
    const reachable = Number.isSafeInteger(offset);

    // the contact list is read only when names are needed beyond those the lines carry
    let contactList: Promise<Contact[]> | undefined;
    let nameMap: Promise<Map<string, string>> | undefined;
    const contacts = () => (contactList ??= ctx.accounting.contacts());
    const contactNames = () => (nameMap ??= contacts().then((list) => new Map(list.map((c) => [c.id, c.name]))));
    const needContacts = input.supplier !== undefined || groupBy === 'supplier';
    const [chart] = await Promise.all([ctx.accounting.chartOfAccounts(), needContacts ? contacts() : undefined]);
    const account = resolveAccount(chart, input.account);
    const accounts = withDescendants(chart, account);
    const sign = normalSign(account);
    const suppliers = input.supplier !== undefined ? resolveSuppliers(await contacts(), input.supplier) : undefined;
    const query: LineQuery = {
      accountIds: accounts.map((a) => a.id),
      from: period.from,
      to: period.to,
      types: LISTED_TYPES,
      ...(suppliers ? { contactIds: suppliers.map((s) => s.id) } : {}),
    };
    const currency = ctx.organisation.homeCurrency;
    const money = (minor: number) => toMajor(sign * minor, currency);
    const present = presenter(ctx, chart, contactNames, sign);
    const notes: string[] = [];
    if (accounts.length > 1) notes.push(`Includes ${accounts.length - 1} sub-account(s) of ${account.fullName}.`);

    // the account's whole movement (below) does not depend on the list: read alongside it
    const ownRead = ctx.accounting.accountTotals([{ from: period.from, to: period.to }], query.accountIds);
    ownRead.catch(() => {}); // awaited below; a failure there, not as an unhandled rejection if the list fails first
    let total: number;
    let count: number;
    // an array whatever the grouping, as the spec types it: none with groupBy none
    let groups: Array<{ key: string; name: string; total: number; count: number; share: number; transactions: z.infer<typeof transactionSchema>[] | null }> =
      [];
    let transactions = null;
    let truncated: boolean;
    let hasMore: boolean;
    if (groupBy === 'none') {
      // the totals come from the stored totals whatever the page; the page is read in the index's
      // order, one line more than it shows to know whether another page follows
      const [totals, read] = await Promise.all([ctx.accounting.lineTotals(query, 'none'), reachable ? ctx.accounting.lines(query, limit + 1, offset) : []]);
      ({ amount: total, count } = sumGroups(totals));
      const lines = read.slice(0, limit);
      hasMore = read.length > limit;
      transactions = await present(lines);
      truncated = count > lines.length;
      const note = pageNote({ one: 'line', many: 'lines', shown: lines.length, of: count, page, offset, limit, hasMore });
      if (note) notes.push(`${note}; total and count cover all of them.`);
    } else {
      // the groups together cover every line: their sum is the total, no separate query for it;
      // a page of groups is a slice of them all, in their order
      const names = groupBy === 'supplier' ? await contactNames() : undefined;
      const arranged = ledgerGroups(groupBy, await ctx.accounting.lineTotals(query, groupBy), { sign, names, limit, offset, detailForTop: input.detailForTop });
      ({ total, count } = arranged);
      truncated = arranged.of > arranged.groups.length;
      hasMore = offset + arranged.groups.length < arranged.of;
      const note = pageNote({ one: 'group', many: 'groups', shown: arranged.groups.length, of: arranged.of, page, offset, limit, hasMore });
      if (note) notes.push(`${note}; total and count cover all of them.`);
      const detailedLines = await Promise.all(
        arranged.groups.map((g) => (g.detailed ? ctx.accounting.lines(narrowToGroup(groupBy, g.key, query), limit) : null)),
      );
      // the detailed groups' lines presented together: their documents in one read, not one per group
      const presented = await present(detailedLines.flatMap((lines) => lines ?? []));
      let next = 0;
      groups = arranged.groups.map((g, i) => {
        const group = { key: g.key, name: g.name, total: toMajor(g.amount, currency), count: g.count, share: g.share, transactions: null };
        const lines = detailedLines[i];
        if (!lines) return group;
        if (lines.length < g.count)
          notes.push(
            `Group ${g.name}: showing the newest ${lines.length} of ${g.count} lines; ask for ${
              groupBy === 'supplier' ? 'that supplier' : 'that month (period custom, from and to)'
            } with groupBy none to page through them.`,
          );
        return { ...group, transactions: presented.slice(next, (next += lines.length)) };
      });
    }

    // the account's whole movement, so a list of purchase-side lines is never read as the account's
    // activity: on Sales or VAT it is mostly invoices and journals, which the list leaves out
    const own = await ownRead;
    let accountingTotal = 0;
    for (const amounts of own.values()) accountingTotal += amounts[0]!;
    const otherQuery: LineQuery = { ...query, types: OTHER_TYPES };
    let other: { amount: number; count: number } | undefined;
    const otherTotals = async () => (other ??= sumGroups(await ctx.accounting.lineTotals(otherQuery, 'none')));
    if (suppliers === undefined && !input.reconcile && accountingTotal !== total) {
      const { amount, count: otherCount } = await otherTotals();
      notes.unshift(
        `Not the whole account: this list holds the ${LISTED_TYPES.join(', ')} lines (${formatMoney(sign * total, currency)}); ` +
          `${account.fullName} moved ${formatMoney(sign * accountingTotal, currency)} in the period in all` +
          (otherCount
            ? `, ${formatMoney(sign * amount, currency)} of it through ${otherCount} invoice, customer payment, journal or transfer line(s) not listed ` +
              `here (reconcile=true lists them)`
            : '') +
          ". Use movement for the account's activity.",
      );
    }

    let reconciliation = null;
    if (input.reconcile) {
      const other = await otherTotals();
      // the entries are paged as the lines are (limit, page); entriesCount always counts them all
      const entries = reachable ? await ctx.accounting.lines(otherQuery, limit, offset) : [];
      const entriesNote = pageNote({
        one: 'entry',
        many: 'entries',
        shown: entries.length,
        of: other.count,
        page,
        offset,
        limit,
        hasMore: offset + entries.length < other.count,
      });
      if (entriesNote)
        notes.push(`Reconciliation: ${entriesNote[0]!.toLowerCase()}${entriesNote.slice(1)}; entriesCount and explainedTotal cover all of them.`);
      const explained = other.amount;
      const difference = accountingTotal - total;
      const byId = new Map(chart.map((a) => [a.id, a]));
      reconciliation = {
        accountingSystemTotal: money(accountingTotal),
        listedTotal: money(total),
        difference: money(difference),
        explainedTotal: money(explained),
        unexplained: money(difference - explained),
        entries: entries.map((l) => ({
          date: l.date,
          type: l.type,
          number: l.number,
          description: l.description,
          account: byId.get(l.accountId)?.fullName ?? l.accountId,
          amount: money(l.amount),
          accountingSystemId: l.transactionId,
        })),
        entriesCount: other.count,
      };
      if (difference === 0) notes.push("The accounting system's own total equals the listed total.");
      else
        notes.push(
          `The accounting system's own total differs by ${formatMoney(sign * difference, currency)}: ${other.count} journal entries, invoices, ` +
            `payments or transfers make up ${formatMoney(sign * explained, currency)} of it.`,
        );
    }

    return {
      account: { id: account.id, name: account.name, fullName: account.fullName, type: account.type, subAccounts: accounts.slice(1).map((a) => a.fullName) },
      period: { from: period.from, to: period.to, label: period.label },
      currency,
      total: money(total),
      count,
      groupBy,
      groups,
      transactions,
      truncated,
      page,
      pageSize: limit,
      hasMore,
      movement: money(accountingTotal),
      reconciliation,
      notes,
    };
  },
});

/**
 * What a note says of a page that does not hold the whole list (null when it does): which part of
 * it the page shows, or that the page is past the end, and where the next part is.
 */
function pageNote(p: { one: string; many: string; shown: number; of: number; page: number; offset: number; limit: number; hasMore: boolean }): string | null {
  if (p.shown === p.of) return null;
  if (p.shown === 0) {
    const pages = Math.ceil(p.of / p.limit);
    return (
      `Page ${p.page} is past the last ${p.one}: the ${p.of} ${p.of === 1 ? p.one : p.many} ${p.of === 1 ? 'makes' : 'make'} ${pages} ` +
      `page${pages === 1 ? '' : 's'} of ${p.limit}`
    );
  }
  const part =
    p.page === 1
      ? `the ${p.one === 'group' ? 'first' : 'newest'} ${p.shown} of ${p.of} ${p.many}`
      : p.shown === 1
        ? `${p.one} ${p.offset + 1} of ${p.of}`
        : `${p.many} ${p.offset + 1}–${p.offset + p.shown} of ${p.of}`;
  return `Showing ${part} (page ${p.page}${p.hasMore ? `; page ${p.page + 1} has the next` : ', the last'})`;
}

/** Turns connector lines into output rows, with the service's published documents attached. */
function presenter(ctx: OperationContext, chart: ChartAccount[], contactNames: () => Promise<Map<string, string>>, sign: 1 | -1) {
  const accountNames = new Map(chart.map((a) => [a.id, a.fullName]));
  return async (lines: LedgerLine[]) => {
    const [documents, names] = await Promise.all([
      publishedDocuments(
        ctx.db,
        ctx.organisation.id,
        lines.map((l) => l.transactionId),
      ),
      // a connector whose lines carry contact ids without names: name them from its contact list
      lines.some((l) => l.contactName === null && l.contactId) ? contactNames() : new Map<string, string>(),
    ]);
    // the connected system's own documents (a GnuCash bill) where the service published none
    const theirs = await systemDocumentsOfLines(ctx, lines, documents);
    return lines.map((l) => {
      const document: PublishedDocument | undefined = documents.get(l.transactionId) ?? theirs.get(l.transactionId);
      return {
        date: l.date,
        type: l.type,
        number: l.number,
        supplier: l.contactName ?? (l.contactId ? (names.get(l.contactId) ?? null) : null),
        description: l.description,
        account: accountNames.get(l.accountId) ?? l.accountId,
        amount: toMajor(sign * l.amount, ctx.organisation.homeCurrency),
        currency: l.currency,
        amountInCurrency: toMajor(sign * l.amountInCurrency, l.currency),
        accountingSystemId: l.transactionId,
        link: document ? documentLink(document.id) : l.link,
        document: document ?? null,
      };
    });
  };
}
