/**
 * The Xero connector for an organisation row (src/accounting/index.ts registers it as 'xero').
 */
import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../../store/schema.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from '../mirror/mirror.js';
import type { AccountingSystem } from '../types.js';
import { budgetedFetch, XERO_LIMITS } from '../call-budget.js';
import { XeroAccounting } from './reader.js';
import { parseXeroConfig } from './settings.js';

export { parseXeroConfig, XERO_API, xeroConfigSchema, type XeroConfig } from './settings.js';

/**
 * The connector for an organisation row. Never throws: settings that cannot be used give a
 * connector whose every call fails with the reason, so only this organisation's calls fail.
 */
export function xeroAccountingFor(db: Kysely<Database>, organisation: Pick<OrganisationRow, 'id' | 'accounting_config' | 'home_currency'>): AccountingSystem {
  try {
    const config = parseXeroConfig(organisation.accounting_config);
    // Xero's limits are per organisation (tenant) and app
    return new XeroAccounting(config, organisation.home_currency, budgetedFetch(fetch, `xero:${config.tenantId}`, XERO_LIMITS), {
      db,
      organisationId: organisation.id,
      maxAgeMs: config.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS,
    });
  } catch (error) {
    const fail = () => Promise.reject(error);
    return { kind: 'xero', check: fail, chartOfAccounts: fail, contacts: fail, accountTotals: fail, lineTotals: fail, lines: fail };
  }
}
