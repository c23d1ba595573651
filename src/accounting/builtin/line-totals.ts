/**
 * The ledger's totals (overall, by contact, by month) for one query: whole months from
 * acct_month_line_totals, the days of the partial months at the ends of the range from
 * acct_day_line_totals, merged by key. Over a year of the busiest account that is a few hundred
 * aggregate rows instead of tens of thousands of lines; the three months up to today, about 300
 * day rows instead of 2,000 lines.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { LedgerGrouping, LineGroup } from '../../domain/ledger-groups.js';
import type { Database } from '../../store/schema.js';
import type { LineQuery } from '../types.js';
import { preparedShapes } from '../../store/prepared.js';
import { partsValues, splitRange, type PartsValues } from '../../domain/range-split.js';

/**
 * domain/ledger-groups.ts groupKey in SQL, over the monthly and the daily line totals (which keep
 * the contact as `contact_key`, '' for none).
 */
const KEY = {
  months: { none: sql<string>`''`, supplier: sql<string>`contact_key`, month: sql<string>`month` },
  days: { none: sql<string>`''`, supplier: sql<string>`contact_key`, month: sql<string>`substr(date, 1, 7)` },
} as const;

/**
 * What a query's contacts make of the statement: every line (`all`), those of some contacts
 * (`ids`), of some or none (`ids+none`), only those without one (`none`), or nothing at all
 * (`nothing`: it named none), with the contact ids proper ('' stands for "no contact").
 */
export type ContactFilter = 'all' | 'ids' | 'ids+none' | 'none' | 'nothing';

export function contactFilter(query: LineQuery): { filter: ContactFilter; ids: string[] } {
  if (!query.contactIds) return { filter: 'all', ids: [] };
  const ids = [...new Set(query.contactIds.filter((id) => id !== ''))];
  const withNone = query.contactIds.includes('');
  return { filter: ids.length ? (withNone ? 'ids+none' : 'ids') : withNone ? 'none' : 'nothing', ids };
}

/** A query's values as the totals statement takes them (store/prepared.ts). */
interface TotalsValues extends PartsValues {
  organisationId: string;
  accountIds: string[];
  types: string[];
  /** the contact keys of the stored totals ('' for none) */
  contactKeys: string[];
}

type TotalsRow = { key: string; amount: number | string | null; count: number | string | null };

/** What makes the totals statement's SQL: each is a choice of its parts, never a value. */
interface TotalsShape {
  groupBy: LedgerGrouping;
  filter: ContactFilter;
  /** whole months: none, up to a month (from the beginning) or a range of months */
  months: 'none' | 'to' | 'range';
  /** how many partial months (0 to 2) */
  days: number;
}

/**
 * The whole months and each partial month in one statement, their parts joined by union all;
 * compiled once per shape: the grouping, the contact filter, whether there are whole months (and
 * from the beginning or not) and how many partial months. Named on PostgreSQL: each index range's
 * generic plan is the custom one, planned once (0.36 -> 0.15 ms, docs/performance.md).
 */
const totalsStatement = preparedShapes(
  (db, v: TotalsValues, { groupBy, filter, months, days }: TotalsShape) => {
    /** one table's totals of the query's accounts, types and contacts over `period`, by the grouping's key */
    const part = (table: 'acct_month_line_totals' | 'acct_day_line_totals', period: (q: Part) => Part) => {
      const key = (table === 'acct_month_line_totals' ? KEY.months : KEY.days)[groupBy];
      let q: Part = db
        .selectFrom(table)
        .select([key.as('key'), sql<number>`sum(amount)`.as('amount'), sql<number>`sum(count)`.as('count')])
        .where('organisation_id', '=', v.organisationId)
        .where('account_id', 'in', v.accountIds)
        .where('type', 'in', v.types);
      if (filter !== 'all') q = q.where('contact_key', 'in', v.contactKeys);
      q = period(q);
      return groupBy === 'none' ? q : q.groupBy(key);
    };
    const parts: Part[] = [];
    if (months !== 'none') {
      parts.push(part('acct_month_line_totals', (q) => (months === 'range' ? q.where('month', '>=', v.monthFrom) : q).where('month', '<=', v.monthTo)));
    }
    for (let k = 0; k < days; k++) {
      parts.push(part('acct_day_line_totals', (q) => q.where('date', '>=', v.dayFrom[k]!).where('date', '<=', v.dayTo[k]!)));
    }
    return parts.reduce((all, p) => all.unionAll(p)).compile();
  },
  // sums of integer amounts and counts by a text key: rows a SQLite reader may send as JSON
  { genericPlan: true, exactInJson: true },
);

type Part = SelectQueryBuilder<Database & Record<string, any>, any, TotalsRow>;

export async function readLineTotals(db: Kysely<Database>, organisationId: string, query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
  if (query.accountIds.length === 0 || query.types.length === 0) return [];
  const { filter } = contactFilter(query);
  if (filter === 'nothing') return [];
  const parts = splitRange({ from: query.from, to: query.to });
  if (!parts.months && parts.days.length === 0) return [];
  const months = parts.months ? (parts.months.from === null ? 'to' : 'range') : 'none';
  const rows = await totalsStatement(
    db,
    { groupBy, filter, months, days: parts.days.length },
    {
      organisationId,
      accountIds: query.accountIds,
      types: [...query.types],
      contactKeys: [...new Set(query.contactIds ?? [])],
      ...partsValues(parts),
    },
  );
  const groups = new Map<string, { amount: number; count: number }>();
  for (const r of rows) {
    const g = groups.get(r.key) ?? { amount: 0, count: 0 };
    g.amount += Number(r.amount ?? 0);
    g.count += Number(r.count ?? 0);
    groups.set(r.key, g);
  }
  return [...groups].filter(([, g]) => g.count > 0).map(([key, g]) => ({ key, amount: g.amount, count: g.count }));
}
