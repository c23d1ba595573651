/** Finding one chart account from what a caller typed: id, number, full name or name. */
import type { ChartAccount } from '../accounting/types.js';
import { closeMatches } from '../domain/close-matches.js';
import { invalidParameter, OperationError } from './errors.js';

export function resolveAccount(chart: ChartAccount[], text: string, parameter = 'account'): ChartAccount {
  const wanted = text.trim();
  const lower = wanted.toLowerCase();
  const exact =
    chart.find((a) => a.id === wanted) ?? chart.find((a) => a.number !== null && a.number === wanted) ?? chart.find((a) => a.fullName.toLowerCase() === lower);
  if (exact) return exact;
  const byName = chart.filter((a) => a.name.toLowerCase() === lower);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) {
    throw invalidParameter(parameter, `"${wanted}" names several accounts; use one of: ${byName.map((a) => a.fullName).join(', ')}`);
  }
  const candidates = closeMatches(wanted, chart, (a) => [a.name, a.fullName, a.number ?? '']).map((a) => ({
    id: a.id,
    fullName: a.fullName,
    number: a.number,
  }));
  const hint = candidates.length ? ` Did you mean ${candidates.map((c) => `"${c.fullName}"`).join(', ')}?` : '';
  throw new OperationError('account_not_found', `No account "${wanted}" in this organisation's chart of accounts.${hint}`, [], { candidates });
}

/** The account and every account below it, in chart order. */
export function withDescendants(chart: ChartAccount[], root: ChartAccount): ChartAccount[] {
  const children = new Map<string, ChartAccount[]>();
  for (const a of chart) {
    if (!a.parentId) continue;
    const list = children.get(a.parentId) ?? [];
    list.push(a);
    children.set(a.parentId, list);
  }
  const out: ChartAccount[] = [];
  const visit = (a: ChartAccount) => {
    out.push(a);
    for (const c of children.get(a.id) ?? []) visit(c);
  };
  visit(root);
  return out;
}

/** +1 where a debit increases the account's normal balance (assets, expenses), -1 otherwise. */
export function normalSign(account: Pick<ChartAccount, 'classification'>): 1 | -1 {
  return account.classification === 'Asset' || account.classification === 'Expense' ? 1 : -1;
}
