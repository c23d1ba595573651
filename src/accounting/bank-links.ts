/**
 * How the service's bank accounts meet the connected books. One rule, whatever the system: a
 * service bank account is linked to a ledger account by bank_accounts.ledger_account_id (the demo
 * links its accounts to the builtin ledger's so; an import links a new account to the connected
 * books' account of the same name, type and currency).
 *
 * Which imported bank lines the connected books already mark reconciled: a line of a service bank
 * account linked to a book account (bank_accounts.ledger_account_id) whose date and amount are
 * those of a line the books hold reconciled on that account (GnuCash: a split with reconcile state
 * 'y'). Each book line answers for one imported line at most. Such a line is imported as reconciled
 * in the accounting system (reconciledIn: accounting_system).
 */
import type { Kysely } from 'kysely';
import type { IsoDate } from '../domain/dates.js';
import type { Database, OrganisationRow } from '../store/schema.js';
import { accountingSystemFor } from './index.js';
import { AccountingSystemError } from './types.js';

type Connected = Pick<OrganisationRow, 'id' | 'accounting_system' | 'accounting_config' | 'home_currency'>;

/**
 * The connected books' bank or card account a new service account stands for: the one with the
 * same name (case and surrounding spaces aside), type and currency; null when none, or several, or
 * the books cannot be read (the account is then created unlinked, as before).
 */
export async function bookAccountFor(
  db: Kysely<Database>,
  organisation: Connected,
  account: { name: string; type: string; currency: string },
): Promise<string | null> {
  try {
    const system = accountingSystemFor(db, organisation);
    if (!system.bankAccounts) return null;
    const key = account.name.trim().toLowerCase();
    const same = (await system.bankAccounts()).filter((b) => b.name.trim().toLowerCase() === key && b.type === account.type && b.currency === account.currency);
    return same.length === 1 ? same[0]!.accountId : null;
  } catch (error) {
    if (error instanceof AccountingSystemError) return null;
    throw error;
  }
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
