import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../store/schema.js';
import { BuiltinAccounting } from './builtin/reader.js';
import { AccountingSystemError, type AccountingSystem } from './types.js';

/** The accounting systems an organisation can be connected to, by the name stored with it. */
export function accountingSystemFor(db: Kysely<Database>, organisation: Pick<OrganisationRow, 'id' | 'accounting_system'>): AccountingSystem {
  switch (organisation.accounting_system) {
    case 'builtin':
      return new BuiltinAccounting(db, organisation.id);
    default:
      throw new AccountingSystemError(`unknown accounting system "${organisation.accounting_system}"`);
  }
}
