/**
 * Row types of the accounting connection tables (migration 010), kept beside schema.ts like the web
 * tables; `withConnectionTables` widens a Kysely<Database> to include them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

export interface AccountingConnectionRow {
  organisation_id: string;
  vendor: string;
  tenant_id: string;
  tenant_name: string;
  /** sealed (keys.ts) */
  refresh_token: string;
  /** sealed (keys.ts) */
  access_token: string;
  access_expires_at: string;
  /** active | reconnect */
  status: string;
  problem: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  version: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccountingConnectionRequestRow {
  state_hash: string;
  organisation_id: string;
  vendor: string;
  user_id: string;
  payload: string;
  created_at: string;
  expires_at: string;
}

export interface ConnectionTables {
  accounting_connections: AccountingConnectionRow;
  accounting_connection_requests: AccountingConnectionRequestRow;
}

export const withConnectionTables = (db: Kysely<Database>) => db as unknown as Kysely<Database & ConnectionTables>;
