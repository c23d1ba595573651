/**
 * Account totals over many date ranges at once, for the builtin ledger's reports. Each range is
 * split into its whole months, read from acct_month_totals, and the partial months at its ends,
 * read from acct_day_totals; then ONE statement covers every range and both tables: the ranges'
 * edges cut the months (and the days) into disjoint segments, each summed per account by an index
 * range and added to every range it belongs to, so a report with 12 comparisons costs one round
 * trip of small index reads, not 26 statements or a pass over the lines. Results are
 * debit-positive home-currency minor units.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../../store/dialect.js';
import { textArrayLiteral } from '../../store/pg-text-array.js';
import { preparedShapes } from '../../store/prepared.js';
import { addDays } from '../../domain/dates.js';
import { splitRange } from '../../domain/range-split.js';
import type { Database } from '../../store/schema.js';
import type { DateRange } from '../types.js';

/**
 * The day parts of every range cut at each other's edges into disjoint segments, each with the
 * ranges it belongs to: every stored day is read once, and each range is a sum of whole segments.
 */
function segments(parts: { i: number; days: [string, string][] }[]): { from: string; to: string; ranges: number[] }[] {
  const edges = new Set<string>();
  for (const p of parts) for (const [from, to] of p.days) edges.add(from).add(addDays(to, 1));
  const sorted = [...edges].sort();
  const out: { from: string; to: string; ranges: number[] }[] = [];
  for (let k = 0; k + 1 < sorted.length; k++) {
    const from = sorted[k]!;
    const to = addDays(sorted[k + 1]!, -1);
    const ranges: number[] = [];
    for (const p of parts) if (p.days.some(([a, b]) => a <= from && to <= b)) ranges.push(p.i);
    if (ranges.length) out.push({ from, to, ranges });
  }
  return out;
}

/** A month as a number, so edges past the last representable date (9999-12, "up to any date") still compare and step. */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOfIndex = (index: number) => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/**
 * The whole-month parts of every range cut at each other's edges, as segments() cuts days: from
 * null is the beginning of the books.
 */
function monthSegments(parts: { i: number; from: string | null; to: string }[]): { from: string | null; to: string; ranges: number[] }[] {
  const start = (p: { from: string | null }) => (p.from === null ? -Infinity : monthIndex(p.from));
  const edges = new Set<number>();
  for (const p of parts) edges.add(start(p)).add(monthIndex(p.to) + 1);
  const sorted = [...edges].sort((a, b) => a - b);
  const out: { from: string | null; to: string; ranges: number[] }[] = [];
  for (let k = 0; k + 1 < sorted.length; k++) {
    const from = sorted[k]!;
    const to = sorted[k + 1]! - 1;
    const ranges: number[] = [];
    for (const p of parts) if (start(p) <= from && to <= monthIndex(p.to)) ranges.push(p.i);
    if (ranges.length) out.push({ from: from === -Infinity ? null : monthOfIndex(from), to: monthOfIndex(to), ranges });
  }
  return out;
}

/** The values the statement takes: list element k is month (or day) segment k's. */
interface SegmentValues {
  organisationId: string;
  accountIds: string[];
  monthFrom: string[];
  monthTo: string[];
  dayFrom: string[];
  dayTo: string[];
}

/** `month` within a segment whose start may be the beginning of the books (shape letter `a`) or a month (`r`). */
const withinMonths = (open: boolean, from: unknown, to: unknown) => (open ? sql`month <= ${to}` : sql`month >= ${from} and month <= ${to}`);

const ofAccounts = (accounts: TotalsShape['accounts'], v: SegmentValues) => (accounts === 'some' ? sql` and account_id in (${sql.join(v.accountIds)})` : sql``);

/**
 * SQLite: the whole months and the partial months of every range in ONE statement (one round trip),
 * compiled once per shape (store/prepared.ts, TotalsShape). Month segments come first, form `scan` (one index range per segment, a row per
 * account and segment) or `pass` (one pass over the months, a conditional sum per segment: a row
 * per account with the columns s0, s1, ... and `hit`), or `none`; then one index range per day
 * segment, a row per account and segment. Every row has the same columns, those a part does not
 * fill null: `segment` is null on a pass row and numbers day segments after the month segments.
 * PostgreSQL takes joinedTotalsStatement instead.
 */
/** What shapes the totals statement's SQL: every account or some, the months' form, each month segment's start, the day segments. */
interface TotalsShape {
  accounts: 'all' | 'some';
  form: 'scan' | 'pass' | 'none';
  /** a letter per month segment: `a` from the beginning of the books, `r` from a month */
  opens: string;
  days: number;
}

