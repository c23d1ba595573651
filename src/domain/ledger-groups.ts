/**
 * The ledger's grouping rule, named once: which key a line falls under (none, its supplier, its
 * month), what each group is called, in which order groups come, each group's share of the whole,
 * which groups have their lines nested (detailForTop), and which lines a group covers. The
 * accounting readers sum lines by `groupKey`; the ledger operation arranges those sums with
 * `ledgerGroups`. Pure: no I/O. Amounts are integer minor units, so sums stay exact.
 */
import { endOfMonth, maxDate, minDate, monthKey, monthLabel, type IsoDate } from './dates.js';

export const LEDGER_GROUPINGS = ['none', 'supplier', 'month'] as const;
export type LedgerGrouping = (typeof LEDGER_GROUPINGS)[number];

/** What a group of lines is called when the line has no supplier (key ''). */
export const NO_SUPPLIER = '(no supplier)';

/** Sum and count of the lines under one key. */
export interface LineGroup {
  /** '' with grouping none; the contact id ('' for none) with supplier; yyyy-MM with month */
  key: string;
  amount: number;
  count: number;
}

/**
 * The key a line falls under. The builtin reader computes the same key in SQL (line-totals.ts):
 * `contact_key` / coalesce(contact_id, '') for supplier, `month` / substr(date, 1, 7) for month.
 */
export function groupKey(grouping: LedgerGrouping, line: { contactId: string | null; date: IsoDate }): string {
  if (grouping === 'supplier') return line.contactId ?? '';
  if (grouping === 'month') return monthKey(line.date);
  return '';
}

/** Lines summed by their key, in the order the keys first appear. */
export function sumByKey(grouping: LedgerGrouping, lines: Iterable<{ contactId: string | null; date: IsoDate; amount: number }>): LineGroup[] {
  const groups = new Map<string, LineGroup>();
  for (const line of lines) {
    const key = groupKey(grouping, line);
    const group = groups.get(key) ?? { key, amount: 0, count: 0 };
    group.amount += line.amount;
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The sum and count over groups (the groups of one query together cover every line it matches). */
export function sumGroups(groups: readonly LineGroup[]): { amount: number; count: number } {
  let amount = 0;
  let count = 0;
  for (const g of groups) {
    amount += g.amount;
    count += g.count;
  }
  return { amount, count };
}

/** One group as the ledger shows it. */
export interface LedgerGroup {
  key: string;
  name: string;
  /** signed as the account's balance moves (the sign given), minor units */
  amount: number;
  count: number;
  /** fraction of the overall total, 4 decimals; 0 when the total is 0 */
  share: number;
  /** one of the `detailForTop` largest groups shown: its lines are nested under it */
  detailed: boolean;
}

export interface LedgerGroups {
  /** over every group, shown or not: the lines' amount (as given, not signed) and count */
  total: number;
  count: number;
  /** a page of them, at most `limit` after `offset`: supplier largest first (then by name), month in date order */
  groups: LedgerGroup[];
  /** how many groups there are in all; more than `groups.length` when the page does not hold them all */
  of: number;
}

export interface GroupOptions {
  /** 1 or -1: turns debit-positive amounts into the account's own direction before ordering */
  sign: 1 | -1;
  /** contact id → name, for supplier groups; an unknown id is shown as itself */
  names?: ReadonlyMap<string, string>;
  /** most groups shown */
  limit: number;
  /** groups skipped before the ones shown, in their order (a later page); default 0 */
  offset?: number;
  /** nest the lines of this many of the largest groups shown (ties keep the shown order) */
  detailForTop?: number;
}

/** The sums by key, named, ordered, cut to a page (`offset`, `limit`), with shares and the groups of the page to detail. */
export function ledgerGroups(grouping: Exclude<LedgerGrouping, 'none'>, sums: readonly LineGroup[], options: GroupOptions): LedgerGroups {
  const { amount: total, count } = sumGroups(sums);
  const all = sums.map((g) => ({ key: g.key, name: groupName(grouping, g.key, options.names), amount: options.sign * g.amount, count: g.count }));
  if (grouping === 'supplier') all.sort((a, b) => b.amount - a.amount || a.name.localeCompare(b.name));
  else all.sort((a, b) => a.key.localeCompare(b.key));
  const offset = Math.max(0, options.offset ?? 0);
  const shown = all.slice(offset, offset + Math.max(0, options.limit));
  const top = new Set(
    [...shown]
      .sort((a, b) => b.amount - a.amount)
      .slice(0, options.detailForTop ?? 0)
      .map((g) => g.key),
  );
  const signedTotal = options.sign * total;
  return {
    total,
    count,
    of: all.length,
    groups: shown.map((g) => ({
      ...g,
      share: signedTotal === 0 ? 0 : Math.round((g.amount / signedTotal) * 10_000) / 10_000,
      detailed: top.has(g.key),
    })),
  };
}

/** A group's name: the month spelled out, the supplier's name, or NO_SUPPLIER. */
export function groupName(grouping: Exclude<LedgerGrouping, 'none'>, key: string, names?: ReadonlyMap<string, string>): string {
  if (grouping === 'month') return monthLabel(key);
  return key === '' ? NO_SUPPLIER : (names?.get(key) ?? key);
}

/** The query narrowed to one group's lines: that supplier, or that month within the query's dates. */
export function narrowToGroup<Q extends { from: IsoDate; to: IsoDate; contactIds?: string[] }>(
  grouping: Exclude<LedgerGrouping, 'none'>,
  key: string,
  query: Q,
): Q {
  if (grouping === 'supplier') return { ...query, contactIds: [key] };
  const first = `${key}-01`;
  return { ...query, from: maxDate(query.from, first), to: minDate(query.to, endOfMonth(first)) };
}
