/**
 * GnuCash's transaction dates. The SQLite backend stores post_date as a UTC timestamp,
 * "YYYY-MM-DD HH:MM:SS" (books saved before GnuCash 3 may hold "YYYYMMDDHHMMSS"). GnuCash 2.6.12+
 * writes a date as 10:59:00 UTC of that day ("neutral time", the same calendar day in every time
 * zone from UTC-10:59 to UTC+13); older versions and some business functions (payments) wrote the
 * local midnight of the day instead, e.g. "2025-03-14 23:00:00" for 15 March in UTC+1.
 *
 * Both read correctly as "the calendar date of the timestamp plus 12 hours": a neutral 10:59 stays
 * on its day, a local midnight from UTC-11:59 to UTC+12 lands on its day. So the date D covers the
 * timestamps [D-1 12:00:00, D 12:00:00), which is also how a date range becomes a text range the
 * post_date index can use.
 */
import { addDays, formatDate, type IsoDate } from '../../domain/dates.js';
import { AccountingSystemError } from '../types.js';

function isDashed(stamp: string): boolean {
  return stamp.charAt(4) === '-';
}

/** The calendar date a post_date (or a prefix of it down to the hour) stands for. */
export function bookDate(stamp: string): IsoDate {
  const parts = isDashed(stamp)
    ? [stamp.slice(0, 4), stamp.slice(5, 7), stamp.slice(8, 10), stamp.slice(11, 13)]
    : [stamp.slice(0, 4), stamp.slice(4, 6), stamp.slice(6, 8), stamp.slice(8, 10)];
  const [y, m, d, h] = parts.map(Number) as [number, number, number, number];
  if (![y, m, d, h].every(Number.isInteger) || m < 1 || m > 12 || d < 1 || d > 31 || h < 0 || h > 23)
    throw new AccountingSystemError(`the GnuCash book holds a date GnuCash does not write: "${stamp}"`);
  const date = formatDate(y, m, d);
  return h >= 12 ? addDays(date, 1) : date;
}

const compact = (date: IsoDate) => date.replaceAll('-', '');

/**
 * A WHERE condition on a post_date column selecting the dates from..to (inclusive; no from = from
 * the beginning), for both stored formats, with its named parameters.
 */
export function postDateCondition(column: string, from: IsoDate | undefined, to: IsoDate, prefix = 'pd') {
  const params: Record<string, string> = { [`${prefix}_hi`]: `${to} 12`, [`${prefix}_hi14`]: `${compact(to)}12` };
  let dashed = `substr(${column}, 5, 1) = '-' AND ${column} < @${prefix}_hi`;
  let plain = `substr(${column}, 5, 1) <> '-' AND ${column} < @${prefix}_hi14`;
  if (from !== undefined) {
    const before = addDays(from, -1);
    params[`${prefix}_lo`] = `${before} 12`;
    params[`${prefix}_lo14`] = `${compact(before)}12`;
    dashed += ` AND ${column} >= @${prefix}_lo`;
    plain += ` AND ${column} >= @${prefix}_lo14`;
  }
  return { sql: `((${dashed}) OR (${plain}))`, params };
}
