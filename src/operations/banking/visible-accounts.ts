/**
 * Which bank accounts a caller may see (spec: Organisations and roles, item 6). Bank and card
 * transactions belong to the people who hold the accounts: super admins and admins see every
 * account, an organisation's own API client acts for the whole organisation, and every other role
 * (submitter, custom) sees only the accounts it holds.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { listBankAccounts } from '../../store/bank-accounts.js';
import type { BankAccountRow, Database } from '../../store/schema.js';
import { keptAtVersion } from '../../store/versioned-cache.js';
import type { Principal } from '../context.js';

/** The user whose held accounts bound what the principal sees, or null when it sees them all. */
export function holderFilterOf(principal: Principal): string | null {
  if (principal.kind === 'client') return null;
  return principal.role === 'super_admin' || principal.role === 'admin' ? null : principal.userId;
}

/** What a caller's view of the bank accounts depends on: all of them, or one holder's. */
export function bankViewOf(principal: Principal): string {
  return holderFilterOf(principal) ?? 'all';
}

export interface VisibleAccounts {
  /** default account first, then by name; shared by every call at a version: not to be changed */
  accounts: readonly BankAccountRow[];
  /** false when the caller sees every account of the organisation */
  narrowed: boolean;
}

/**
 * The accounts a caller sees, kept per organisation and view while its data version stands
 * (`version`: as the call read it and vouches for; every write to bank_accounts or
 * bank_account_holders moves it, migration 006), as the ledger's chart is: every bank call reads
 * them. Without a version (a change, a replica, a snapshot after the version moved) read afresh.
 */
export async function visibleBankAccounts(db: Kysely<Database>, organisationId: string, principal: Principal, version?: string): Promise<VisibleAccounts> {
  const holder = holderFilterOf(principal);
  const read = async () => Object.freeze(sortedAccounts(await listBankAccounts(db, organisationId, holder)));
  const accounts = await keptAccounts(db, organisationId, version, holder ?? '', read);
  return { accounts, narrowed: holder !== null };
}

const keptAccounts = keptAtVersion<readonly BankAccountRow[]>(1000);

// sorted here rather than in SQL so both databases agree on the order of names
const sortedAccounts = (accounts: BankAccountRow[]) =>
  accounts.sort((a, b) => b.is_default - a.is_default || compareText(a.name, b.name) || compareText(a.id, b.id));

function compareText(a: string, b: string): number {
  const byLower = a.toLowerCase().localeCompare(b.toLowerCase(), 'en');
  return byLower !== 0 ? byLower : a < b ? -1 : a > b ? 1 : 0;
}

export const bankAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  number: z.string(),
  type: z.string().describe('bank or credit_card'),
  bank: z.string(),
  currency: z.string(),
});

export type BankAccountView = z.infer<typeof bankAccountSchema>;

export function bankAccountView(row: BankAccountRow): BankAccountView {
  return { id: row.id, name: row.name, number: row.number, type: row.type, bank: row.bank, currency: row.currency };
}
