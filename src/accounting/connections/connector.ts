/**
 * A Xero or QuickBooks connector reading through the organisation's stored connection: the
 * tenant/realm from the connection, and on every request a valid access token (tokens.ts), put in
 * place of the Authorization header. The connection is read when the first method is called (the
 * registry's factories are synchronous).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { budgetedFetch, QUICKBOOKS_LIMITS, XERO_LIMITS } from '../call-budget.js';
import { QuickBooksAccounting } from '../quickbooks/reader.js';
import type { AccountingSystem } from '../types.js';
import { XeroAccounting } from '../xero/reader.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from '../mirror/mirror.js';
import { accessTokenFor, getConnection } from './tokens.js';
import { AccountingSystemError } from '../types.js';
import { companyKey, VENDOR_NAMES, type AccountingConnectionSettings, type Vendor } from '../../domain/accounting-vendors.js';

export function connectedAccounting(db: Kysely<Database>, settings: AccountingConnectionSettings, organisation: { id: string; home_currency: string }, vendor: Vendor): AccountingSystem {
  const fetchImpl = settings.fetch ?? fetch;
  const authorised: typeof fetch = async (input, init) => {
    const { accessToken } = await accessTokenFor(db, settings, organisation.id, vendor);
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${accessToken}`);
    return fetchImpl(input, { ...init, headers });
  };
  let inner: Promise<AccountingSystem> | undefined;
  const build = async (): Promise<AccountingSystem> => {
    const row = await getConnection(db, organisation.id);
    if (!row || row.vendor !== vendor) throw new AccountingSystemError(`The organisation is not connected to ${VENDOR_NAMES[vendor]}: an admin connects it in the organisation's settings (Accounting system).`);
    const baseUrl = settings[vendor]?.apiBaseUrl;
    const place = { db, organisationId: organisation.id, maxAgeMs: settings.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS };
    // the token in the settings is a placeholder: `authorised` replaces it on every request, after
    // the call has its place in the connection's budget (src/accounting/call-budget.ts)
    return vendor === 'xero'
      ? new XeroAccounting({ tenantId: row.tenant_id, accessToken: 'connection', ...(baseUrl ? { baseUrl } : {}) }, organisation.home_currency, budgetedFetch(authorised, companyKey('xero', row.tenant_id), XERO_LIMITS), place)
      : new QuickBooksAccounting(
          { realmId: row.tenant_id, accessToken: 'connection', ...(baseUrl ? { baseUrl } : {}) },
          organisation.home_currency,
          budgetedFetch(authorised, companyKey('quickbooks', row.tenant_id), QUICKBOOKS_LIMITS),
          place,
        );
  };
  const prototype = (vendor === 'xero' ? XeroAccounting.prototype : QuickBooksAccounting.prototype) as unknown as Record<string | symbol, unknown>;
  return new Proxy({ kind: vendor } as AccountingSystem, {
    get(target, property) {
      if (property === 'kind') return vendor;
      if (typeof prototype[property] !== 'function' || property === 'constructor') return Reflect.get(target, property);
      return async (...args: unknown[]) => {
        inner ??= build();
        inner.catch(() => (inner = undefined));
        const system = await inner;
        return (system as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[property]!(...args);
      };
    },
  });
}
