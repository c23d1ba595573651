/**
 * How a date range splits into whole months and the days of the partial months at either end: the
 * stored totals are kept per month and per day (the ledger's acct_month_totals and acct_day_totals,
 * the bank's bank_month_totals and bank_daily_totals), and a range is read as its months from the
 * one and its partial months from the other.
 */
import { addDays, endOfMonth, monthKey, startOfMonth, type IsoDate } from './dates.js';

export interface DateRange {
  /** inclusive; undefined = from the beginning of the books */
  from?: IsoDate;
  /** inclusive */
  to: IsoDate;
}

export interface RangeParts {
  /** whole months, yyyy-MM, inclusive; from null = from the beginning */
  months: { from: string | null; to: string } | null;
  /** partial months at the ends, yyyy-MM-dd, inclusive */
  days: [string, string][];
}

/** How a range splits into whole months and the days of the partial months at either end. */
export function splitRange(range: DateRange): RangeParts {
  const to = range.to;
  const firstWholeMonth = range.from === undefined ? undefined : range.from === startOfMonth(range.from) ? range.from : addDays(endOfMonth(range.from), 1);
  const lastWholeMonthEnd = to === endOfMonth(to) ? to : addDays(startOfMonth(to), -1);
  const months =
    firstWholeMonth === undefined || firstWholeMonth <= lastWholeMonthEnd
      ? { from: firstWholeMonth === undefined ? null : monthKey(firstWholeMonth), to: monthKey(lastWholeMonthEnd) }
      : null;
  const days: [string, string][] = [];
  if (range.from !== undefined && range.from !== startOfMonth(range.from)) {
    days.push([range.from, endOfMonth(range.from) < to ? endOfMonth(range.from) : to]);
  }
  if (to !== endOfMonth(to)) {
    const tailStart = startOfMonth(to);
    const head = days[0];
    if (!head || head[1] < tailStart) days.push([range.from !== undefined && range.from > tailStart ? range.from : tailStart, to]);
  }
  return { months, days };
}

/**
 * A split as a statement compiled once per shape takes it (store/prepared.ts): the shape says
 * whether there are whole months (`none`, `to` from the beginning, or a `range`) and how many
 * partial months, as `<months>/<count>`; the values carry their edges.
 */
export interface PartsValues {
  monthFrom: string;
  monthTo: string;
  /** the partial months' first and last days */
  dayFrom: string[];
  dayTo: string[];
}

/** What of a range's parts shapes a statement's SQL: whole months up to a month, between two, or none; how many partial months. */
export interface PartsShape {
  months: 'none' | 'to' | 'range';
  days: number;
}

export function partsShape({ months, days }: RangeParts): PartsShape {
  return { months: months ? (months.from === null ? 'to' : 'range') : 'none', days: days.length };
}

export function partsValues({ months, days }: RangeParts): PartsValues {
  return { monthFrom: months?.from ?? '', monthTo: months?.to ?? '', dayFrom: days.map(([from]) => from), dayTo: days.map(([, to]) => to) };
}
