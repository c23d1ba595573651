/**
 * The accounting systems an organisation can be connected to, by the name stored with it, and the
 * time limit every call to one of them runs under: one factory, which looks the system up here (a
 * vendor's in vendors.ts) and builds the organisation's from its stored settings.
 */
import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../store/schema.js';
import { BuiltinAccounting } from './builtin/reader.js';
import { gnuCashAccountingFor } from './gnucash/config.js';
import { AccountingSystemError, type AccountingSystem } from './types.js';
import { connectedAccounting } from './connections/connector.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from './mirror/mirror.js';
import { budgetedFetch } from './call-budget.js';
import type { VendorDescriptor } from './vendor-descriptor.js';
import { VENDOR_DESCRIPTORS } from './vendors.js';
import type { AccountingConnectionSettings } from '../domain/accounting-vendors.js';

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

/** A system whose every call fails with the reason: settings that cannot be used fail only this organisation's calls. */
function failing(kind: string, error: unknown): AccountingSystem {
  const fail = () => Promise.reject(error);
  return { kind, check: fail, chartOfAccounts: fail, contacts: fail, accountTotals: fail, lineTotals: fail, lines: fail };
}

/**
 * A vendor's system for an organisation: settings stored with the organisation (given by hand:
 * tests, sandboxes) are read against the vendor's schema and used as given; none stored (a
 * connection made in the settings clears them) reads through the connection. Never throws.
 */
function vendorFactory(descriptor: VendorDescriptor): Factory {
  return (db, organisation, connections) => {
    const primary = connections?.primary ?? db;
    if (organisation.accounting_config === null && connections?.settings) return connectedAccounting(primary, connections.settings, organisation, descriptor);
    try {
      const settings = descriptor.settings.parse(organisation.accounting_config);
      const send = budgetedFetch(fetch, descriptor.company(descriptor.settings.tenantOf(settings)), descriptor.limits);
      const place = { db: primary, organisationId: organisation.id, maxAgeMs: settings.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS };
      return descriptor.reader(settings, organisation.home_currency, send, place);
    } catch (error) {
      return failing(descriptor.vendor, error);
    }
  };
}

const FACTORIES = new Map<string, Factory>([
  ['builtin', (db, organisation) => new BuiltinAccounting(db, organisation.id, organisation.keepAtVersion)],
  // never throws: a bad book fails this organisation's calls with the reason, not the others'
  ['gnucash', (_db, organisation) => gnuCashAccountingFor(organisation)],
  ...Object.values(VENDOR_DESCRIPTORS).map((d): [string, Factory] => [d.vendor, vendorFactory(d)]),
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
