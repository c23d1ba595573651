/**
 * What the accounting settings page shows of an organisation's books: the system they are kept in,
 * the vendor connection (with its descriptor), the vendors this service can connect to, and the
 * connection's local copy (mirror): how old it may be, when it was last brought up to date, and
 * whether its passes are failing (backed off, mirror.ts).
 */
import type { Kysely } from 'kysely';
import type { AccountingConnectionSettings } from '../../domain/accounting-vendors.js';
import { getOrganisation } from '../../store/organisations.js';
import type { Database } from '../../store/schema.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from '../mirror/mirror.js';
import { getMirror } from '../mirror/store.js';
import type { VendorDescriptor } from '../vendor-descriptor.js';
import { vendorNamed } from '../vendors.js';
import { configuredVendors } from './connect.js';
import type { AccountingConnectionRow } from '../../store/schema-accounting.js';
import { getConnection } from './tokens.js';

export interface AccountingStatus {
  /** organisations.accounting_system */
  system: string;
  connection: (AccountingConnectionRow & { descriptor: VendorDescriptor | undefined }) | undefined;
  configured: VendorDescriptor[];
  /** the connection's local copy, when one was started (a copy of another company, before a reconnect, is not this connection's) */
  mirror?: { complete: boolean; syncedAt: string | null; maxAgeMs: number } | undefined;
  /** the copy's passes failing, while the connection is active: how many, the last problem, when Ledgerline tries again by itself */
  failing?: { failures: number; problem: string; retryAt: string | null } | undefined;
}

export async function accountingStatus(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  organisationId: string,
): Promise<AccountingStatus> {
  const row = await getOrganisation(db, organisationId);
  const connection = await getConnection(db, organisationId);
  const descriptor = vendorNamed(connection?.vendor);
  const copy = await getMirror(db, organisationId);
  const ours = copy && connection && descriptor && copy.vendor === descriptor.company(connection.tenant_id) ? copy : undefined;
  const failures = Number(ours?.failures ?? 0);
  return {
    system: row?.accounting_system ?? 'builtin',
    connection: connection ? { ...connection, descriptor } : undefined,
    configured: configuredVendors(settings),
    mirror: ours ? { complete: ours.complete === 1, syncedAt: ours.synced_at, maxAgeMs: settings?.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS } : undefined,
    failing: ours && connection?.status === 'active' && failures > 0 && ours.problem ? { failures, problem: ours.problem, retryAt: ours.retry_at } : undefined,
  };
}
