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
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
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
 * The largest size of one amount the service takes in (a document and each of its lines, a journal
 * posting, a bank statement entry, in its own currency and in the home currency): 10^13 minor units,
 * 100,000,000,000.00 in a currency of two decimals. Far below 2^53 (about 9 × 10^15), where a double
 * stops holding every integer: a document's 500 lines at the bound still add up exactly, and a total
 * needs some 900 amounts at the bound before it leaves the exact range (docs/decisions.md). Stored
 * data is not trusted to keep to it: every sum on the read path is checked (sum, toMajor).
 */
export const MAX_AMOUNT_MINOR = 10_000_000_000_000;

/** An amount of minor units the service takes in: an integer no larger in size than MAX_AMOUNT_MINOR. */
export function withinAmountBound(minor: number): boolean {
  return Number.isSafeInteger(minor) && Math.abs(minor) <= MAX_AMOUNT_MINOR;
}

/**
 * Whether a decimal amount in major units (a number, or decimal text) is larger in size than
 * MAX_AMOUNT_MINOR in that currency; NaN and the infinities are. Text that is not a plain decimal is
 * not: its own check refuses it.
 */
export function overAmountBound(value: string | number, currency: string): boolean {
  const digits = minorDigits(currency);
  if (typeof value === 'number') return !(Math.abs(value) <= MAX_AMOUNT_MINOR / 10 ** digits);
  const m = /^[+-]?0*(\d*)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return false;
  const whole = BigInt(m[1] || '0');
  const bound = BigInt(MAX_AMOUNT_MINOR) / 10n ** BigInt(digits);
  return whole > bound || (whole === bound && /[1-9]/.test(m[2] ?? ''));
}

/** The bound in words for a currency, for messages: "100,000,000,000.00 GBP". */
export function amountBoundText(currency: string): string {
  return formatMoney(MAX_AMOUNT_MINOR, currency);
}

/**
 * Minor units to a JSON number in major units. The division of an integer by a power of ten gives
 * the double nearest to the exact decimal, which JSON then prints as that decimal (1234567 -> 12345.67).
 * A total past 2^53 (stored data from before the input bound, or very many amounts) is not refused:
 * it is given as the double nearest to it, the closest a JSON number can come, so no read fails on it.
 */
export function toMajor(minor: number | bigint, currency: string): number {
  const digits = minorDigits(currency);
  if (typeof minor === 'number' && Number.isSafeInteger(minor)) {
    const result = minor / 10 ** digits;
    return Object.is(result, -0) ? 0 : result;
  }
  if (typeof minor === 'number') assertInteger(minor);
  // past the exact range: the decimal text of the integer, read once, rounds only once
  const big = BigInt(minor);
  const text = (big < 0n ? -big : big).toString().padStart(digits + 1, '0');
  const major = Number(`${big < 0n ? '-' : ''}${text.slice(0, text.length - digits)}.${text.slice(text.length - digits) || '0'}`);
  return Object.is(major, -0) ? 0 : major;
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

/** An integer (of any size) as a double holds one; anything else is a mistake in the code, not in the data. */
function assertInteger(minor: number): void {
  if (!Number.isInteger(minor)) throw new RangeError(`amount is not a whole number of minor units: ${minor}`);
}

/**
 * Sums minor units, checked: exact while every partial sum stays in the exact range of a double (all
 * real books), and otherwise added again exactly as BigInt and given as the double nearest to the
 * exact total. It never throws on data: a sum is on the read path of every report.
 */
export function sum(values: Iterable<number>): number {
  const list = Array.isArray(values) ? (values as number[]) : [...values];
  let total = 0;
  for (const v of list) {
    total += v;
    if (!Number.isSafeInteger(total)) return sumExactly(list);
  }
  return total;
}

/** The exact sum as BigInt, for when a plain one leaves the exact range (or an amount is not an integer: a code mistake, thrown). */
export function sumExactly(values: readonly number[]): number {
  let total = 0n;
  for (const v of values) {
    assertInteger(v);
    total += BigInt(v);
  }
  return Number(total);
}

/**
 * Converts an amount in a foreign currency to home-currency minor units at a rate (home per unit of
 * foreign, as decimal text), rounding half away from zero. Rates are decimal text so they stay exact.
 */
export function convert(minorForeign: number, foreignCurrency: string, rate: string, homeCurrency: string): number {
  const result = Number(convertExactly(minorForeign, foreignCurrency, rate, homeCurrency));
  assertMinor(result);
  return result;
}

/** convert for an amount taken in: null when the home amount is larger in size than MAX_AMOUNT_MINOR (a large amount at a large rate). */
export function convertWithinBound(minorForeign: number, foreignCurrency: string, rate: string, homeCurrency: string): number | null {
  const result = convertExactly(minorForeign, foreignCurrency, rate, homeCurrency);
  return result <= BigInt(MAX_AMOUNT_MINOR) && result >= -BigInt(MAX_AMOUNT_MINOR) ? Number(result) : null;
}

function convertExactly(minorForeign: number, foreignCurrency: string, rate: string, homeCurrency: string): bigint {
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
  return negative ? -q : q;
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

/**
 * The rounding of amounts a books system gives in more decimals than the currency has, and of its
 * amounts converted at its rates (xero/, quickbooks/): half up, toward +∞, as Math.round did there
 * before these were exact (2.5 → 3, -2.5 → -2), applied once, to the exact decimal result.
 */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  // floor(n / d + 1/2) = floor((2n + d) / 2d), with d > 0
  const n = 2n * numerator + denominator;
  const d = 2n * denominator;
  const q = n / d;
  return n % d !== 0n && n < 0n ? q - 1n : q;
}

/**
 * A decimal (text, or a JSON number) as an exact integer of units of 10^-scale. A number is read
 * through its shortest round-trip text (String): for a number JSON.parse made of a decimal of at most
 * 15 significant digits (every amount and rate a books system sends), that is the sender's decimal,
 * so 1.005 is read as 1.005, not as the double below it (1.00499999999999989…). Exponent forms
 * (1e-7, 1.5e+21) are read exactly; anything else (NaN, the infinities, other text) is null.
 */
function exactDecimal(value: string | number): { units: bigint; scale: number } | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m || (typeof value === 'string' && m[4] !== undefined)) return null;
  const fraction = m[3] ?? '';
  let units = BigInt(m[2]! + fraction);
  let scale = fraction.length - Number(m[4] ?? '0');
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: m[1] === '-' ? -units : units, scale };
}

