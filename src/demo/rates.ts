/**
 * Made-up but plausible exchange rates. A rate is a pure function of the currencies and the date
 * (never of a random stream), so a bill and its later payment each get their own day's rate and the
 * difference shows up as a foreign-exchange gain or loss, the same in every run.
 */
import { monthKey } from '../domain/dates.js';
import { hashText } from './random.js';

/** Rough value of one unit in US dollars, in millionths. */
const USD_MICROS: Record<string, number> = { USD: 1_000_000, GBP: 1_270_000, AUD: 660_000, EUR: 1_080_000 };

function usdMicros(currency: string, date: string): number {
  const base = USD_MICROS[currency];
  if (base === undefined) throw new Error(`no demo exchange rate for ${currency}`);
  if (currency === 'USD') return base;
  // up to ±3% from month to month, and ±0.3% from day to day
  const monthly = (hashText(`${currency}:${monthKey(date)}`)[0] % 601) - 300;
  const daily = (hashText(`${currency}:${date}`)[1] % 61) - 30;
  return Math.round((base * (10_000 + monthly + daily)) / 10_000);
}

/** Home-currency units per unit of `foreign` on `date`, as decimal text with four decimals. */
export function exchangeRate(foreign: string, home: string, date: string): string {
  if (foreign === home) return '1';
  const tenThousandths = Math.round((usdMicros(foreign, date) * 10_000) / usdMicros(home, date));
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}
