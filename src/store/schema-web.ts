/** Row types of the web pages' tables (migration 003-web), joined into schema.ts's Database. */

export interface WebSessionRow {
  /** SHA-256 of the cookie's value */
  id_hash: string;
  user_id: string;
  /** password | external */
  method: string;
  created_at: string;
  last_seen_at: string;
  /** the absolute end of the session */
  expires_at: string;
}

export interface AuditLogRow {
  id: string;
  /** null for changes that belong to no one organisation (a person's own sign-in) */
  organisation_id: string | null;
  actor_user_id: string | null;
  /** dotted verb, e.g. api_client.created */
  action: string;
  /** what it acted on: a client id, a user id, an operation */
  target: string;
  /** JSON text */
  detail: string;
  created_at: string;
}

export interface WebTables {
  web_sessions: WebSessionRow;
  audit_log: AuditLogRow;
}
