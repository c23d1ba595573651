import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../store/schema.js';
import { BuiltinAccounting } from './builtin/reader.js';
import { gnuCashAccountingFor } from './gnucash/config.js';
import { AccountingSystemError, type AccountingSystem } from './types.js';

export const ACCOUNTING_SYSTEMS = ['builtin', 'gnucash'] as const;

/** The accounting systems an organisation can be connected to, by the name stored with it. */
export function accountingSystemFor(
  db: Kysely<Database>,
  organisation: Pick<OrganisationRow, 'id' | 'accounting_system' | 'accounting_config' | 'home_currency'>,
): AccountingSystem {
  switch (organisation.accounting_system) {
    case 'builtin':
      return new BuiltinAccounting(db, organisation.id);
    case 'gnucash':
      // never throws: a bad book fails this organisation's calls with the reason, not the others'
      return gnuCashAccountingFor(organisation);
    default:
      throw new AccountingSystemError(`unknown accounting system "${organisation.accounting_system}"`);
  }
}
