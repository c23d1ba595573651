/**
 * An organisation whose books are kept in a vendor (the tests' fake Xero or QuickBooks), with its
 * settings stored as given (tenant or realm, access token, base URL, mirror age…): Xero ones in
 * GBP and London, QuickBooks ones in USD and Los Angeles, as the fakes' books are.
 */
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';

const PLACE = {
  xero: { homeCurrency: 'GBP', timeZone: 'Europe/London' },
  quickbooks: { homeCurrency: 'USD', timeZone: 'America/Los_Angeles' },
} as const;

export async function vendorOrganisation(store: Store, system: keyof typeof PLACE, name: string, config: object): Promise<string> {
  const row = await provisionOrganisation(store.db, { name, ...PLACE[system], fyStartMonth: 1, accountingSystem: system });
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}