function safeNumber(minor: bigint): number | null {
  const n = Number(minor);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A books system's decimal amount in major units (a JSON number or text) as minor units of the
 * currency, exactly; more decimals than the currency has are rounded half up (roundHalfUp): 1.005 GBP
 * is 101, 0.5 JPY is 1, 1.0005 KWD is 1001. Null when it is not a decimal or the result is not a safe integer.
 */
export function fromMajorRounded(value: string | number, currency: string): number | null {
  const d = exactDecimal(value);
  if (!d) return null;
  const digits = minorDigits(currency);
  if (d.scale <= digits) return safeNumber(d.units * 10n ** BigInt(digits - d.scale));
  return safeNumber(roundHalfUp(d.units, 10n ** BigInt(d.scale - digits)));
}

/**
 * A books system's decimal amount in major units converted at its rate (a JSON number or decimal
 * text) to minor units of the home currency, exactly and rounded once, half up (roundHalfUp):
 * `times` multiplies (QuickBooks' ExchangeRate, home per unit of the amount's currency), `per`
 * divides (Xero's CurrencyRate, units of the amount's currency per home unit). Null when the amount
 * or the rate is not a decimal, the rate is not positive, or the result is not a safe integer.
 */
export function convertMajor(value: string | number, rate: string | number, how: 'times' | 'per', homeCurrency: string): number | null {
  const a = exactDecimal(value);
  const r = exactDecimal(rate);
  if (!a || !r || r.units <= 0n) return null;
  const home = 10n ** BigInt(minorDigits(homeCurrency));
  // times: a/10^as × r/10^rs × 10^dh; per: a/10^as ÷ (r/10^rs) × 10^dh
  const result =
    how === 'times'
      ? roundHalfUp(a.units * r.units * home, 10n ** BigInt(a.scale + r.scale))
      : roundHalfUp(a.units * 10n ** BigInt(r.scale) * home, r.units * 10n ** BigInt(a.scale));
  return safeNumber(result);
}

/** 1 / rate (a positive decimal) to `places` decimals, rounded half up, as decimal text ("0.8" at 6 places: "1.25"); null for no positive decimal. */
export function inverseRate(rate: string | number, places: number): string | null {
  const r = exactDecimal(rate);
  if (!r || r.units <= 0n) return null;
  const q = roundHalfUp(10n ** BigInt(r.scale + places), r.units)
    .toString()
    .padStart(places + 1, '0');
  const whole = q.slice(0, q.length - places);
  const fraction = q.slice(q.length - places).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Minor units divided by a decimal quantity (text), when that is a whole number of minor units; null otherwise (or for no positive quantity). */
export function divideWhole(minor: number, quantity: string | number): number | null {
  const q = exactDecimal(quantity);
  if (!q || q.units <= 0n) return null;
  const n = BigInt(minor) * 10n ** BigInt(q.scale);
  return n % q.units === 0n ? safeNumber(n / q.units) : null;
}