const totalsStatement = preparedShapes(
  (db, v: SegmentValues, { accounts, form, opens, days }: TotalsShape) => {
    const passColumns = form === 'pass' ? opens.length : 0;
    const within = (k: number) => withinMonths(opens[k] === 'a', v.monthFrom[k], v.monthTo[k]);
    /** the pass columns, null on a row that is not a pass row */
    const nullPass = [...Array(passColumns).keys()].map((k) => sql`null as ${sql.ref(`s${k}`)}`);
    const nullHit = passColumns ? [sql`null as hit`] : [];
    /** one table's index range per segment, each summed per account, numbered from `first` */
    const perSegment = (table: 'acct_month_totals' | 'acct_day_totals', count: number, first: number, range: (k: number) => RawBuilder<unknown>) =>
      Array.from(
        { length: count },
        (_, k) => sql`select account_id, ${sql.lit(first + k)} as segment, sum(amount) as amount${sql.join([sql``, ...nullPass, ...nullHit], sql`, `)}
        from ${sql.table(table)}
        where organisation_id = ${v.organisationId} and ${range(k)}${ofAccounts(accounts, v)}
        group by account_id`,
      );
    const parts: RawBuilder<unknown>[] = [];
    if (form === 'scan') parts.push(...perSegment('acct_month_totals', opens.length, 0, within));
    if (form === 'pass') {
      const pieces = [...opens].map((_, k) => k);
      const last = pieces.length - 1;
      const columns = pieces.map((k) => sql`sum(case when ${within(k)} then amount else 0 end) as ${sql.ref(`s${k}`)}`);
      const hit = sql.join(
        pieces.map((k) => sql`(${within(k)})`),
        sql` or `,
      );
      parts.push(sql`select account_id, null as segment, null as amount, ${sql.join(columns)}, max(case when ${hit} then 1 else 0 end) as hit
      from acct_month_totals
      where organisation_id = ${v.organisationId} and ${withinMonths(opens[0] === 'a', v.monthFrom[0], v.monthTo[last])}${ofAccounts(accounts, v)}
      group by account_id`);
    }
    parts.push(...perSegment('acct_day_totals', days, form === 'none' ? 0 : opens.length, (k) => sql`date >= ${v.dayFrom[k]} and date <= ${v.dayTo[k]}`));
    // sums of integer amounts, account ids, segment numbers: rows a SQLite reader may send as JSON
    return sql<TotalsRow>`${sql.join(parts, sql` union all `)}`.compile(db);
  },
  { exactInJson: true },
);

/** The segments' bounds as PostgreSQL takes them: each list as one text[] literal (store/pg-text-array.ts). */
interface SegmentArrays {
  organisationId: string;
  accountIds: string;
  monthCount: number;
  monthFrom: string;
  monthTo: string;
  dayFrom: string;
  dayTo: string;
}

/**
 * PostgreSQL: the same sums in one statement whose text is the same for any number of segments,
 * their bounds given as arrays, so it is prepared once per connection and planned once (named).
 * Each segment is summed per account by its own index range (a lateral subquery that `offset 0`
 * keeps from being flattened, as documents-by-transaction.ts does), in segment order: months
 * first, from 0, then days from `monthCount`. A month segment from the beginning of the books
 * starts at '', before every month. The union of one index range per segment planned each call
 * cost 2-4 ms of planning a report with comparisons, more than its execution, and the pass form's
 * conditional sums cost PostgreSQL 0.1 µs an expression (docs/performance.md).
 */
const joinedTotalsStatement = preparedShapes(
  (db, v: SegmentArrays, accounts: TotalsShape['accounts']) => {
    // some accounts: each one's own rows (migration 036's index), not every account's rows of the range, filtered
    const eachAccount = accounts === 'some' ? sql`cross join unnest(${v.accountIds}::text[]) as w(id)` : sql``;
    const ofSome = accounts === 'some' ? sql` and account_id = w.id` : sql``;
    const summed = (table: 'acct_month_totals' | 'acct_day_totals', column: 'month' | 'date', from: unknown, to: unknown, first: RawBuilder<unknown>) =>
      sql`select ${first} + s.k::int - 1 as segment, a.account_id, a.amount
        from unnest(${from}::text[], ${to}::text[]) with ordinality as s(low, high, k)
        ${eachAccount}
        cross join lateral (
          select account_id, sum(amount) as amount
          from ${sql.table(table)}
          where organisation_id = ${v.organisationId} and ${sql.ref(column)} >= s.low and ${sql.ref(column)} <= s.high${ofSome}
          group by account_id
          offset 0
        ) a`;
    return sql<TotalsRow>`${summed('acct_month_totals', 'month', v.monthFrom, v.monthTo, sql.lit(0))}
      union all
      ${summed('acct_day_totals', 'date', v.dayFrom, v.dayTo, sql`${v.monthCount}::int`)}`.compile(db);
  },
  { genericPlan: true },
);

