/**
 * The chart of accounts of a GnuCash book: every account below the book's root (the template root
 * of scheduled transactions and its accounts are not part of it), in GnuCash's own order (depth
 * first, siblings by code, then name), with full names "Parent:Child" built from the tree.
 */
import type { ChartAccount } from '../types.js';
import type { Book, BookContext } from './book.js';
import { accountTypeFor, classificationOf, RETAINED_EARNINGS } from './mapping.js';

interface AccountRow {
  guid: string;
  name: string;
  account_type: string;
  parent_guid: string | null;
  code: string | null;
  hidden: number | null;
}

export function readChart(db: Book, ctx: BookContext): ChartAccount[] {
  const rows = db.prepare(`SELECT guid, name, account_type, parent_guid, code, hidden FROM accounts`).all() as AccountRow[];
  const children = new Map<string, AccountRow[]>();
  for (const r of rows) {
    if (!r.parent_guid) continue;
    const list = children.get(r.parent_guid) ?? [];
    list.push(r);
    children.set(r.parent_guid, list);
  }
  const byCodeThenName = (a: AccountRow, b: AccountRow) => (a.code ?? '').localeCompare(b.code ?? '') || a.name.localeCompare(b.name);
  const chart: ChartAccount[] = [];
  let retainedChosen = false;
  const visit = (parent: AccountRow | null, parentPath: string[], parentHidden: boolean, guid: string) => {
    for (const r of (children.get(guid) ?? []).sort(byCodeThenName)) {
      const path = [...parentPath, r.name];
      const type = accountTypeFor(r.account_type, path);
      // GnuCash hides an account whose ancestor is hidden, too
      const hidden = parentHidden || r.hidden === 1;
      const retained = !retainedChosen && type === 'Equity' && r.account_type === 'EQUITY' && RETAINED_EARNINGS.test(r.name);
      if (retained) retainedChosen = true;
      chart.push({
        id: r.guid,
        name: r.name,
        fullName: path.join(':'),
        number: r.code?.trim() ? r.code.trim() : null,
        type,
        classification: classificationOf(type),
        active: !hidden,
        parentId: parent ? parent.guid : null,
        ...(retained ? { retainedEarnings: true } : {}),
      });
      visit(r, path, hidden, r.guid);
    }
  };
  visit(null, [], false, ctx.rootGuid);
  return chart;
}
