/**
 * The Xero endpoints the connector calls and the OAuth 2.0 scopes each needs, as Xero's Accounting
 * API contract (xero_accounting.yaml) names them in the operation's `security: - OAuth2: [...]`:
 * the read-write scope or its read-only one, either of which Xero accepts. Ledgerline asks for the
 * read-only one of each (it never writes to Xero) and `offline_access` (a refresh token), and
 * nothing else: `XERO_SCOPES` is what the connection's sign-in asks for.
 *
 * Every call of the client (accounting/xero/client.ts) is checked against this list and refused when its path is
 * not in it, so a new call cannot be made without saying which scope it needs; test/xero-scopes
 * .test.ts checks the list against the contract, and the fake Xero answers a token without the
 * scope an operation needs as Xero does (401, insufficient_scope).
 *
 * The first version asked for `accounting.transactions.read accounting.reports.read
 * accounting.contacts.read accounting.settings.read accounting.attachments.read` (and openid,
 * profile, email): not `accounting.journals.read`, which GET /Journals needs, so a connection read
 * nothing (issue 38, item 1).
 */

export interface XeroEndpoint {
  /** the path template of the contract, below the API base */
  template: string;
  /** the scopes the contract names for it: a token with any one of them may call it */
  scopes: readonly string[];
  /** the one Ledgerline asks for (the read-only one) */
  asked: string;
  /** what the connector reads with it, in words */
  what: string;
}

const endpoint = (template: string, scopes: readonly string[], what: string): XeroEndpoint => {
  const asked = scopes.find((s) => s.endsWith('.read')) ?? scopes[0]!;
  return { template, scopes, asked, what };
};

const SETTINGS = ['accounting.settings', 'accounting.settings.read'] as const;
const CONTACTS = ['accounting.contacts', 'accounting.contacts.read'] as const;
const TRANSACTIONS = ['accounting.transactions', 'accounting.transactions.read'] as const;
const ATTACHMENTS = ['accounting.attachments', 'accounting.attachments.read'] as const;

/** Every GET the connector makes, with the contract's scopes for it. */
export const XERO_ENDPOINTS: readonly XeroEndpoint[] = [
  endpoint('/Accounts', SETTINGS, 'the chart of accounts'),
  endpoint('/Contacts', CONTACTS, 'the contacts'),
  endpoint('/Invoices', TRANSACTIONS, 'the invoices and bills'),
  endpoint('/BankTransactions', TRANSACTIONS, 'the bank transactions'),
  endpoint('/CreditNotes', TRANSACTIONS, 'the credit notes'),
  endpoint('/Payments', TRANSACTIONS, 'the payments'),
  endpoint('/Journals', ['accounting.journals.read'], 'the journals (the general ledger)'),
  endpoint('/Reports/BalanceSheet', ['accounting.reports.read'], "Xero's own balance sheet (check-books)"),
  endpoint('/Invoices/{InvoiceID}/Attachments', ATTACHMENTS, "a bill's attachments"),
  endpoint('/Invoices/{InvoiceID}/Attachments/{AttachmentID}', ATTACHMENTS, "a bill's attached file"),
  endpoint('/CreditNotes/{CreditNoteID}/Attachments', ATTACHMENTS, "a credit note's attachments"),
  endpoint('/CreditNotes/{CreditNoteID}/Attachments/{AttachmentID}', ATTACHMENTS, "a credit note's attached file"),
];

/** What the connection's sign-in asks Xero for. */
export const XERO_SCOPES = ['offline_access', ...new Set(XERO_ENDPOINTS.map((e) => e.asked))].join(' ');

const patterns = XERO_ENDPOINTS.map((e) => ({ e, pattern: new RegExp(`^${e.template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

/** The endpoint a request path (below the API base, no query) is a call of; undefined when the connector does not call it. */
export function xeroEndpointOf(path: string): XeroEndpoint | undefined {
  return XERO_ENDPOINTS.find((e) => e.template === path) ?? patterns.find((p) => p.pattern.test(path))?.e;
}

/** The scopes Ledgerline needs that a grant (Xero's token answer's `scope`, space-separated) lacks, each once. */
export function missingXeroScopes(granted: string): string[] {
  const have = new Set(granted.split(/\s+/).filter(Boolean));
  return [...new Set(XERO_ENDPOINTS.filter((e) => !e.scopes.some((s) => have.has(s))).map((e) => e.asked))];
}

/** In words: which scopes Xero did not grant and what Ledgerline reads with them. */
export function missingScopeProblem(missing: readonly string[]): string {
  const uses = (scope: string) => [...new Set(XERO_ENDPOINTS.filter((e) => e.asked === scope).map((e) => e.what))].join(', ');
  const each = missing.map((s) => `${s} (to read ${uses(s)})`).join(', ');
  return `Xero did not grant ${missing.length === 1 ? 'the scope' : 'the scopes'} ${each}, which Ledgerline needs`;
}

/** The problem for a call Xero refused for want of a scope (401 with error="insufficient_scope"). */
export function insufficientScopeProblem(path: string): string {
  const e = xeroEndpointOf(path);
  return e ? `${missingScopeProblem([e.asked])}: Xero refused GET ${e.template} for want of it` : `Xero refused GET ${path} for want of a scope the connection was not granted`;
}
