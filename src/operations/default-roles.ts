/**
 * The spec's default role policy, per operation (spec: Endpoints, "Default roles"). New
 * organisations are seeded with it; an admin can change it per organisation afterwards.
 */
import type { Role } from './context.js';

const ADMINS: readonly Role[] = ['super_admin', 'admin'];
const EVERYONE: readonly Role[] = ['super_admin', 'admin', 'submitter', 'custom'];

export const DEFAULT_ROLES: Readonly<Record<string, readonly Role[]>> = {
  'ledger.account_transactions': ADMINS,
  'banking.transactions': ADMINS,
  'banking.accounts': ADMINS,
  'documents.get': ADMINS,
  'documents.file': ADMINS,
  'reports.profit_and_loss': EVERYONE,
  'reports.balance_sheet': EVERYONE,
  'accounts.list': EVERYONE,
  'bills.list_to_pay': EVERYONE,
  'bills.list_saved_filters': EVERYONE,
};

export function defaultRolesOf(operation: string): readonly Role[] {
  const roles = DEFAULT_ROLES[operation];
  if (!roles) throw new Error(`no default roles declared for ${operation}`);
  return roles;
}
