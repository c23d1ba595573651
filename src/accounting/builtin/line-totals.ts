/**
 * The ledger's totals (overall, by contact, by month) for one query: whole months from
 * acct_month_line_totals, the partial months at the ends of the range from the lines, merged by
 * key. Over a year of the busiest account that is a few hundred aggregate rows instead of tens of
 * thousands of lines; the three months up to today read about a month of lines.
 */
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { LedgerGrouping, LineGroup } from '../../domain/ledger-groups.js';
import type { Database } from '../../store/schema.js';
import type { LineQuery } from '../types.js';
import { withAggregates, type AggregatesDatabase } from './line-aggregates.js';
import { splitRange } from '../../domain/range-split.js';

/**
 * domain/ledger-groups.ts groupKey in SQL: over the monthly line totals (which keep the contact as
 * `contact_key`, '' for none) and over the lines themselves.
 */
const KEY = {
  months: { none: sql<string>`''`, supplier: sql<string>`contact_key`, month: sql<string>`month` },
  lines: { none: sql<string>`''`, supplier: sql<string>`coalesce(contact_id, '')`, month: sql<string>`substr(date, 1, 7)` },
} as const;

/** Which contact keys a query asks for: undefined = every one; [] = none at all. */
function contactKeys(query: LineQuery): string[] | undefined {
  return query.contactIds ? [...new Set(query.contactIds)] : undefined;
}

/**
 * The organisation's lines a query matches, as `l`: its accounts, dates and transaction types and,
 * when it names contacts, those ('' stands for "no contact", so the lines without a supplier can be
 * asked for too; naming none matches nothing).
 */
export function matchingLines(db: Kysely<Database>, organisationId: string, query: LineQuery) {
  let q = db
    .selectFrom('acct_lines as l')
    .where('l.organisation_id', '=', organisationId)
    .where('l.account_id', 'in', query.accountIds)
    .where('l.date', '>=', query.from)
    .where('l.date', '<=', query.to)
    .where('l.type', 'in', [...query.types]);
  if (query.contactIds) {
    const ids = query.contactIds.filter((id) => id !== '');
    const withNone = ids.length < query.contactIds.length;
    q = q.where((eb) => {
      const terms: Expression<SqlBool>[] = [];
      if (ids.length) terms.push(eb('l.contact_id', 'in', ids));
      if (withNone) terms.push(eb('l.contact_id', 'is', null));
      return terms.length ? eb.or(terms) : eb(sql.lit(1), '=', sql.lit(0));
    });
  }
  return q;
}

export async function readLineTotals(db: Kysely<Database>, organisationId: string, query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
  if (query.accountIds.length === 0 || query.types.length === 0) return [];
  const keys = contactKeys(query);
  if (keys && keys.length === 0) return [];
  const { months, days } = splitRange({ from: query.from, to: query.to });
  const groups = new Map<string, { amount: number; count: number }>();
  const add = (rows: { key: string; amount: number | string | null; count: number | string | null }[]) => {
    for (const r of rows) {
      const g = groups.get(r.key) ?? { amount: 0, count: 0 };
      g.amount += Number(r.amount ?? 0);
      g.count += Number(r.count ?? 0);
      groups.set(r.key, g);
    }
  };

  // the whole months and each partial month: one statement, their parts joined by union all
  type Part = SelectQueryBuilder<AggregatesDatabase, any, { key: string; amount: number | string | null; count: number | string | null }>;
  const adb = withAggregates(db);
  const parts: Part[] = [];
  if (months) {
    const key = KEY.months[groupBy];
    let q = adb
      .selectFrom('acct_month_line_totals')
      .select([key.as('key'), sql<number>`sum(amount)`.as('amount'), sql<number>`sum(count)`.as('count')])
      .where('organisation_id', '=', organisationId)
      .where('account_id', 'in', query.accountIds)
      .where('month', '<=', months.to)
      .where('type', 'in', [...query.types]);
    if (months.from !== null) q = q.where('month', '>=', months.from);
    if (keys) q = q.where('contact_key', 'in', keys);
    parts.push(groupBy === 'none' ? q : q.groupBy(key));
  }

  for (const [from, to] of days) {
    const key = KEY.lines[groupBy];
    const q = matchingLines(db, organisationId, { ...query, from, to }).select([
      key.as('key'),
      sql<number>`sum(amount)`.as('amount'),
      sql<number>`count(*)`.as('count'),
    ]);
    // the same columns as the months' part; only the database type the builder carries differs
    parts.push((groupBy === 'none' ? q : q.groupBy(key)) as unknown as Part);
  }
  if (parts.length) add(await parts.reduce((all, part) => all.unionAll(part)).execute());

  return [...groups].filter(([, g]) => g.count > 0).map(([key, g]) => ({ key, amount: g.amount, count: g.count }));
}
