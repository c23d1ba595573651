/**
 * Row types of every table, for Kysely. Portable across SQLite and PostgreSQL: ids are text made by
 * the application, dates are `yyyy-MM-dd` text, instants are ISO-8601 text, booleans are 0/1
 * integers, money is BIGINT minor units (read back as JS numbers, see db.ts), and JSON is text.
 *
 * Database is the one schema every handle is typed with: the tables below, joined with those whose
 * rows are kept in the files beside this one (schema-ledger.ts, schema-banking.ts,
 * schema-accounting.ts, schema-web.ts), so no caller widens a handle to reach them.
 */
import type { BankAccountHolderRow, BankAccountRow, BankMatchRow, BankTotalsTables, BankTransactionRow } from './schema-banking.js';
import type { ConnectionTables, MirrorTables } from './schema-accounting.js';
import type { LedgerAggregateTables } from './schema-ledger.js';
import type { WebTables } from './schema-web.js';

export interface OrganisationRow {
  id: string;
  name: string;
  home_currency: string;
  time_zone: string;
  fy_start_month: number;
  accounting_system: string;
  /** JSON text: connector settings, e.g. a GnuCash book path */
  accounting_config: string | null;
  created_at: string;
  /** grows with every change to the organisation's data (triggers of migration 006); text on PostgreSQL (bigint) */
  data_version?: number | string;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

/** How a person came to be a member (store/consent-cover.ts reads it); null: from before it was kept. */
export type JoinedBy = 'invitation' | 'creator' | 'operator';

export interface MembershipRow {
  organisation_id: string;
  user_id: string;
  role: string;
  created_at: string;
  joined_by: JoinedBy | null;
}

/** An admin's invitation to join an organisation; the link's secret is kept as its SHA-256 only. */
export interface InvitationRow {
  id: string;
  organisation_id: string;
  /** normalised (lower case) */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

/** One row per (organisation, operation, role) that may call it. */
export interface OperationRoleRow {
  organisation_id: string;
  operation: string;
  role: string;
}

// --- the builtin accounting system's own tables (acct_*): only src/accounting/builtin reads them ---

export interface AcctAccountRow {
  id: string;
  organisation_id: string;
  parent_id: string | null;
  name: string;
  full_name: string;
  number: string | null;
  type: string;
  classification: string;
  active: number;
}

export interface AcctContactRow {
  id: string;
  organisation_id: string;
  name: string;
  /** supplier | customer | employee */
  kind: string;
}

export interface AcctTransactionRow {
  id: string;
  organisation_id: string;
  type: string;
  number: string | null;
  date: string;
  contact_id: string | null;
  description: string;
  currency: string;
  /** home-currency units per unit of currency, decimal text */
  exchange_rate: string;
  created_at: string;
  /** a mirrored vendor transaction's link to the vendor's own page (migration 011) */
  link?: string | null;
  /** a mirrored vendor transaction's system document (SystemDocument.documentId), when it posted one */
  document_id?: string | null;
}

export interface AcctLineRow {
  id: string;
  organisation_id: string;
  transaction_id: string;
  line_no: number;
  account_id: string;
  date: string;
  type: string;
  contact_id: string | null;
  description: string;
  /** home currency minor units, debit positive */
  amount: number;
  /** the transaction's currency, minor units, debit positive */
  amount_in_currency: number;
  currency: string;
}

/** Per account and month, the sum of its lines: reports read these instead of the lines. */
export interface AcctMonthTotalRow {
  organisation_id: string;
  account_id: string;
  month: string;
  amount: number;
}

// --- the service's own data ---

export interface DocumentRow {
  id: string;
  organisation_id: string;
  number: string;
  /** bill | receipt | expense_claim | supplier_credit */
  type: string;
  supplier: string;
  date: string;
  due_date: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  accounting_transaction_id: string | null;
  published_at: string | null;
  created_at: string;
  /** a user id, or client:<id>; null for documents from before write operations */
  created_by: string | null;
  updated_at: string | null;
  /** documents.publish (migration 022): null until tried, 'pending' while its outcome is not known, then 'published' */
  publish_state?: string | null;
  /** the key every try of the publish is sent under (the vendors' idempotency key and the mark on their record) */
  publish_key?: string | null;
  publish_started_at?: string | null;
  /** the system's id of the document it wrote (Xero's InvoiceID, QuickBooks' Bill Id); the builtin ledger's transaction id */
  accounting_document_id?: string | null;
  /** a link to the transaction in the system's own interface */
  accounting_link?: string | null;
  /** a receipt's bank or card account (ledger account id) */
  paid_from?: string | null;
  /** home units per unit of a foreign document's currency, decimal text */
  exchange_rate?: string | null;
}

export interface DocumentCodedLineRow {
  id: string;
  document_id: string;
  organisation_id: string;
  line_no: number;
  description: string;
  account_id: string | null;
  account_name: string | null;
  tax_code_id: string | null;
  class: string | null;
  customer: string | null;
  /** decimal text */
  quantity: string;
  subtotal: number;
  tax: number;
  total: number;
}

export interface DocumentInvoiceLineRow {
  id: string;
  document_id: string;
  organisation_id: string;
  line_no: number;
  description: string;
  product_code: string | null;
  unit: string | null;
  quantity: string;
  unit_price: number;
  tax: number;
  amount: number;
}

export interface DocumentFileRow {
  document_id: string;
  organisation_id: string;
  file_name: string;
  content_type: string;
  size: number;
  data: Buffer;
}

export type { BankAccountHolderRow, BankAccountRow, BankDailyTotalRow, BankMatchRow, BankMonthTotalRow, BankTransactionRow } from './schema-banking.js';
export type { AccountingConnectionRequestRow, AccountingConnectionRow, AccountingMirrorRecordRow, AccountingMirrorRow } from './schema-accounting.js';
export type { AcctDayLineTotalRow, AcctDayTotalRow, AcctMonthLineTotalRow } from './schema-ledger.js';
export type { AuditLogRow, WebSessionRow } from './schema-web.js';

export interface BillRow {
  id: string;
  organisation_id: string;
  document_id: string | null;
  /** bill | expense_claim */
  kind: string;
  supplier: string;
  /** domain/bill-criteria.ts supplierKey(supplier): payment order and supplier criteria */
  supplier_key: string;
  invoice_number: string;
  date: string;
  due_date: string;
  scheduled_date: string | null;
  /** comma separated */
  tags: string;
  /** domain/bill-criteria.ts tagsKey(tags): tag criteria */
  tags_key: string;
  currency: string;
  original_amount: number;
  amount_due: number;
  latest_note: string | null;
  created_at: string;
}

export interface BillFilterRow {
  id: string;
  organisation_id: string;
  name: string;
  description: string;
  /** JSON text of BillCriteria (src/domain/bill-criteria.ts) */
  criteria: string;
  position: number;
}

export interface OAuthClientRow {
  client_id: string;
  /** api_client | app | dynamic | metadata_document */
  kind: string;
  organisation_id: string | null;
  name: string;
  /** 1 = verified by the operator, for every organisation (organisations' own: oauth_client_verifications) */
  verified: number;
  /** 1 = blocked by the operator, for every organisation (organisations' own: oauth_client_blocks) */
  blocked: number;
  /** JSON text: the client metadata oidc-provider reads (without the secret) */
  metadata: string;
  /** sha-256 of the client secret, for api clients */
  secret_hash: string | null;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** oidc-provider's records: one row per (model, id); ids of tokens and codes are stored hashed. */
export interface OAuthStoreRow {
  model: string;
  id: string;
  /** JSON text */
  payload: string;
  grant_id: string | null;
  client_id: string | null;
  /** the user (oidc-provider's accountId) a record belongs to */
  account_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** epoch milliseconds */
  expires_at: number | null;
  /** epoch seconds */
  consumed_at: number | null;
}

export interface OAuthConsentRow {
  grant_id: string;
  user_id: string;
  client_id: string;
  /** 1 = every organisation of the user, including ones joined later */
  all_organisations: number;
  /** space separated scopes granted */
  scope: string;
  created_at: string;
}

export interface OAuthConsentOrganisationRow {
  grant_id: string;
  organisation_id: string;
}

/** An organisation an "all organisations" consent no longer covers: its admins disconnected it there. */
export interface OAuthConsentExclusionRow {
  grant_id: string;
  organisation_id: string;
}

/** An app verified by one organisation's admins, shown as verified to that organisation only. */
export interface OAuthClientVerificationRow {
  client_id: string;
  organisation_id: string;
  /** the admin's user id; null when not known */
  verified_by: string | null;
  verified_at: string;
}

/** An organisation's admins blocked the app for that organisation (the operator's block: oauth_clients.blocked). */
export interface OAuthClientBlockRow {
  client_id: string;
  organisation_id: string;
  /** the admin's user id; null when not known */
  blocked_by: string | null;
  blocked_at: string;
}

export interface ServiceSecretRow {
  name: string;
  value: string;
  created_at: string;
}

export interface IdempotencyKeyRow {
  organisation_id: string;
  /** user:<id> or client:<id> */
  caller: string;
  key: string;
  operation: string;
  request_hash: string;
  /** JSON of the answer; null while the first request runs */
  answer: string | null;
  created_at: string;
}

/** Every table: the service's own (below) and the side tables' (the files beside this one). */
export interface Database extends LedgerAggregateTables, BankTotalsTables, ConnectionTables, MirrorTables, WebTables {
  organisations: OrganisationRow;
  users: UserRow;
  memberships: MembershipRow;
  invitations: InvitationRow;
  operation_roles: OperationRoleRow;
  acct_accounts: AcctAccountRow;
  acct_contacts: AcctContactRow;
  acct_transactions: AcctTransactionRow;
  acct_lines: AcctLineRow;
  acct_month_totals: AcctMonthTotalRow;
  documents: DocumentRow;
  document_coded_lines: DocumentCodedLineRow;
  document_invoice_lines: DocumentInvoiceLineRow;
  document_files: DocumentFileRow;
  bank_accounts: BankAccountRow;
  bank_account_holders: BankAccountHolderRow;
  bank_transactions: BankTransactionRow;
  bank_matches: BankMatchRow;
  bills: BillRow;
  bill_filters: BillFilterRow;
  idempotency_keys: IdempotencyKeyRow;
  oauth_clients: OAuthClientRow;
  oauth_store: OAuthStoreRow;
  oauth_consents: OAuthConsentRow;
  oauth_consent_organisations: OAuthConsentOrganisationRow;
  oauth_consent_exclusions: OAuthConsentExclusionRow;
  oauth_client_verifications: OAuthClientVerificationRow;
  oauth_client_blocks: OAuthClientBlockRow;
  service_secrets: ServiceSecretRow;
}
