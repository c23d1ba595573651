/**
 * A vendor's decimal amounts (JSON numbers in major units) read into minor units exactly, and
 * converted at the vendor's rates exactly (domain/money.ts), one spelling for Xero and QuickBooks;
 * what cannot be held exactly is refused naming the vendor, never read as NaN or rounded twice.
 */
import { convertMajor, fromMajorRounded } from '../domain/money.js';
import { AccountingSystemError } from './types.js';

export interface VendorAmounts {
  /** minor units of the currency; more decimals than it has (a unit price) rounded half up; none is 0 */
  minorUnits(value: number | undefined, currency: string): number;
  /** the amount at the rate (times it, or per it) as home-currency minor units, rounded once, half up */
  homeAmount(value: number, rate: number, how: 'times' | 'per', homeCurrency: string): number;
}

export function vendorAmounts(vendor: string): VendorAmounts {
  return {
    minorUnits(value, currency) {
      if (value === undefined || value === null) return 0;
      const minor = fromMajorRounded(value, currency);
      if (minor === null) throw new AccountingSystemError(`${vendor} gave the amount ${value} ${currency}, which is not a decimal Ledgerline can hold`);
      return minor;
    },
    homeAmount(value, rate, how, homeCurrency) {
      const minor = convertMajor(value, rate, how, homeCurrency);
      if (minor === null)
        throw new AccountingSystemError(`${vendor} gave the amount ${value} at the rate ${rate}, which Ledgerline cannot convert to ${homeCurrency}`);
      return minor;
    },
  };
}
