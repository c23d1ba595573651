/**
 * Row types of the accounting systems' own tables, joined into schema.ts's Database: the
 * connections to a vendor and their pending requests (migration 010), and the mirror of a vendor's
 * records with its pass state (011).
 */

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

export interface AccountingMirrorRow {
  organisation_id: string;
  /** the company mirrored: `<vendor>:<tenant or realm id>`; another company's mirror is cleared first */
  vendor: string;
  /** JSON: the vendor's cursors (Xero: the last journal number and each list's last modified time; QuickBooks: the last change time) */
  state: string;
  /** grows with every pass that changed something: the connector's changeToken */
  version: number;
  /** 1 once the first full copy is done; until then nothing is answered from the mirror */
  complete: number;
  synced_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  /** passes failed in a row (migration 021); 0 after one succeeds */
  failures: number;
  /** when the warm-up may try again, after failures: exponential backoff (mirror.ts) */
  retry_at: string | null;
  /** what the last failed pass failed with */
  problem: string | null;
}

export interface AccountingMirrorRecordRow {
  organisation_id: string;
  /** the vendor's list: Invoices, Journals, Bill, … */
  list: string;
  id: string;
  /** the record this one belongs to (a Xero journal's source), null when none */
  ref: string | null;
  /** the record as the vendor sent it, JSON */
  body: string;
}

export interface MirrorTables {
  accounting_mirrors: AccountingMirrorRow;
  accounting_mirror_records: AccountingMirrorRecordRow;
}
