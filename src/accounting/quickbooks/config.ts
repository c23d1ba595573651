/**
 * The QuickBooks Online connector for an organisation row (src/accounting/index.ts registers it as
 * 'quickbooks').
 */
import type { Kysely } from 'kysely';
import type { Database, OrganisationRow } from '../../store/schema.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from '../mirror/mirror.js';
import type { AccountingSystem } from '../types.js';
import { budgetedFetch, QUICKBOOKS_LIMITS } from '../call-budget.js';
import { QuickBooksAccounting } from './reader.js';
import { parseQuickBooksConfig } from './settings.js';

export { parseQuickBooksConfig, QUICKBOOKS_API, quickBooksConfigSchema, type QuickBooksConfig } from './settings.js';

/**
 * The connector for an organisation row. Never throws: settings that cannot be used give a
 * connector whose every call fails with the reason, so only this organisation's calls fail.
 */
export function quickBooksAccountingFor(
  db: Kysely<Database>,
  organisation: Pick<OrganisationRow, 'id' | 'accounting_config' | 'home_currency'>,
): AccountingSystem {
  try {
    const config = parseQuickBooksConfig(organisation.accounting_config);
    // QuickBooks' limits are per company (realm) and app
    return new QuickBooksAccounting(config, organisation.home_currency, budgetedFetch(fetch, `quickbooks:${config.realmId}`, QUICKBOOKS_LIMITS), {
      db,
      organisationId: organisation.id,
      maxAgeMs: config.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS,
    });
  } catch (error) {
    const fail = () => Promise.reject(error);
    return { kind: 'quickbooks', check: fail, chartOfAccounts: fail, contacts: fail, accountTotals: fail, lineTotals: fail, lines: fail };
  }
}
