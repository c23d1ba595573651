/**
 * Dates as statements write them, to `yyyy-MM-dd`. Every date is checked to be a real calendar
 * day and to lie in a plausible range, so an anonymised `1111/11/11` or an OFX month 20 is refused
 * rather than stored.
 */
import { formatDate, isValidDate } from '../domain/dates.js';

export const EARLIEST = '1950-01-01';
export const LATEST = '2199-12-31';

export type DateResult = { date: string } | { error: string };

function checked(year: number, month: number, day: number, text: string): DateResult {
  const iso = formatDate(year, month, day);
  if (!isValidDate(iso)) return { error: `"${text}" is not a calendar date` };
  if (iso < EARLIEST || iso > LATEST) return { error: `"${text}" (${iso}) is outside the plausible range ${EARLIEST}..${LATEST}` };
  return { date: iso };
}

/** Two-digit years: 70–99 are 1970–1999, 00–69 are 2000–2069 (the usual banking pivot). */
export function fullYear(twoDigits: number): number {
  return twoDigits >= 70 ? 1900 + twoDigits : 2000 + twoDigits;
}

/**
 * OFX date-times: `YYYYMMDD[HHMMSS[.XXX]][[±h[:TZ]]]`. The date part is the bank's own calendar day
 * and is kept as it is; the time and zone only say when on that day.
 */
export function ofxDate(text: string): DateResult {
  const s = text.trim();
  const m = /^(\d{4})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:[.:]\d{1,3})?)?)?)?(?:\s*\[[^\]]*\])?$/.exec(s);
  if (!m) return { error: s ? `"${s}" is not an OFX date (YYYYMMDD…)` : 'the date is empty' };
  return checked(Number(m[1]), Number(m[2]), Number(m[3]), s);
}

/** ISO dates and date-times (CAMT): the date part. */
export function isoDate(text: string): DateResult {
  const s = text.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T.*)?$/.exec(s);
  if (!m) return { error: s ? `"${s}" is not an ISO date` : 'the date is empty' };
  return checked(Number(m[1]), Number(m[2]), Number(m[3]), s);
}

/** `YYMMDD` (MT940). */
export function yymmdd(text: string): DateResult {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) return { error: `"${text}" is not a YYMMDD date` };
  return checked(fullYear(Number(m[1])), Number(m[2]), Number(m[3]), text);
}

export { checked as checkedDate };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

interface CompiledFormat {
  regex: RegExp;
  fields: Array<'y4' | 'y2' | 'M' | 'MMM' | 'd'>;
}

const compiled = new Map<string, CompiledFormat>();

/**
 * A date pattern such as `dd/MM/yyyy`, `MM/dd/yy`, `dd-MMM-yyyy` or `yyyy.MM.dd`. `d`/`dd` and
 * `M`/`MM` accept one or two digits; `MMM` is an English month abbreviation; anything else is literal.
 * A time after the date (`2024-04-01 10:22`) is allowed and ignored.
 */
function compile(format: string): CompiledFormat {
  let cached = compiled.get(format);
  if (cached) return cached;
  const fields: CompiledFormat['fields'] = [];
  let source = '';
  const tokens = format.match(/yyyy|yy|MMM|MM|M|dd|d|[^yMd]+/g) ?? [];
  const numeric: Record<string, [CompiledFormat['fields'][number], string]> = {
    yyyy: ['y4', '(\\d{4})'],
    yy: ['y2', '(\\d{2})'],
    MMM: ['MMM', '([A-Za-z]{3})[a-z]*\\.?'],
    MM: ['M', '(\\d{1,2})'],
    M: ['M', '(\\d{1,2})'],
    dd: ['d', '(\\d{1,2})'],
    d: ['d', '(\\d{1,2})'],
  };
  for (const token of tokens) {
    const field = numeric[token];
    if (field) {
      fields.push(field[0]);
      source += field[1];
    } else {
      source += token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
    }
  }
  cached = { regex: new RegExp(`^${source}(?:[ T]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?$`), fields };
  compiled.set(format, cached);
  return cached;
}

export function isDateFormat(format: string): boolean {
  const tokens = format.match(/yyyy|yy|MMM|MM|M|dd|d/g) ?? [];
  const has = (t: RegExp) => tokens.filter((x) => t.test(x)).length === 1;
  return has(/^y/) && has(/^M/) && has(/^d/);
}

export function parseDateAs(text: string, format: string): DateResult {
  const s = text.trim();
  const { regex, fields } = compile(format);
  const m = regex.exec(s);
  if (!m) return { error: s ? `"${s}" is not a date written ${format}` : 'the date is empty' };
  let year = 0;
  let month = 0;
  let day = 0;
  fields.forEach((field, i) => {
    const value = m[i + 1]!;
    if (field === 'y4') year = Number(value);
    else if (field === 'y2') year = fullYear(Number(value));
    else if (field === 'M') month = Number(value);
    else if (field === 'MMM') month = MONTHS.indexOf(value.toLowerCase()) + 1;
    else day = Number(value);
  });
  if (month === 0) return { error: `"${s}" has no month Ledgerline knows` };
  return checked(year, month, day, s);
}

export const DATE_FORMATS = [
  'yyyy-MM-dd',
  'yyyy/MM/dd',
  'yyyy.MM.dd',
  'yyyyMMdd',
  'dd/MM/yyyy',
  'MM/dd/yyyy',
  'dd.MM.yyyy',
  'dd-MM-yyyy',
  'MM-dd-yyyy',
  'dd/MM/yy',
  'MM/dd/yy',
  'dd.MM.yy',
  'dd-MMM-yyyy',
  'dd MMM yyyy',
  'dd-MMM-yy',
  'dd MMM yy',
  'MMM dd, yyyy',
];

/**
 * The one date format every sample fits, or an error saying why there is none: no format fits some
 * sample, or several fit and read the samples as different days (01/02 as 1 February or 2 January).
 */
export function detectDateFormat(samples: Array<{ text: string; where: string }>, candidates = DATE_FORMATS): { format: string } | { error: string } {
  if (samples.length === 0) return { format: candidates[0]! };
  const fitting: Array<{ format: string; dates: string[] }> = [];
  let worst: { where: string; text: string } | null = null;
  for (const format of candidates) {
    const dates: string[] = [];
    let ok = true;
    for (const sample of samples) {
      const r = parseDateAs(sample.text, format);
      if ('error' in r) {
        ok = false;
        break;
      }
      dates.push(r.date);
    }
    if (ok) fitting.push({ format, dates });
  }
  if (fitting.length === 0) {
    // name the first sample no candidate reads, which is the one to look at
    for (const sample of samples) if (candidates.every((f) => 'error' in parseDateAs(sample.text, f))) worst ??= sample;
    const at = worst ?? samples[0]!;
    return { error: `${at.where}: no date format reads "${at.text.trim()}" as a plausible date; give the format (e.g. dd/MM/yyyy)` };
  }
  const first = fitting[0]!;
  const disagreeing = fitting.find((f) => f.dates.some((d, i) => d !== first.dates[i]));
  if (disagreeing) {
    const i = first.dates.findIndex((d, k) => d !== disagreeing.dates[k]);
    return {
      error:
        `dates such as "${samples[i]!.text.trim()}" (${samples[i]!.where}) read as ${first.dates[i]} with ${first.format} ` +
        `but ${disagreeing.dates[i]} with ${disagreeing.format}; give the date format`,
    };
  }
  return { format: first.format };
}
