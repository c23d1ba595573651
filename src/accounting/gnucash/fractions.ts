/**
 * GnuCash stores every amount as an exact fraction of two 64-bit integers (value_num/value_denom,
 * quantity_num/quantity_denom). These helpers keep them exact in BigInt until they become integer
 * minor units, where the only rounding is half away from zero.
 */
import { AccountingSystemError } from '../types.js';

export interface Fraction {
  num: bigint;
  /** always > 0 */
  den: bigint;
}

export const ZERO: Fraction = { num: 0n, den: 1n };

export function fraction(num: bigint | number, den: bigint | number): Fraction {
  const d = BigInt(den);
  if (d <= 0n) throw new AccountingSystemError(`the GnuCash book holds an amount with denominator ${d}, which is not a number GnuCash writes`);
  return { num: BigInt(num), den: d };
}

export function add(a: Fraction, b: Fraction): Fraction {
  return a.den === b.den ? { num: a.num + b.num, den: a.den } : { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
}

export function multiply(a: Fraction, b: Fraction): Fraction {
  return { num: a.num * b.num, den: a.den * b.den };
}

export function divide(a: Fraction, b: Fraction): Fraction {
  if (b.num === 0n) throw new RangeError('division by zero');
  const num = a.num * b.den;
  const den = a.den * b.num;
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

export function signOf(a: Fraction): -1 | 0 | 1 {
  return a.num === 0n ? 0 : a.num < 0n ? -1 : 1;
}

export function sumOf(values: Iterable<Fraction>): Fraction {
  let total = ZERO;
  for (const v of values) total = add(total, v);
  return total;
}

/** The fraction as a whole number of 1/scale units (scale 100: pence), rounded half away from zero. */
export function toUnits(a: Fraction, scale: bigint): bigint {
  const n = a.num * scale;
  const q = n / a.den;
  const r = n % a.den;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= a.den ? q + (n < 0n ? -1n : 1n) : q;
}

/** A BigInt count of minor units as a JS number, refused when it would not be exact. */
export function toSafeNumber(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new AccountingSystemError(`an amount in the GnuCash book (${value} minor units) is too large to be exact`);
  return n;
}
