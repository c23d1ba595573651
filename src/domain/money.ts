/**
 * Money is an integer count of a currency's minor units (pence, cents, yen) everywhere inside the
 * service. It becomes a JSON number only at the edge (toMajor), and a number from the edge becomes
 * minor units only through its decimal text (fromMajor), so no binary fraction ever reaches a sum.
 */

const digitsCache = new Map<string, number>();

/**
 * Where CLDR (what Intl knows) shows fewer digits than ISO 4217 defines: CLDR rounds these for
 * display, but banks and books keep the ISO minor unit (a Hungarian statement says 627311,30 HUF).
 */
const ISO_4217_DIGITS: Readonly<Record<string, number>> = {
  AFN: 2, ALL: 2, COP: 2, HUF: 2, IDR: 2, IQD: 3, IRR: 2, KPW: 2, LAK: 2, LBP: 2, MGA: 2, MMK: 2, PKR: 2, SLL: 2, SOS: 2, SYP: 2, YER: 2,
};

/** ISO 4217 minor-unit digits (2 for GBP, 0 for JPY, 3 for KWD). */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = ISO_4217_DIGITS[currency] ?? new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  return Intl.supportedValuesOf('currency').includes(code);
}

/**
 * Minor units to a JSON number in major units. The division of an integer by a power of ten gives
 * the double nearest to the exact decimal, which JSON then prints as that decimal (1234567 -> 12345.67).
 */
export function toMajor(minor: number, currency: string): number {
  assertMinor(minor);
  const result = minor / 10 ** minorDigits(currency);
  return Object.is(result, -0) ? 0 : result;
}

/**
 * A decimal amount (text or number) in major units to minor units, exactly. Returns null when it has
 * more decimals than the currency allows or is not a plain decimal.
 */
export function fromMajor(value: string | number, currency: string): number | null {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const digits = minorDigits(currency);
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  const minor = Number(m[2]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  if (!Number.isSafeInteger(minor)) return null;
  return m[1] === '-' ? -minor : minor;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) return 'NaN';
  // Numbers like 1e-7 print in exponent form; toFixed(20) of those is still exact enough to be refused.
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(20) : s;
}

export function assertMinor(minor: number): void {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount is not a safe integer of minor units: ${minor}`);
}

/** Sums minor units, refusing to go past the exact range of a double. */
export function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  assertMinor(total);
  return total;
}

/**
 * Converts an amount in a foreign currency to home-currency minor units at a rate (home per unit of
 * foreign, as decimal text), rounding half away from zero. Rates are decimal text so they stay exact.
 */
export function convert(minorForeign: number, foreignCurrency: string, rate: string, homeCurrency: string): number {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!m) throw new RangeError(`bad rate ${rate}`);
  const rateScale = (m[2] ?? '').length;
  const rateInt = BigInt(m[1]! + (m[2] ?? ''));
  // value_home = minorForeign / 10^df * rate * 10^dh
  const df = minorDigits(foreignCurrency);
  const dh = minorDigits(homeCurrency);
  const numerator = BigInt(minorForeign) * rateInt * 10n ** BigInt(dh);
  const denominator = 10n ** BigInt(df + rateScale);
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let q = abs / denominator;
  if ((abs % denominator) * 2n >= denominator) q += 1n;
  const result = Number(negative ? -q : q);
  assertMinor(result);
  return result;
}

/** Formats minor units for people: "1,234.56 GBP" style without locale surprises. */
export function formatMoney(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const negative = minor < 0;
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 10 ** digits);
  const frac = digits ? '.' + String(abs % 10 ** digits).padStart(digits, '0') : '';
  return `${negative ? '-' : ''}${whole.toLocaleString('en-US')}${frac} ${currency}`;
}
