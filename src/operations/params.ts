/** Parameter schemas shared by several operations, each with the message a caller sees. */
import { z } from 'zod';
import { isValidDate } from '../domain/dates.js';
import { PERIOD_PRESETS } from '../domain/periods.js';

/**
 * Dates a report can work with: periods reach a day past their end and comparisons go back up to
 * twelve years, so the years stay four digits (and sort as text) only well inside 0000-9999.
 */
export const EARLIEST_DATE = '1000-01-01';
export const LATEST_DATE = '9998-12-31';

export const dateParam = (description: string) =>
  z
    .string()
    .refine(isValidDate, { message: 'must be a calendar date written yyyy-MM-dd' })
    .refine((d) => !isValidDate(d) || (d >= EARLIEST_DATE && d <= LATEST_DATE), { message: `must be a date from ${EARLIEST_DATE} to ${LATEST_DATE}` })
    .describe(description);

export const periodParam = (omitted: string) =>
  z
    .enum([...PERIOD_PRESETS, 'custom'], {
      message: `must be one of ${[...PERIOD_PRESETS, 'custom'].join(', ')}`,
    })
    .describe(
      `Period preset, relative to the organisation's local today and its financial year: this_month, last_month, this_quarter, last_quarter (financial ` +
        `quarters), ytd (start of the financial year to today), last_year (the last complete financial year), or custom (then give from and to). ${omitted}`,
    );

export const comparePeriodsParam = z
  .number({ message: 'must be a whole number from 1 to 12' })
  .int({ message: 'must be a whole number from 1 to 12' })
  .min(1, { message: 'must be a whole number from 1 to 12' })
  .max(12, { message: 'must be a whole number from 1 to 12' });

export const compareByParam = z.enum(['month', 'year'], { message: 'must be month or year' });

export const intParam = (min: number, max: number) =>
  z
    .number({ message: `must be a whole number from ${min} to ${max}` })
    .int({ message: `must be a whole number from ${min} to ${max}` })
    .min(min, { message: `must be a whole number from ${min} to ${max}` })
    .max(max, { message: `must be a whole number from ${min} to ${max}` });

/**
 * A page of a paged list (banking.transactions, ledger.account_transactions): from 1, no upper
 * bound; a page past the end answers an empty page, never an error.
 */
export const pageParam = z
  .number({ message: 'must be a whole number of at least 1' })
  .int({ message: 'must be a whole number of at least 1' })
  .min(1, { message: 'must be a whole number of at least 1' });

export const booleanParam = z.boolean({ message: 'must be true or false' });

export const textParam = (max = 200) => z.string({ message: 'must be text' }).max(max, { message: `must be at most ${max} characters` });
