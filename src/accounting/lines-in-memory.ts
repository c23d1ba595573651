/**
 * The line reads of a connector that holds all of a book's ledger lines in memory (Xero and
 * QuickBooks until their local mirror exists): the same filters and sums the builtin ledger does in
 * SQL, over an array, written once for every such connector.
 */
import { sumByKey, type LedgerGrouping, type LineGroup } from '../domain/ledger-groups.js';
import type { DateRange, LedgerLine, LineQuery } from './types.js';

/** Per account, the sum of its lines in each range (home minor units, debit positive). */
export function totalsOfLines(lines: readonly LedgerLine[], ranges: DateRange[], accountIds?: string[]): Map<string, number[]> {
  const wanted = accountIds ? new Set(accountIds) : undefined;
  const out = new Map<string, number[]>();
  for (const line of lines) {
    if (wanted && !wanted.has(line.accountId)) continue;
    ranges.forEach((r, k) => {
      if (line.date > r.to || (r.from !== undefined && line.date < r.from)) return;
      let totals = out.get(line.accountId);
      if (!totals) out.set(line.accountId, (totals = ranges.map(() => 0)));
      totals[k]! += line.amount;
    });
  }
  return out;
}

/** The lines a query asks for, in the order given (connectors keep theirs newest first). */
export function matchingLines<L extends LedgerLine>(lines: readonly L[], query: LineQuery): L[] {
  if (query.accountIds.length === 0 || query.types.length === 0) return [];
  const accounts = new Set(query.accountIds);
  const types = new Set(query.types);
  const contacts = query.contactIds ? new Set(query.contactIds) : undefined;
  return lines.filter(
    (l) => accounts.has(l.accountId) && types.has(l.type) && l.date >= query.from && l.date <= query.to && (!contacts || contacts.has(l.contactId ?? '')),
  );
}

export function groupedLines(lines: readonly LedgerLine[], query: LineQuery, groupBy: LedgerGrouping): LineGroup[] {
  return sumByKey(groupBy, matchingLines(lines, query));
}
