/**
 * The accounting systems an organisation can be connected to, by the name stored with it, and the
 * time limit every call to one of them runs under.
 */
import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../store/schema.js';
import { BuiltinAccounting } from './builtin/reader.js';
import { gnuCashAccountingFor } from './gnucash/config.js';
import { quickBooksAccountingFor } from './quickbooks/config.js';
import { AccountingSystemError, type AccountingSystem } from './types.js';
import { xeroAccountingFor } from './xero/config.js';
import { connectedAccounting } from './connections/connector.js';
import type { AccountingConnectionSettings, Vendor } from '../domain/accounting-vendors.js';

/**
 * keepAtVersion, when given, is the organisation's data_version as the caller read it, vouched for
 * as the version of the data read through db: the builtin ledger then keeps its chart and contacts
 * while it stands (builtin/kept-lists.ts)
 */
type ConnectedOrganisation = Pick<OrganisationRow, 'id' | 'accounting_system' | 'accounting_config' | 'home_currency'> & {
  keepAtVersion?: number | string | undefined;
};
/** Xero and QuickBooks connections made in the settings (src/accounting/connections/), and the primary database their token refreshes are written to. */
export interface ConnectionContext {
  settings?: AccountingConnectionSettings | undefined;
  primary?: Kysely<Database> | undefined;
}
type Factory = (db: Kysely<Database>, organisation: ConnectedOrganisation, connections?: ConnectionContext) => AccountingSystem;

/** Settings that carry their own access token (tests set them directly) are used as given; otherwise the connection made in the settings. */
function vendorFactory(vendor: Vendor, fromSettings: (db: Kysely<Database>, organisation: ConnectedOrganisation) => AccountingSystem): Factory {
  return (db, organisation, connections) => {
    let ownToken = false;
    try {
      ownToken = typeof (JSON.parse(organisation.accounting_config ?? 'null') as { accessToken?: unknown } | null)?.accessToken === 'string';
    } catch {
      ownToken = false;
    }
    if (ownToken || !connections?.settings) return fromSettings(connections?.primary ?? db, organisation);
    return connectedAccounting(connections.primary ?? db, connections.settings, organisation, vendor);
  };
}

const FACTORIES = new Map<string, Factory>([
  ['builtin', (db, organisation) => new BuiltinAccounting(db, organisation.id, organisation.keepAtVersion)],
  // never throws: a bad book fails this organisation's calls with the reason, not the others'
  ['gnucash', (_db, organisation) => gnuCashAccountingFor(organisation)],
  ['xero', vendorFactory('xero', xeroAccountingFor)],
  ['quickbooks', vendorFactory('quickbooks', quickBooksAccountingFor)],
]);

export const ACCOUNTING_SYSTEMS = ['builtin', 'gnucash'] as const;

/** Adds a connector (tests use this for a deliberately slow or failing system). */
export function registerAccountingSystem(name: string, factory: Factory): void {
  FACTORIES.set(name, factory);
}

export const DEFAULT_ACCOUNTING_TIMEOUT_MS = 10_000;

export function accountingSystemFor(
  db: Kysely<Database>,
  organisation: ConnectedOrganisation,
  timeoutMs: number = DEFAULT_ACCOUNTING_TIMEOUT_MS,
  connections?: ConnectionContext,
): AccountingSystem {
  const factory = FACTORIES.get(organisation.accounting_system);
  if (!factory) throw new AccountingSystemError(`unknown accounting system "${organisation.accounting_system}"`);
  return withTimeout(factory(db, organisation, connections), timeoutMs);
}

/** Every call answers within the limit or fails with accounting_timeout: a slow system never hangs a request. */
function withTimeout(system: AccountingSystem, ms: number): AccountingSystem {
  return new Proxy(system, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new AccountingSystemError(`the accounting system (${target.kind}) did not answer within ${ms} ms`, 'accounting_timeout')),
            ms,
          );
        });
        return Promise.race([Promise.resolve(value.apply(target, args)), timeout]).finally(() => clearTimeout(timer));
      };
    },
  });
}
