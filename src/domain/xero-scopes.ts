/**
 * The Xero endpoints the connector calls and the OAuth 2.0 scopes each needs, as Xero's Accounting
 * API contract (xero_accounting.yaml) names them in the operation's `security: - OAuth2: [...]`:
 * the read-write scope or its read-only one, either of which Xero accepts. Ledgerline asks for the
 * read-only one of each family it only reads (settings, journals, reports), the read-write one of
 * each family it also writes (transactions, contacts, attachments: documents.publish and
 * banking.match, issue 42), and `offline_access` (a refresh token), and nothing else: `XERO_SCOPES`
 * is what the connection's sign-in asks for.
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
  /** GET for the reads; PUT or POST for the writes (XERO_WRITES) */
  method: 'GET' | 'PUT' | 'POST';
  /** the path template of the contract, below the API base */
  template: string;
  /** the scopes the contract names for it: a token with any one of them may call it */
  scopes: readonly string[];
  /** the one Ledgerline asks for: the read-write one of a family it writes, else the read-only one */
  asked: string;
  /** what the connector reads (or writes) with it, in words */
  what: string;
}

/**
 * The families Ledgerline writes to (the read-write scopes of its writes, which also let it read):
 * a published document names a supplier new to the books by name, and Xero makes the contact with
 * it, a contact write.
 */
const WRITTEN = new Set(['accounting.transactions', 'accounting.contacts', 'accounting.attachments']);

const endpoint = (template: string, scopes: readonly string[], what: string, method: XeroEndpoint['method'] = 'GET'): XeroEndpoint => {
  const asked = scopes.find((s) => WRITTEN.has(s)) ?? scopes.find((s) => s.endsWith('.read')) ?? scopes[0]!;
  return { method, template, scopes, asked, what };
};

const SETTINGS = ['accounting.settings', 'accounting.settings.read'] as const;
const CONTACTS = ['accounting.contacts', 'accounting.contacts.read'] as const;
const TRANSACTIONS = ['accounting.transactions', 'accounting.transactions.read'] as const;
const ATTACHMENTS = ['accounting.attachments', 'accounting.attachments.read'] as const;
/** a write is allowed by the read-write scope alone (the contract's `security` of each PUT and POST) */
const WRITE_TRANSACTIONS = ['accounting.transactions'] as const;
const WRITE_ATTACHMENTS = ['accounting.attachments'] as const;

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

/**
 * Every write the connector makes (documents.publish, banking.match and unmatch: accounting/xero/
 * publish.ts, payments.ts), and the reads only publishing makes (a bank transaction's attachments,
 * to attach a file once), with the contract's scopes for each.
 */
export const XERO_WRITES: readonly XeroEndpoint[] = [
  endpoint('/Invoices', WRITE_TRANSACTIONS, 'a bill (ACCPAY invoice)', 'PUT'),
  endpoint('/BankTransactions', WRITE_TRANSACTIONS, 'a spend from a bank or card account', 'PUT'),
  endpoint('/CreditNotes', WRITE_TRANSACTIONS, 'a supplier credit note', 'PUT'),
  endpoint('/Payments', WRITE_TRANSACTIONS, "a bill's payment", 'PUT'),
  endpoint('/Payments/{PaymentID}', WRITE_TRANSACTIONS, "a payment's deletion", 'POST'),
  endpoint('/Invoices/{InvoiceID}/Attachments/{FileName}', WRITE_ATTACHMENTS, "a bill's file", 'PUT'),
  endpoint('/BankTransactions/{BankTransactionID}/Attachments/{FileName}', WRITE_ATTACHMENTS, "a spend's file", 'PUT'),
  endpoint('/CreditNotes/{CreditNoteID}/Attachments/{FileName}', WRITE_ATTACHMENTS, "a credit note's file", 'PUT'),
  endpoint('/BankTransactions/{BankTransactionID}/Attachments', ATTACHMENTS, "a spend's attachments (a file is attached once)"),
];

/** What the connection's sign-in asks Xero for: the reads' scopes and the writes', each once. */
export const XERO_SCOPES = ['offline_access', ...new Set([...XERO_ENDPOINTS, ...XERO_WRITES].map((e) => e.asked))].join(' ');

const patternOf = (e: XeroEndpoint) => ({ e, pattern: new RegExp(`^${e.template.replace(/\{[^}]+\}/g, '[^/]+')}$`) });
const patterns = XERO_ENDPOINTS.map(patternOf);
const writePatterns = XERO_WRITES.map(patternOf);

/** The endpoint a request (its method, its path below the API base, no query) is a call of; undefined when the connector does not make it. */
export function xeroEndpointOf(path: string, method: XeroEndpoint['method'] = 'GET'): XeroEndpoint | undefined {
  const exact = (e: XeroEndpoint) => e.method === method && e.template === path;
  const matches = (p: { e: XeroEndpoint; pattern: RegExp }) => p.e.method === method && p.pattern.test(path);
  return XERO_ENDPOINTS.find(exact) ?? patterns.find(matches)?.e ?? XERO_WRITES.find(exact) ?? writePatterns.find(matches)?.e;
}

/**
 * The scopes Ledgerline needs to read that a grant (Xero's token answer's `scope`, space-separated)
 * lacks, each once. Only the reads count: a connection made before Ledgerline wrote to Xero keeps
 * reading, and a write it was not granted fails on its own (insufficientScopeProblem), asking to
 * connect again to allow writing.
 */
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
export function insufficientScopeProblem(path: string, method: XeroEndpoint['method'] = 'GET'): string {
  const e = xeroEndpointOf(path, method);
  if (method !== 'GET') {
    const what = e ? `${e.asked} (to write ${e.what})` : 'a scope the connection was not granted';
    return (
      `Xero refused ${method} ${e?.template ?? path} for want of the scope ${what}: the organisation's Xero connection allows reading only; an ` +
      `admin must connect it to Xero again and allow Ledgerline to write`
    );
  }
  return e
    ? `${missingScopeProblem([e.asked])}: Xero refused GET ${e.template} for want of it`
    : `Xero refused GET ${path} for want of a scope the connection was not granted`;
}
