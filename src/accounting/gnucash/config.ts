/**
 * An organisation's GnuCash settings (organisations.accounting_config, JSON) and the check an
 * operator's command runs before connecting a book.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import type { OrganisationRow } from '../../store/schema.js';
import { AccountingSystemError, type AccountingSystem } from '../types.js';
import { readBook } from './book.js';
import { readChart } from './chart.js';
import { GnuCashAccounting, type GnuCashConfig } from './reader.js';

export const gnuCashConfigSchema = z
  .object({
    bookPath: z.string().trim().min(1, { message: 'must name the GnuCash book file' }).describe('path of the GnuCash book, saved as SQLite'),
  })
  .strict() satisfies z.ZodType<GnuCashConfig>;

/** The settings from the stored JSON text, or an AccountingSystemError saying what is wrong. */
export function parseGnuCashConfig(text: string | null): GnuCashConfig {
  let raw: unknown;
  try {
    raw = text === null ? null : JSON.parse(text);
  } catch {
    throw new AccountingSystemError("The organisation's GnuCash settings are not valid JSON.");
  }
  const parsed = gnuCashConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`).join('; ');
    throw new AccountingSystemError(`The organisation's GnuCash settings are invalid (${detail}).`);
  }
  return parsed.data;
}

/**
 * Opens the book once and checks it: a GnuCash SQLite book (tables accounts, transactions, splits,
 * commodities and the rest GnuCash writes) whose currency is the organisation's home currency.
 * Throws an AccountingSystemError naming the full path otherwise. For operators, before they
 * connect a book; nothing is written to the book.
 */
export function validateGnuCashBook(path: string, homeCurrency: string): { bookPath: string; currency: string; accounts: number } {
  const bookPath = resolve(path);
  const accounts = readBook(bookPath, homeCurrency, `"${bookPath}"`, (db, ctx) => readChart(db, ctx).length);
  return { bookPath, currency: homeCurrency, accounts };
}

/**
 * The connector for an organisation row. Never throws: settings that cannot be used give a
 * connector whose every call fails with the reason, so only this organisation's accounting calls
 * fail and everything else it does keeps working.
 */
export function gnuCashAccountingFor(organisation: Pick<OrganisationRow, 'accounting_config' | 'home_currency'>): AccountingSystem {
  try {
    return new GnuCashAccounting(parseGnuCashConfig(organisation.accounting_config), organisation.home_currency);
  } catch (error) {
    return unavailable(error as AccountingSystemError);
  }
}

function unavailable(error: AccountingSystemError): AccountingSystem {
  const fail = () => Promise.reject(error);
  return { kind: 'gnucash', check: fail, chartOfAccounts: fail, contacts: fail, accountTotals: fail, lineTotals: fail, lines: fail };
}
