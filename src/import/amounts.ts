/**
 * Amounts as banks write them, read straight into integer minor units. The text is reduced to a
 * plain `[-]digits[.digits]` and handed to fromMajor, so no binary fraction is ever involved:
 * decimal comma or point, thousands separators (`,` `.` `'` and spaces), currency symbols and codes,
 * signs before or after, accounting parentheses, and CR/DR markers.
 */
import { fromMajor, minorDigits } from '../domain/money.js';

export type DecimalMark = '.' | ',';

export interface ParsedAmount {
  /** minor units; negative when the text carries a minus sign or parentheses */
  minor: number;
  /** a CR or DR written beside the number, which the format's rule turns into a direction */
  marker: 'CR' | 'DR' | null;
}

export type AmountResult = ParsedAmount | { error: string };

const SYMBOLS = '$£€¥₹₩₽₺₪₫฿₴₦₱¢';
// currency written before or after the number: a symbol with an optional short prefix (US$, R$, S$), an ISO code, or a local abbreviation
const CURRENCY = new RegExp(`^(?:[A-Z]{0,2}[${SYMBOLS}]|[A-Z]{3}|kr\\.?|Kč|zł|Fr\\.)`, 'u');
const CURRENCY_END = new RegExp(`(?:[A-Z]{0,2}[${SYMBOLS}]|[A-Z]{3}|kr\\.?|Kč|zł|Fr\\.)$`, 'u');
const MINUS = /^[-\u2212\u2013]/;

export function parseAmount(text: string, currency: string, decimal: DecimalMark): AmountResult {
  let s = text.trim();
  if (!s) return { error: 'the amount is empty' };
  let marker: 'CR' | 'DR' | null = null;
  const markerMatch = /^(.*?[\d\s)$£€¥.,])\s*(CR|DR)\.?$/i.exec(s) ?? /^(CR|DR)\.?\s+(.*)$/i.exec(s);
  if (markerMatch) {
    const [, a, b] = markerMatch;
    const leading = /^(CR|DR)$/i.test(a!);
    marker = (leading ? a! : b!).toUpperCase() as 'CR' | 'DR';
    s = (leading ? b! : a!).trim();
  }
  let negative = false;
  let signs = 0;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    signs++;
    s = s.slice(1, -1).trim();
  }
  // peel signs and currency from both ends, in whatever order the bank wrote them
  for (let changed = true; changed;) {
    changed = false;
    const before = s;
    if (MINUS.test(s)) {
      negative = true;
      signs++;
      s = s.slice(1);
    } else if (s.startsWith('+')) {
      signs++;
      s = s.slice(1);
    } else if (/[-\u2212]$/.test(s)) {
      negative = true;
      signs++;
      s = s.slice(0, -1);
    } else if (s.endsWith('+')) {
      signs++;
      s = s.slice(0, -1);
    } else {
      s = s.replace(CURRENCY, '').replace(CURRENCY_END, '');
    }
    s = s.trim();
    changed = s !== before;
  }
  if (signs > 1) return { error: `"${text.trim()}" has more than one sign` };
  if (!/^\d[\d.,'\s\u00a0\u202f]*$/.test(s)) return { error: `"${text.trim()}" is not an amount` };
  const thousands = decimal === '.' ? ',' : '.';
  const lastDecimal = s.lastIndexOf(decimal);
  let whole = lastDecimal >= 0 ? s.slice(0, lastDecimal) : s;
  const fraction = lastDecimal >= 0 ? s.slice(lastDecimal + 1) : '';
  if (!/^\d*$/.test(fraction)) return { error: `"${text.trim()}" is not an amount with "${decimal}" as the decimal mark` };
  if (whole.includes(decimal)) return { error: `"${text.trim()}" has more than one decimal mark "${decimal}"` };
  if (/[^\d]/.test(whole)) {
    const groups = whole.split(new RegExp(`[${thousands === '.' ? '.' : ','}'\\s\\u00a0\\u202f]`));
    if (!/^\d{1,3}$/.test(groups[0]!) || groups.slice(1).some((g) => !/^\d{3}$/.test(g)))
      return { error: `"${text.trim()}" has misplaced thousands separators` };
    whole = groups.join('');
  }
  const plain = fraction ? `${whole}.${fraction}` : whole;
  const minor = fromMajor(plain, currency);
  if (minor === null) {
    const digits = minorDigits(currency);
    return { error: `"${text.trim()}" has more decimals than ${currency} allows (${digits}) or is too large` };
  }
  return { minor: negative && minor !== 0 ? -minor : minor, marker };
}

/**
 * A plain signed decimal as OFX, CAMT and MT940 write amounts: an optional sign, digits and at most
 * one decimal mark (OFX allows a point or a comma), nothing else — `$120` or `1,000.00` is refused.
 */
export function parsePlainAmount(text: string, currency: string, decimal: DecimalMark | 'either'): AmountResult {
  const s = text.trim();
  const pattern = decimal === 'either' ? /^[+-]?(\d+[.,]?\d*|[.,]\d+)$/ : decimal === '.' ? /^[+-]?(\d+\.?\d*|\.\d+)$/ : /^[+-]?(\d+,?\d*|,\d+)$/;
  if (!pattern.test(s)) return { error: s ? `"${s}" is not a plain decimal amount` : 'the amount is empty' };
  const negative = s.startsWith('-');
  const unsigned = s.replace(/^[+-]/, '').replace(',', '.');
  const normalised = (unsigned.startsWith('.') ? '0' : '') + (unsigned.endsWith('.') ? unsigned.slice(0, -1) : unsigned);
  const minor = fromMajor(normalised, currency);
  if (minor === null) return { error: `"${s}" has more decimals than ${currency} allows (${minorDigits(currency)}) or is too large` };
  return { minor: negative && minor !== 0 ? -minor : minor, marker: null };
}

/**
 * Which mark is the decimal one in a file's amounts: each amount votes where it can tell (both marks
 * present: the last is decimal; one mark not followed by exactly three digits: it is decimal; one mark
 * repeated: it groups thousands). Returns null when no amount can tell (all `1,234` or whole numbers).
 * Throws a message when amounts disagree.
 */
export function detectDecimal(samples: Array<{ text: string; where: string }>): DecimalMark | null {
  let found: { mark: DecimalMark; where: string; text: string } | null = null;
  for (const { text, where } of samples) {
    const vote = decimalVote(text);
    if (!vote) continue;
    if (found && found.mark !== vote) {
      throw new Error(
        `${found.where} writes "${found.text.trim()}" with a decimal "${found.mark}" but ${where} writes "${text.trim()}" with a decimal "${vote}"`,
      );
    }
    found ??= { mark: vote, where, text };
  }
  return found?.mark ?? null;
}

function decimalVote(text: string): DecimalMark | null {
  const s = text.replace(/[^\d.,]/g, '');
  const dot = s.lastIndexOf('.');
  const comma = s.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const mark = dot >= 0 ? '.' : comma >= 0 ? ',' : null;
  if (!mark) return null;
  const other: DecimalMark = mark === '.' ? ',' : '.';
  if (s.indexOf(mark) !== s.lastIndexOf(mark)) return other;
  const after = s.length - s.lastIndexOf(mark) - 1;
  return after === 3 ? null : mark;
}

/** True when the text could not be read without knowing the decimal mark (`1,234`, `1.234`). */
export function isAmbiguous(text: string): boolean {
  const s = text.replace(/[^\d.,]/g, '');
  return decimalVote(text) === null && /[.,]/.test(s);
}
