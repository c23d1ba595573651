/**
 * Account totals over many date ranges at once, for the builtin ledger's reports. Each range is
 * split into its whole months, read from acct_month_totals, and the partial months at its ends,
 * read from acct_day_totals; then ONE statement per table covers every range: the ranges' edges
 * cut the months (and the days) into disjoint segments, each summed per account by an index range
 * and added to every range it belongs to, so a report with 12 comparisons costs two small index
 * reads, not 26 statements or a pass over the lines. Results are debit-positive home-currency
 * minor units.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { preparedShapes } from '../../store/prepared.js';
import { addDays } from '../../domain/dates.js';
import { splitRange } from '../../domain/range-split.js';
import type { Database } from '../../store/schema.js';
import type { DateRange } from '../types.js';
import { withAggregates } from './line-aggregates.js';

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
    const ranges = parts.filter((p) => p.days.some(([a, b]) => a <= from && to <= b)).map((p) => p.i);
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
    const ranges = parts.filter((p) => start(p) <= from && to <= monthIndex(p.to)).map((p) => p.i);
    if (ranges.length) out.push({ from: from === -Infinity ? null : monthOfIndex(from), to: monthOfIndex(to), ranges });
  }
  return out;
}

/** The values the two statements take: list element k is segment k's. */
interface SegmentValues {
  organisationId: string;
  accountIds: string[];
  from: string[];
  to: string[];
}

/** `month` within a segment whose start may be the beginning of the books (shape letter `a`) or a month (`r`). */
const withinMonths = (open: boolean, from: unknown, to: unknown) => (open ? sql`month <= ${to}` : sql`month >= ${from} and month <= ${to}`);

const ofAccounts = (accounts: string, v: SegmentValues) => (accounts === 'some' ? sql` and account_id in (${sql.join(v.accountIds)})` : sql``);

/** One index range per segment (`within(k)` says which rows are segment k's), each summed per account, joined by union all. */
const perSegment = (table: 'acct_month_totals' | 'acct_day_totals', count: number, within: (k: number) => RawBuilder<unknown>, accounts: string, v: SegmentValues) =>
  sql<SegmentRow>`${sql.join(
    Array.from(
      { length: count },
      (_, k) => sql`select account_id, ${sql.lit(k)} as segment, sum(amount) as amount from ${sql.table(table)}
        where organisation_id = ${v.organisationId} and ${within(k)}${ofAccounts(accounts, v)}
        group by account_id`,
    ),
    sql` union all `,
  )}`;

/**
 * The month segments' sums per account, compiled once per shape (store/prepared.ts):
 * `<accounts>/<form>/<a|r per segment>`, form `scan` (one index range per segment) or `pass` (one
 * pass, a conditional sum per segment).
 */
const monthsStatement = preparedShapes((db, v: SegmentValues, shape) => {
  const [accounts, form, opens] = shape.split('/') as [string, 'scan' | 'pass', string];
  const within = (k: number) => withinMonths(opens[k] === 'a', v.from[k], v.to[k]);
  const pieces = [...opens].map((_, k) => k);
  if (form === 'scan') return perSegment('acct_month_totals', pieces.length, within, accounts, v).compile(db);
  const last = pieces.length - 1;
  const columns = pieces.map((k) => sql`sum(case when ${within(k)} then amount else 0 end) as ${sql.ref(`s${k}`)}`);
  const hit = sql.join(pieces.map((k) => sql`(${within(k)})`), sql` or `);
  return sql<PassRow>`
    select account_id, ${sql.join(columns)}, max(case when ${hit} then 1 else 0 end) as hit
    from acct_month_totals
    where organisation_id = ${v.organisationId} and ${withinMonths(opens[0] === 'a', v.from[0], v.to[last])}${ofAccounts(accounts, v)}
    group by account_id`.compile(db);
});

/** The day segments' sums per account, one index range each, compiled once per shape: `<accounts>/<segments>`. */
const daysStatement = preparedShapes((db, v: SegmentValues, shape) => {
  const [accounts, count] = shape.split('/') as [string, string];
  return perSegment('acct_day_totals', Number(count), (k) => sql`date >= ${v.from[k]} and date <= ${v.to[k]}`, accounts, v).compile(withAggregates(db));
});

type SegmentRow = { account_id: string; segment: number; amount: number | string };
type PassRow = Record<string, number | string | null> & { account_id: string };

export async function readAccountTotals(
  db: Kysely<Database>,
  organisationId: string,
  ranges: DateRange[],
  accountIds?: string[],
): Promise<Map<string, number[]>> {
  const result = new Map<string, number[]>();
  if (ranges.length === 0 || (accountIds && accountIds.length === 0)) return result;
  const parts = ranges.map(splitRange);
  const accounts = accountIds ? 'some' : 'all';
  const values = (pieces: { from: string | null; to: string }[]): SegmentValues => ({
    organisationId,
    accountIds: accountIds ?? [],
    from: pieces.map((p) => p.from ?? ''),
    to: pieces.map((p) => p.to),
  });
  const amountsOf = (accountId: string) => {
    let amounts = result.get(accountId);
    if (!amounts) result.set(accountId, (amounts = ranges.map(() => 0)));
    return amounts;
  };
  // each segment's sum per account counts toward every range the segment belongs to; an account
  // with no stored row in any range is not listed, as when each range was read alone
  const collect = (rows: SegmentRow[], pieces: { ranges: number[] }[]) => {
    for (const row of rows) {
      const amounts = amountsOf(row.account_id);
      for (const i of pieces[Number(row.segment)]!.ranges) amounts[i]! += Number(row.amount);
    }
  };

  const monthly = parts.flatMap((p, i) => (p.months ? [{ i, ...p.months }] : []));
  if (monthly.length) {
    const pieces = monthSegments(monthly);
    const opens = pieces.map((p) => (p.from === null ? 'a' : 'r')).join('');
    if (pieces.some((p) => p.ranges.length > 1)) {
      // ranges that share months (a balance sheet's, each from the beginning): one index range per
      // segment, so the long shared history is read once, in one tight pass (a conditional sum per
      // range over every month cost about twice as much)
      collect((await monthsStatement(db, `${accounts}/scan/${opens}`, values(pieces))) as SegmentRow[], pieces);
    } else {
      // disjoint ranges (a P&L's months): one pass over them all with a conditional sum per segment,
      // cheaper than a scan per segment
      for (const row of (await monthsStatement(db, `${accounts}/pass/${opens}`, values(pieces))) as PassRow[]) {
        if (!Number(row.hit)) continue; // its months all fall between the ranges
        const amounts = amountsOf(row.account_id);
        pieces.forEach((piece, k) => {
          for (const i of piece.ranges) amounts[i]! += Number(row[`s${k}`] ?? 0);
        });
      }
    }
  }

  const daily = parts.flatMap((p, i) => (p.days.length ? [{ i, days: p.days }] : []));
  if (daily.length) {
    // one index range per segment, summed per account inside the database; the ranges are put
    // together from the segments here (a conditional sum per range over every row costs far more)
    const pieces = segments(daily);
    collect(await daysStatement(db, `${accounts}/${pieces.length}`, values(pieces)), pieces);
  }
  return result;
}
