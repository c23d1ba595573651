/**
 * How the service's bank accounts meet the connected books. One rule, whatever the system: a
 * service bank account is linked to a ledger account by bank_accounts.ledger_account_id (the demo
 * links its accounts to the builtin ledger's so; an import links a new account to the account the
 * admin chose, else to the books' account of the same number or name, type and currency: the
 * connected system's bank account, or the builtin chart's Bank or Credit Card account).
 *
 * Which imported bank lines the connected books already mark reconciled: a line of a service bank
 * account linked to a book account (bank_accounts.ledger_account_id) whose date and amount are
 * those of a line the books hold reconciled on that account (GnuCash: a split with reconcile state
 * 'y'). Each book line answers for one imported line at most. Such a line is imported as reconciled
 * in the accounting system (reconciledIn: accounting_system).
 */
import type { Kysely } from 'kysely';
import { todayIn, type IsoDate } from '../domain/dates.js';
import type { Database, OrganisationRow } from '../store/schema.js';
import { accountingSystemFor } from './index.js';
import { AccountingSystemError } from './types.js';

type Connected = Pick<OrganisationRow, 'id' | 'accounting_system' | 'accounting_config' | 'home_currency'>;

/** An account of the books a bank account can be linked to. */
export interface BookAccountChoice {
  accountId: string;
  name: string;
  fullName: string;
  number: string;
  type: 'bank' | 'credit_card';
  /** null where the books do not say (the builtin chart: any currency) */
  currency: string | null;
}

/**
 * The books' accounts a bank account can mirror: the connected system's own bank and card accounts
 * (GnuCash, Xero, QuickBooks), or for the builtin ledger its chart's Bank and Credit Card accounts.
 * Books that cannot be read offer none (the account is then created unlinked).
 */
export async function bookAccountChoices(db: Kysely<Database>, organisation: Connected): Promise<BookAccountChoice[]> {
  try {
    const system = accountingSystemFor(db, organisation);
    if (system.bankAccounts) {
      // only the accounts are wanted here, not their balances: any date answers the same list
      const [accounts, chart] = await Promise.all([system.bankAccounts(todayIn('UTC')), system.chartOfAccounts()]);
      const fullNames = new Map(chart.map((a) => [a.id, a.fullName]));
      return accounts.map((b) => ({
        accountId: b.accountId,
        name: b.name,
        fullName: fullNames.get(b.accountId) ?? b.name,
        number: b.number,
        type: b.type,
        currency: b.currency,
      }));
    }
    return (await system.chartOfAccounts())
      .filter((a) => a.active && (a.type === 'Bank' || a.type === 'Credit Card'))
      .map((a) => ({
        accountId: a.id,
        name: a.name,
        fullName: a.fullName,
        number: a.number ?? '',
        type: a.type === 'Bank' ? ('bank' as const) : ('credit_card' as const),
        currency: null,
      }));
  } catch (error) {
    if (error instanceof AccountingSystemError) return [];
    throw error;
  }
}

const digits = (text: string) => text.replace(/[^0-9]/g, '');
const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The one book account of the same type (and currency, where the books say) that a bank account is
 * named or numbered as: the same number (its digits, six at least), else the same name (any case); with `loose`, else the one whose name shares a word with
 * it. Null when none, or several, fit.
 */
export function suggestBookAccount(
  choices: BookAccountChoice[],
  account: { name: string; number?: string | undefined; type: string; currency: string },
  loose = false,
): BookAccountChoice | null {
  const fitting = choices.filter((c) => c.type === account.type && (c.currency === null || c.currency === account.currency));
  const one = (found: BookAccountChoice[]) => (found.length === 1 ? found[0]! : null);
  // six digits at least: a chart's account codes (1200) are not bank account numbers
  const number = digits(account.number ?? '');
  if (number.length >= 6) {
    const byNumber = one(fitting.filter((c) => digits(c.number) === number));
    if (byNumber) return byNumber;
  }
  const name = account.name.trim().toLowerCase();
  const byName = one(fitting.filter((c) => c.name.trim().toLowerCase() === name || c.fullName.trim().toLowerCase() === name));
  if (byName || !loose) return byName;
  const mine = new Set(words(account.name));
  return one(fitting.filter((c) => words(c.name).some((w) => mine.has(w))));
}

/**
 * The books' account a new service account stands for, when nothing was chosen: the one of the same
 * type and currency with the same number or name (suggestBookAccount, strictly); null when none, or
 * several, or the books cannot be read (the account is then created unlinked).
 */
export async function bookAccountFor(
  db: Kysely<Database>,
  organisation: Connected,
  account: { name: string; type: string; currency: string; number?: string | undefined },
): Promise<string | null> {
  return suggestBookAccount(await bookAccountChoices(db, organisation), account)?.accountId ?? null;
}

/** The lines among these that the books mark reconciled on the linked account (see above). */
export async function reconciledInBooks<T extends { date: IsoDate; amount: number }>(
  db: Kysely<Database>,
  organisation: Connected,
  ledgerAccountId: string | null,
  lines: T[],
): Promise<Set<T>> {
  const found = new Set<T>();
  if (!ledgerAccountId || lines.length === 0) return found;
  const dates = lines.map((l) => l.date).sort();
  let booked: { date: IsoDate; amount: number }[];
  try {
    const system = accountingSystemFor(db, organisation);
    if (!system.reconciledLines) return found;
    booked = await system.reconciledLines(ledgerAccountId, dates[0]!, dates[dates.length - 1]!);
  } catch (error) {
    // books that cannot be read leave the lines to reconcile: the statement is the service's own data
    if (error instanceof AccountingSystemError) return found;
    throw error;
  }
  const open = new Map<string, number>();
  for (const b of booked) open.set(`${b.date}|${b.amount}`, (open.get(`${b.date}|${b.amount}`) ?? 0) + 1);
  for (const line of lines) {
    const key = `${line.date}|${line.amount}`;
    const left = open.get(key) ?? 0;
    if (left === 0) continue;
    open.set(key, left - 1);
    found.add(line);
  }
  return found;
}