/** A segment's sum for an account (segment set), or a pass row's conditional sums (segment null). */
type TotalsRow = Record<string, number | string | null> & { account_id: string; segment: number | string | null; amount: number | string | null };

export async function readAccountTotals(
  db: Kysely<Database>,
  organisationId: string,
  ranges: DateRange[],
  accountIds?: string[],
): Promise<Map<string, number[]>> {
  const result = new Map<string, number[]>();
  if (ranges.length === 0 || (accountIds && accountIds.length === 0)) return result;
  const parts = ranges.map(splitRange);
  const accounts: TotalsShape['accounts'] = accountIds ? 'some' : 'all';
  const amountsOf = (accountId: string) => {
    let amounts = result.get(accountId);
    if (!amounts) result.set(accountId, (amounts = ranges.map(() => 0)));
    return amounts;
  };
  const monthly = parts.flatMap((p, i) => (p.months ? [{ i, ...p.months }] : []));
  const monthPieces = monthly.length ? monthSegments(monthly) : [];
  const opens = monthPieces.map((p) => (p.from === null ? 'a' : 'r')).join('');
  // ranges that share months (a balance sheet's, each from the beginning): one index range per
  // segment, so the long shared history is read once, in one tight pass (a conditional sum per
  // range over every month cost about twice as much); disjoint ranges (a P&L's months): one pass
  // over them all with a conditional sum per segment, cheaper than a scan per segment
  const form: TotalsShape['form'] = monthPieces.length === 0 ? 'none' : monthPieces.some((p) => p.ranges.length > 1) ? 'scan' : 'pass';
  const daily = parts.flatMap((p, i) => (p.days.length ? [{ i, days: p.days }] : []));
  // the days: one index range per segment, summed per account inside the database; the ranges are
  // put together from the segments here (a conditional sum per range over every row costs far more)
  const dayPieces = daily.length ? segments(daily) : [];
  if (form === 'none' && dayPieces.length === 0) return result;

  const onPostgres = dialectOf(db) === 'postgres';
  const rows = onPostgres
    ? await joinedTotalsStatement(db, accounts, {
        organisationId,
        // distinct: unnest keeps a repeated id, which would count its rows twice
        accountIds: textArrayLiteral([...new Set(accountIds)]),
        monthCount: monthPieces.length,
        monthFrom: textArrayLiteral(monthPieces.map((p) => p.from ?? '')),
        monthTo: textArrayLiteral(monthPieces.map((p) => p.to)),
        dayFrom: textArrayLiteral(dayPieces.map((p) => p.from)),
        dayTo: textArrayLiteral(dayPieces.map((p) => p.to)),
      })
    : await totalsStatement(
        db,
        { accounts, form, opens, days: dayPieces.length },
        {
          organisationId,
          accountIds: accountIds ?? [],
          monthFrom: monthPieces.map((p) => p.from ?? ''),
          monthTo: monthPieces.map((p) => p.to),
          dayFrom: dayPieces.map((p) => p.from),
          dayTo: dayPieces.map((p) => p.to),
        },
      );
  // each segment's sum per account counts toward every range the segment belongs to (day segments
  // are numbered after the month segments); an account with no stored row in any range is not
  // listed, as when each range was read alone
  // PostgreSQL's rows are all one row per segment and account, numbered months first
  const passed = form === 'pass' && !onPostgres;
  const pieces: { ranges: number[] }[] = [...(passed ? [] : monthPieces), ...dayPieces];
  const firstDay = passed ? monthPieces.length : 0;
  // a pass row's column names, made once a call, not once a row
  const passColumns = passed ? monthPieces.map((_, k) => `s${k}`) : [];
  for (const row of rows) {
    if (row.segment === null) {
      if (!Number(row.hit)) continue; // its months all fall between the ranges
      const amounts = amountsOf(row.account_id);
      for (let k = 0; k < monthPieces.length; k++) {
        const sum = Number(row[passColumns[k]!] ?? 0);
        for (const i of monthPieces[k]!.ranges) amounts[i]! += sum;
      }
      continue;
    }
    const amounts = amountsOf(row.account_id);
    for (const i of pieces[Number(row.segment) - firstDay]!.ranges) amounts[i]! += Number(row.amount);
  }
  return result;
}
