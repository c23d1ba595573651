/**
 * Period presets and comparison periods. Everything is relative to the organisation's local today
 * and its financial year, which starts on the 1st of fyStartMonth.
 */
import { addDays, addMonths, endOfMonth, formatDate, humanDate, monthName, parseDate, startOfMonth, type IsoDate } from './dates.js';

export const PERIOD_PRESETS = ['this_month', 'last_month', 'this_quarter', 'last_quarter', 'ytd', 'last_year'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodName = PeriodPreset | 'custom' | 'last_three_months';

export interface Period {
  from: IsoDate;
  to: IsoDate;
  label: string;
}

export interface FinancialCalendar {
  today: IsoDate;
  /** 1 = January */
  fyStartMonth: number;
}

/** The first day of the financial year that contains date. */
export function financialYearStart(date: IsoDate, fyStartMonth: number): IsoDate {
  const { year, month } = parseDate(date)!;
  const startYear = month >= fyStartMonth ? year : year - 1;
  return formatDate(startYear, fyStartMonth, 1);
}

/** Financial years are named by the calendar year they end in (FY 2027 = Apr 2026 – Mar 2027). */
function financialYearName(fyStart: IsoDate): string {
  const end = addDays(addMonths(fyStart, 12), -1);
  return fyStart.slice(0, 4) === end.slice(0, 4) ? `FY ${end.slice(0, 4)}` : `FY ${fyStart.slice(0, 4)}/${end.slice(2, 4)}`;
}

function quarterStart(date: IsoDate, fyStartMonth: number): IsoDate {
  const fyStart = financialYearStart(date, fyStartMonth);
  const { year, month } = parseDate(date)!;
  const { year: fy, month: fm } = parseDate(fyStart)!;
  const monthsIn = (year - fy) * 12 + (month - fm);
  return addMonths(fyStart, monthsIn - (monthsIn % 3));
}

function quarterLabel(start: IsoDate, fyStartMonth: number): string {
  const fyStart = financialYearStart(start, fyStartMonth);
  const { year, month } = parseDate(start)!;
  const { year: fy, month: fm } = parseDate(fyStart)!;
  const q = Math.floor(((year - fy) * 12 + (month - fm)) / 3) + 1;
  return `Q${q} ${financialYearName(fyStart)}`;
}

/** A human label for any range: whole months and financial years get their names. */
export function labelFor(from: IsoDate, to: IsoDate, fyStartMonth: number): string {
  const f = parseDate(from)!;
  if (f.day === 1 && to === endOfMonth(from)) return `${monthName(f.month)} ${f.year}`;
  if (f.day === 1 && to === addDays(addMonths(from, 12), -1) && f.month === fyStartMonth) return financialYearName(from);
  if (f.day === 1 && to === addDays(addMonths(from, 3), -1) && quarterStart(from, fyStartMonth) === from) return quarterLabel(from, fyStartMonth);
  return `${humanDate(from)} – ${humanDate(to)}`;
}

export function resolvePreset(preset: PeriodPreset | 'last_three_months', cal: FinancialCalendar): Period {
  const { today, fyStartMonth } = cal;
  let from: IsoDate;
  let to: IsoDate;
  switch (preset) {
    case 'this_month':
      from = startOfMonth(today);
      to = endOfMonth(today);
      break;
    case 'last_month':
      from = startOfMonth(addMonths(startOfMonth(today), -1));
      to = endOfMonth(from);
      break;
    case 'this_quarter':
      from = quarterStart(today, fyStartMonth);
      to = addDays(addMonths(from, 3), -1);
      break;
    case 'last_quarter':
      from = addMonths(quarterStart(today, fyStartMonth), -3);
      to = addDays(addMonths(from, 3), -1);
      break;
    case 'ytd':
      from = financialYearStart(today, fyStartMonth);
      to = today;
      break;
    case 'last_year':
      from = addMonths(financialYearStart(today, fyStartMonth), -12);
      to = addDays(addMonths(from, 12), -1);
      break;
    case 'last_three_months':
      // the three months up to and including today: 2026-11-21 -> 2026-08-22 .. 2026-11-21
      from = addDays(addMonths(today, -3), 1);
      to = today;
      break;
  }
  const label = preset === 'ytd' ? `${financialYearName(from)} to date` : labelFor(from, to, fyStartMonth);
  return { from, to, label };
}

export function customPeriod(from: IsoDate, to: IsoDate, fyStartMonth: number): Period {
  return { from, to, label: labelFor(from, to, fyStartMonth) };
}

export type CompareBy = 'month' | 'year';

/**
 * Earlier periods for a profit and loss: period k is the current one shifted back k months
 * (compareBy month) or k years (compareBy year), month-end aligned, current period first.
 */
export function comparisonPeriods(current: Period, compareBy: CompareBy, count: number, fyStartMonth: number): Period[] {
  const step = compareBy === 'month' ? 1 : 12;
  const periods = [current];
  for (let k = 1; k <= count; k++) {
    const from = addMonths(current.from, -k * step);
    const to = addMonths(current.to, -k * step);
    periods.push({ from, to, label: labelFor(from, to, fyStartMonth) });
  }
  return periods;
}

/**
 * Earlier balance dates: compareBy month gives the month end before (and before that), compareBy
 * year the same date a year earlier (29 Feb -> 28 Feb; a month end stays a month end). Current first.
 */
export function comparisonDates(asAt: IsoDate, compareBy: CompareBy, count: number): IsoDate[] {
  const dates = [asAt];
  for (let k = 1; k <= count; k++) {
    dates.push(compareBy === 'month' ? endOfMonth(addMonths(startOfMonth(asAt), -k)) : addMonths(asAt, -12 * k));
  }
  return dates;
}
