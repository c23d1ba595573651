/**
 * Calendar dates as `yyyy-MM-dd` strings. Dates carry no time zone: an organisation's "today" is
 * computed once from its IANA zone (see todayIn) and everything else is calendar arithmetic.
 */

export type IsoDate = string;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The number the ASCII digits of value from `from` up to `to` spell; NaN at any other character. */
function digitsAt(value: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** Parses a strict `yyyy-MM-dd` calendar date; null for anything else (including 2025-02-29). */
export function parseDate(value: string): DateParts | null {
  // read by character, not by a regular expression: the reports split and step dates many times a call
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return null;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  // written so that NaN (a character that is not a digit) fails each test
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return null;
  return { year, month, day };
}

export function isValidDate(value: string): boolean {
  return parseDate(value) !== null;
}

function parts(value: IsoDate): DateParts {
  const p = parseDate(value);
  if (!p) throw new RangeError(`not a yyyy-MM-dd date: ${value}`);
  return p;
}

export function formatDate(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function startOfMonth(date: IsoDate): IsoDate {
  const { year, month } = parts(date);
  return formatDate(year, month, 1);
}

export function endOfMonth(date: IsoDate): IsoDate {
  const { year, month } = parts(date);
  return formatDate(year, month, daysInMonth(year, month));
}

export function isEndOfMonth(date: IsoDate): boolean {
  return endOfMonth(date) === date;
}

/** `yyyy-MM` of a date. */
export function monthKey(date: IsoDate): string {
  return date.slice(0, 7);
}

/**
 * Days since 1970-01-01 of a date, and back: the proleptic Gregorian calendar in integer arithmetic
 * (H. Hinnant's days_from_civil and civil_from_days), with no Date made for each step (the reports
 * step dates many times a call) and right for years 1-99 too, which Date.UTC reads as 1901-1999.
 */
function toEpochDay(date: IsoDate): number {
  const { year, month, day } = parts(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function fromEpochDay(epochDay: number): IsoDate {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return formatDate(yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(date) + days);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

/**
 * Shifts a date by whole months. A month end stays a month end (2026-04-30 - 2 months = 2026-02-28,
 * 2025-02-28 - 12 months = 2024-02-29); other days are clamped to the target month's length.
 */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { year, month, day } = parts(date);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  const last = daysInMonth(y, m);
  const wasMonthEnd = day === daysInMonth(year, month);
  return formatDate(y, m, wasMonthEnd ? last : Math.min(day, last));
}

/** The local calendar date in an IANA time zone at an instant. */
export function todayIn(timeZone: string, now: Date = new Date()): IsoDate {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const get = (type: string) => fmt.formatToParts(now).find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function monthName(month: number, long = false): string {
  return (long ? LONG_MONTHS : MONTHS)[month - 1]!;
}

/** "March 2026", for a date or a month (yyyy-MM-dd or yyyy-MM). */
export function monthLabel(dateOrMonth: string): string {
  return `${monthName(Number(dateOrMonth.slice(5, 7)), true)} ${Number(dateOrMonth.slice(0, 4))}`;
}

/** "21 Nov 2026" */
export function humanDate(date: IsoDate): string {
  const { year, month, day } = parts(date);
  return `${day} ${monthName(month)} ${year}`;
}

export function minDate(a: IsoDate, b: IsoDate): IsoDate {
  return a < b ? a : b;
}

export function maxDate(a: IsoDate, b: IsoDate): IsoDate {
  return a > b ? a : b;
}
