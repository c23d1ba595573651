/**
 * The MCP endpoint, driven by the official SDK client over a real port: discovery from a 401,
 * dynamic registration or a Client ID Metadata Document, PKCE and the resource indicator, the real
 * sign-in and consent pages, then tools/list and a call of every tool with exact figures, each
 * answer checked against the tool's outputSchema. Roles, revocation, audiences and rate limits
 * behave as on REST because they are the same code.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApiClient, registerApp } from '../../src/auth/clients.js';
import { revokeConsent } from '../../src/auth/consents.js';
import { defaultRateLimits } from '../../src/config.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { buildMcpBooks, PDF, PNG } from '../helpers/mcp-books.js';
import { BrowserAuth, clientCredentialsToken, connectWithOAuth, connectWithToken } from '../helpers/mcp.js';
import { api, connect, discover } from '../helpers/oauth.js';
import { startServer } from '../helpers/server.js';
import { assertEveryPropertyRequired, assertSchemaRequiresSpecFields, assertSpecFields } from '../helpers/spec-fields.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
const TOOLS = [
  'ledger_account_transactions',
  'reports_profit_and_loss',
  'reports_balance_sheet',
  'accounts_list',
  'banking_transactions',
  'banking_accounts',
  'bills_list_to_pay',
  'bills_list_saved_filters',
  'documents_get',
  'documents_file',
  'reports_trial_balance',
  'reports_aged_receivables',
  'reports_aged_payables',
  'reports_cash_summary',
  'contacts_search',
  'sales_list_invoices',
];
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });

function problemOf(result: CallToolResult): Record<string, any> {
  assert.equal(result.isError, true, `expected an error result: ${JSON.stringify(result).slice(0, 300)}`);
  assert.equal(result.structuredContent, undefined);
  const first = result.content[0]!;
  assert.equal(first.type, 'text');
  return JSON.parse((first as { text: string }).text);
}

async function postMcp(url: string, token?: string, body: unknown = INITIALIZE, method = 'POST', extraHeaders: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      ...extraHeaders,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A POST with a Host header of our choosing, as a page whose name was rebound to 127.0.0.1 would send. */
async function postWithHost(url: string, host: string, token: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(INITIALIZE);
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          host,
          origin: `http://${host}`,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every text and number of the answer, at any depth. */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [String(value)];
}

/**
 * The text beside structuredContent renders the same answer compactly (the JSON is not sent twice):
 * every value is in it, each list of records is a table with one line per record, and it is about
 * the JSON's size or less (before, the result carried the JSON twice). The bytes of both are printed, per tool.
 */
function assertCompactText(name: string, text: string, structured: Record<string, unknown>): void {
  const json = JSON.stringify(structured);
  assert.notEqual(text.trim().startsWith('{') && text.trim().endsWith('}') ? JSON.stringify(JSON.parse(text)) : '', json, `${name}: the JSON again`);
  for (const leaf of leaves(structured))
    assert.ok(text.includes(leaf.replace(/\|/g, '\\|').replace(/\r?\n/g, '\\n')), `${name}: ${JSON.stringify(leaf)} is missing from the text`);
  // a report (periods, sections of groups of accounts, summary) is one statement: a line per account and per summary line
  if (Array.isArray(structured.sections) && Array.isArray(structured.periods)) {
    const rows = text.split('\n').filter((line) => line.startsWith('| '));
    const accounts = (structured.sections as { groups: { accounts: { name: string }[] }[] }[]).flatMap((s) => s.groups.flatMap((g) => g.accounts));
    for (const a of accounts)
      assert.ok(
        rows.some((r) => r.includes(`| ${a.name.replace(/\|/g, '\\|')} |`)),
        `${name}: a line for ${a.name}`,
      );
    for (const line of structured.summary as { label: string }[])
      assert.ok(
        rows.some((r) => r.includes(`| ${line.label} |`)),
        `${name}: a line for ${line.label}`,
      );
    assert.match(text, new RegExp(`Every amount is in ${String(structured.currency)}`), `${name}: the currency said once`);
  }
  for (const [key, value] of Object.entries(structured)) {
    if (['periods', 'sections', 'summary'].includes(key) && Array.isArray(structured.sections)) continue;
    if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') {
      const block = text.split(`${key} (${value.length}):\n`)[1];
      assert.ok(block, `${name}: no table of ${key}`);
      assert.ok(block.split('\n').filter((line) => line.startsWith('| ')).length >= value.length + 1, `${name}: ${key} has a line per record`);
    }
  }
  // records with nested lists (documents_get's lines) render them as tables of their own, naming their record
  assert.ok(Buffer.byteLength(text) <= Buffer.byteLength(json) * 1.2 + 64, `${name}: text ${Buffer.byteLength(text)} bytes, JSON ${Buffer.byteLength(json)}`);
  console.log(`# bytes ${name}: structuredContent ${Buffer.byteLength(json)}, text ${Buffer.byteLength(text)}`);
}

/** Calls every tool once (documents_file twice: an image and a PDF) and checks each figure. */
/** A resource URI with its organisation id replaced by ORG, to compare across organisations. */
const anyOrganisation = (uri: string) => uri.replace(/^ledgerline:\/\/organisations\/[^/]+\//, 'ledgerline://organisations/ORG/');

async function callEveryTool(client: Client, tools: Tool[], extra: Record<string, unknown> = {}) {
  const called = new Set<string>();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: { ...extra, ...args } })) as CallToolResult;
    assert.ok(!result.isError, `${name}: ${JSON.stringify(result.content).slice(0, 400)}`);
    const tool = tools.find((t) => t.name === name)!;
    const check = ajv.compile(tool.outputSchema!);
    assert.ok(check(result.structuredContent), `${name}: ${ajv.errorsText(check.errors)}`);
    assertSpecFields(name.replace('_', '.'), result.structuredContent);
    if (name !== 'documents_file') assertCompactText(name, (result.content[0] as { text: string }).text, result.structuredContent as Record<string, unknown>);
    called.add(name);
    return { structured: result.structuredContent as any, content: result.content };
  };

  const ledger = (await call('ledger_account_transactions', { account: 'Office', period: 'custom', from: '2026-08-01', to: '2026-11-30' })).structured;
  assert.equal(ledger.total, 111);
  assert.equal(ledger.count, 5);
  assert.deepEqual(ledger.account.subAccounts, ['Office:Software', 'Office:Stationery']);
  assert.deepEqual(
    ledger.transactions.map((t: any) => [t.date, t.type, t.amount]),
    [
      ['2026-11-03', 'cheque', 15],
      ['2026-10-05', 'supplier_credit', -20],
      ['2026-09-20', 'card_refund', -10],
      ['2026-09-02', 'card_charge', 30],
      ['2026-08-15', 'bill', 96],
    ],
  );
  assert.equal(ledger.transactions[4].amountInCurrency, 120);
  assert.equal(ledger.transactions[4].document.id, 'doc_acme');
  assert.deepEqual(
    [ledger.groups, ledger.reconciliation, ledger.transactions[0].document],
    [[], null, null],
    "fields that do not apply are null (groups, the spec's array, []), not left out",
  );
  // a page of the lines: the unpaged answer's lines 3 and 4, the totals of all five
  const second = (await call('ledger_account_transactions', { account: 'Office', period: 'custom', from: '2026-08-01', to: '2026-11-30', limit: 2, page: 2 }))
    .structured;
  assert.deepEqual(second.transactions, ledger.transactions.slice(2, 4));
  assert.deepEqual([second.page, second.pageSize, second.hasMore, second.total, second.count], [2, 2, true, 111, 5]);
  const grouped = (
    await call('ledger_account_transactions', {
      account: 'Office',
      period: 'custom',
      from: '2026-08-01',
      to: '2026-11-30',
      groupBy: 'supplier',
      detailForTop: 1,
    })
  ).structured;
  assert.equal(grouped.transactions, null);
  assert.deepEqual(
    grouped.groups.map((g: any) => [g.name, g.transactions === null ? null : g.transactions.length]),
    [
      ['Acme Software', 4],
      ['Paper Co', null],
    ],
  );

  const pl = (await call('reports_profit_and_loss')).structured;
  assert.deepEqual(pl.periods, [{ label: 'Nov 2026', from: '2026-11-01', to: '2026-11-30' }]);
  assert.deepEqual(Object.fromEntries(pl.summary.map((l: any) => [l.label, l.amounts])), {
    'Gross Profit': [1800],
    'Operating Profit': [1785],
    'Net Profit': [1788.25],
  });

  const bs = (await call('reports_balance_sheet', { asAt: '2026-11-21', comparePeriods: 1, compareBy: 'year' })).structured;
  assert.deepEqual(
    bs.periods.map((p: any) => p.to),
    ['2026-11-21', '2025-11-21'],
  );
  const totals = Object.fromEntries(bs.summary.map((l: any) => [l.label, l.amounts[0]]));
  assert.equal(totals['Total Assets'], 62032.65);
  assert.equal(totals['Total Liabilities'], 7886.9);
  assert.equal(totals['Total Liabilities and Equity'], 62032.65);

  const accounts = (await call('accounts_list', { search: 'office' })).structured;
  assert.equal(accounts.count, 3);
  assert.deepEqual(
    accounts.accounts.map((a: any) => a.fullName),
    ['Office', 'Office:Software', 'Office:Stationery'],
  );

  const bankAccounts = (await call('banking_accounts')).structured;
  assert.deepEqual(
    bankAccounts.accounts.map((a: any) => [a.id, a.balance, a.transactions, a.toReconcile, a.lastTransactionDate]),
    [['bac_mcp', 988.25, 4, 2, '2026-11-21']],
  );

  const bank = (await call('banking_transactions', { period: 'custom', from: '2026-11-01', to: '2026-11-30' })).structured;
  assert.equal(bank.pageSize, 25, "the tool's own default page: about 25 lines");
  assert.equal(
    (await call('banking_transactions', { period: 'custom', from: '2026-11-01', to: '2026-11-30', limit: 2 })).structured.pageSize,
    2,
    'a limit given is kept',
  );
  assert.deepEqual(bank.totals, { openingBalance: 1000, moneyIn: 5.25, moneyOut: 17, closingBalance: 988.25, transactions: 3, toReconcile: 2, reconciled: 1 });
  assert.deepEqual(
    bank.transactions.map((t: any) => [t.id, t.amount, t.runningBalance, t.reconciledIn]),
    [
      ['btx_4', -2, 988.25, null],
      ['btx_3', 5.25, 990.25, null],
      ['btx_2', -15, 985, 'outside_service'],
    ],
  );

  const bills = (await call('bills_list_to_pay')).structured;
  assert.equal(bills.count, 2);
  assert.equal(bills.total, 2096);
  assert.deepEqual(
    bills.bills.map((b: any) => [b.supplier, b.dueDate, b.currency, b.originalAmount, b.amountDue]),
    [
      ['Acme Software', '2026-09-14', 'USD', 120, 96],
      ['Landlord Ltd', '2026-11-30', 'GBP', null, 2000],
    ],
  );

  const filters = (await call('bills_list_saved_filters')).structured;
  assert.deepEqual(filters, {
    baseCurrency: 'GBP',
    filters: [{ id: 'bfl_overdue', name: 'Overdue', description: 'Bills past their due date', count: 1, total: 96 }],
  });

  const docs = (await call('documents_get', { ids: 'doc_acme,doc_nope' })).structured;
  assert.deepEqual(docs.notFound, ['doc_nope']);
  assert.deepEqual(
    docs.documents.map((d: any) => [d.id, d.currency, d.total, anyOrganisation(d.link), d.codedLines.map((l: any) => [l.account, l.total])]),
    [['doc_acme', 'USD', 120, 'ledgerline://organisations/ORG/documents/doc_acme/file', [['Office:Software', 120]]]],
    "the file's link is the resource this connection reads, not a REST URL its token cannot call",
  );

  const image = await call('documents_file', { id: 'doc_acme' });
  assert.deepEqual(image.structured, { id: 'doc_acme', fileName: 'acme.png', contentType: 'image/png', size: PNG.length, data: PNG.toString('base64') });
  assert.deepEqual(image.content[1], { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
  assert.doesNotMatch((image.content[0] as { text: string }).text, new RegExp(PNG.toString('base64').slice(0, 12)), 'the text leaves the base64 out');

  const pdf = await call('documents_file', { id: 'doc_pdf' });
  assert.equal(pdf.structured.size, PDF.length);
  const embedded = pdf.content[1] as any;
  assert.deepEqual(
    { ...embedded, resource: { ...embedded.resource, uri: anyOrganisation(embedded.resource.uri) } },
    {
      type: 'resource',
      resource: { uri: 'ledgerline://organisations/ORG/documents/doc_pdf/file', mimeType: 'application/pdf', blob: PDF.toString('base64') },
    },
  );
  assert.ok(Buffer.from((pdf.content[1] as any).resource.blob, 'base64').equals(PDF));

  // issue 15's reads on the same book
  const trial = (await call('reports_trial_balance')).structured;
  assert.deepEqual([trial.date, trial.totals, trial.balanced], ['2026-11-21', { debit: 65891.15, credit: 65891.15 }, true]);
  const payables = (await call('reports_aged_payables')).structured;
  // the books' payables (issue 41): the service's two bills to pay are two of the books' bills, which also owe L-26-02 and P-1, and CN-5 took 20.00 off Acme's
  assert.deepEqual(
    payables.contacts.map((c: any) => [c.contact, c.current, c.days61to90, c.total]),
    [
      ['Acme Software', 0, 76, 76],
      ['Landlord Ltd', 2000, 0, 4000],
      ['Paper Co', 0, 0, 1200],
    ],
  );
  assert.deepEqual([payables.totals.total, payables.ledgerBalance, payables.notes], [5276, 5276, []], 'the payables account, aged');
  const receivables = (await call('reports_aged_receivables')).structured;
  assert.deepEqual(
    receivables.contacts.map((c: any) => [c.contact, c.days1to30, c.total]),
    [['Big Client plc', 3600, 3600]],
  );
  assert.equal(receivables.ledgerBalance, 3600);
  const cash = (await call('reports_cash_summary', { from: '2026-11-01', to: '2026-11-21' })).structured;
  assert.deepEqual(
    cash.accounts.map((a: any) => [a.name, a.start, a.in, a.out, a.end]),
    [
      ['Company Card', -20, 0, 0, -20],
      ['Current Account', 58944.4, 5.25, 17, 58932.65],
    ],
  );
  const contacts = (await call('contacts_search', { search: 'paper' })).structured;
  assert.deepEqual(
    contacts.contacts.map((c: any) => [c.name, c.kind, c.spend, c.sales]),
    [['Paper Co', 'supplier', 1260.5, 0]],
  );
  const invoices = (await call('sales_list_invoices', { period: 'custom', from: '2025-01-01', to: '2026-11-21' })).structured;
  assert.equal(invoices.totals.amountDue, receivables.totals.total, 'what the invoices still owe is the aged receivables');

  assert.deepEqual([...called].sort(), [...TOOLS].sort(), 'every tool was called');
}

function assertToolDefinitions(tools: Tool[]) {
  assert.deepEqual(
    tools.map((t) => t.name),
    TOOLS,
  );
  for (const t of tools) {
    assert.ok(t.title && t.description && t.description.length > 80, t.name);
    assert.deepEqual(
      { ...t.annotations, title: undefined },
      { title: undefined, readOnlyHint: true, destructiveHint: false, openWorldHint: false, idempotentHint: true },
    );
    assert.equal(t.inputSchema.type, 'object');
    assert.equal(t.outputSchema?.type, 'object');
    assert.equal((t.inputSchema as any).additionalProperties, false, `${t.name}: unknown arguments are refused, so the schema says so`);
    for (const [name, p] of Object.entries<any>(t.inputSchema.properties ?? {})) assert.ok(p.description, `${t.name}.${name} has a description`);
    // every field the spec lists is declared and required; no field is ever left out of an answer
    assertSchemaRequiresSpecFields(t.name.replace('_', '.'), t.outputSchema!);
    assertEveryPropertyRequired(t.name, t.outputSchema!);
    // other operations are named by their tool names, the names the model sees
    assert.doesNotMatch(t.description!, /\b(ledger\.account_transactions|banking\.accounts|documents\.(get|file)|bills\.list_saved_filters)\b/, t.name);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.match(byName.get('accounts_list')!.description!, /ledger_account_transactions/);
  assert.deepEqual((byName.get('banking_transactions')!.inputSchema.properties as any).limit, {
    default: 25,
    description: 'Transactions per page, 1 to 500; default 100 (the MCP tool: 1 to 100, default 25, pages a model reads well).',
    type: 'integer',
    minimum: 1,
    maximum: 100,
  });
  const ledgerPage = (byName.get('ledger_account_transactions')!.inputSchema.properties as any).page;
  assert.deepEqual([ledgerPage.type, ledgerPage.minimum], ['integer', 1]);
  assert.match(ledgerPage.description, /^Page number, from 1/);
  assert.match(byName.get('ledger_account_transactions')!.description!, /hasMore/);
  assert.deepEqual(
    byName.get('documents_get')!.inputSchema.required?.filter((r) => r !== 'organisation'),
    ['ids'],
  );
}

for (const dialect of DIALECTS) {
  describe(`MCP endpoint [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let base: string;
    let mcp: string;
    let books: Awaited<ReturnType<typeof buildMcpBooks>>;
    let orgB: { id: string; name: string };
    let orgC: { id: string; name: string };
    let alice: { id: string; email: string };
    let ada: { id: string; email: string };
    let sam: { id: string; email: string };
    const clients: Client[] = [];

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildMcpBooks(store);
      orgB = await provisionOrganisation(store.db, { name: 'Second Org', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
      orgC = await provisionOrganisation(store.db, { name: 'Third Org', homeCurrency: 'USD', timeZone: 'UTC', fyStartMonth: 1 });
      const passwordHash = await hash(PASSWORD);
      alice = await createUser(store.db, { email: 'alice@example.test', name: 'Alice', passwordHash });
      for (const org of [books.org.id, orgB.id, orgC.id]) await setMembership(store.db, org, alice.id, 'admin');
      ada = books.users.admin;
      sam = books.users.submitter;
      await store.db.updateTable('users').set({ password_hash: passwordHash }).where('id', 'in', [ada.id, sam.id]).execute();
      server = await startServer(store, { today: TODAY });
      base = server.baseUrl;
      mcp = `${base}/mcp`;
    });
    after(async () => {
      for (const c of clients) await c.close();
      await server.close();
      await store.close();
    });

    it('answers 401 with the challenge that starts discovery, with CORS for browser clients', async () => {
      const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="service.read offline_access"`;
      const none = await postMcp(mcp, undefined, INITIALIZE, 'POST', { origin: 'http://localhost:6274' });
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), challenge);
      assert.equal(none.body.code, 'invalid_token');
      assert.equal(none.headers.get('access-control-allow-origin'), 'http://localhost:6274');
      assert.match(none.headers.get('access-control-expose-headers')!, /WWW-Authenticate/);
      assert.match(none.headers.get('access-control-expose-headers')!, /Mcp-Session-Id/);
      const bad = await postMcp(mcp, 'not-a-real-token');
      assert.equal(bad.status, 401);
      assert.equal(
        bad.headers.get('www-authenticate'),
        `Bearer error="invalid_token", error_description="the access token is invalid, expired or revoked", ` +
          `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="service.read offline_access"`,
      );
      const slash = await postMcp(`${mcp}/`);
      assert.equal(slash.status, 401);
      assert.equal(slash.headers.get('www-authenticate'), challenge);

      const preflight = await fetch(mcp, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:6274',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:6274');
      for (const h of ['Authorization', 'Content-Type', 'Mcp-Session-Id', 'Mcp-Protocol-Version'])
        assert.match(preflight.headers.get('access-control-allow-headers')!, new RegExp(h));
      assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);

      const metadata: any = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
      assert.equal(metadata.resource, mcp);
      assert.deepEqual(metadata.authorization_servers, [base]);
    });

    it('one organisation: from nothing but the /mcp URL to every tool (dynamic registration, PKCE, resource indicator)', async () => {
      const auth = new BrowserAuth(base, REDIRECT, { email: ada.email, password: PASSWORD });
      const { client } = await connectWithOAuth(mcp, auth);
      clients.push(client);
      const clientId = String(auth.client?.client_id);
      assert.match(clientId, /^dyn_/, 'registered itself');
      const row = await store.db.selectFrom('oauth_clients').select(['kind', 'name']).where('client_id', '=', clientId).executeTakeFirstOrThrow();
      assert.deepEqual(row, { kind: 'dynamic', name: 'Test Assistant' });
      const sent = auth.authorizationUrls[0]!;
      assert.equal(`${sent.origin}${sent.pathname}`, `${base}/oauth/authorize`);
      assert.equal(sent.searchParams.get('resource'), mcp);
      assert.equal(sent.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(sent.searchParams.get('scope'), 'service.read offline_access', 'the scope of the challenge, which names offline_access');
      assert.equal(sent.searchParams.get('client_id'), clientId);
      assert.ok(auth.savedTokens?.access_token);
      assert.ok(auth.savedTokens?.refresh_token, 'a refresh token: the assistant stays connected past the hour');

      assert.equal(client.getServerVersion()?.name, 'ledgerline');
      assert.match(client.getInstructions()!, /acts for Test Books Ltd/);
      assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: false });
      const { tools } = await client.listTools();
      assertToolDefinitions(tools);
      for (const t of tools) {
        assert.equal((t.inputSchema.properties as any)?.organisation, undefined, 'nothing to choose with one organisation');
        assert.match(t.description!, /Acts for Test Books Ltd\.$/);
      }
      await callEveryTool(client, tools);

      const unknown = problemOf((await client.callTool({ name: 'accounts_list', arguments: { serach: 'rent' } })) as CallToolResult);
      assert.deepEqual(unknown.errors, [{ parameter: 'serach', message: 'unknown parameter' }]);
      assert.equal(unknown.code, 'invalid_request');
      const missing = problemOf((await client.callTool({ name: 'documents_file', arguments: { id: 'doc_nope' } })) as CallToolResult);
      assert.deepEqual([missing.status, missing.code, missing.detail], [404, 'not_found', 'no document doc_nope in this organisation']);
      const other = problemOf((await client.callTool({ name: 'accounts_list', arguments: { organisation: orgB.id } })) as CallToolResult);
      assert.equal(other.code, 'organisation_not_approved');
      await assert.rejects(
        client.callTool({ name: 'no_such_tool', arguments: {} }),
        (e: any) => e.code === -32602 && e.message === 'MCP error -32602: Unknown tool: no_such_tool',
      );
    });

    it('several organisations: organisation is required and lists the ones the token can use; others are refused like the REST header', async () => {
      const auth = new BrowserAuth(base, REDIRECT, { email: alice.email, password: PASSWORD, organisations: [books.org.id, orgB.id] });
      const { client } = await connectWithOAuth(mcp, auth);
      clients.push(client);
      const { tools } = await client.listTools();
      assertToolDefinitions(tools);
      for (const t of tools) {
        const org = (t.inputSchema.properties as any).organisation;
        assert.deepEqual([...org.enum].sort(), [books.org.id, orgB.id].sort());
        assert.equal(org.type, 'string');
        assert.match(org.description, new RegExp(`${books.org.id} \\(Test Books Ltd\\)`));
        assert.match(org.description, new RegExp(`${orgB.id} \\(Second Org\\)`));
        assert.doesNotMatch(org.description, /Third Org/);
        assert.equal(t.inputSchema.required?.[0], 'organisation');
      }
      assert.match(client.getInstructions()!, /covers 2 organisations/);
      await callEveryTool(client, tools, { organisation: books.org.id });

      const second = (await client.callTool({ name: 'accounts_list', arguments: { organisation: orgB.id } })) as CallToolResult;
      assert.deepEqual(second.structuredContent, { count: 0, accounts: [] });
      const missing = problemOf((await client.callTool({ name: 'accounts_list', arguments: {} })) as CallToolResult);
      assert.deepEqual([missing.status, missing.code], [400, 'organisation_required']);
      const notApproved = problemOf((await client.callTool({ name: 'accounts_list', arguments: { organisation: orgC.id } })) as CallToolResult);
      assert.deepEqual([notApproved.status, notApproved.code], [403, 'organisation_not_approved']);
      const stranger = problemOf((await client.callTool({ name: 'accounts_list', arguments: { organisation: 'org_nobody' } })) as CallToolResult);
      assert.equal(stranger.code, 'organisation_not_approved');
      const notText = problemOf((await client.callTool({ name: 'accounts_list', arguments: { organisation: 7 } })) as CallToolResult);
      assert.deepEqual(notText.errors, [{ parameter: 'organisation', message: 'must be an organisation id or exact name (text)' }]);

      // the REST transport answers the same situations with the same problems
      const app = await registerApp(store.db, { name: 'REST twin', redirectUris: [REDIRECT] });
      const config = await discover(base, app.clientId);
      const { tokens } = await connect(base, { config, redirectUri: REDIRECT, email: alice.email, password: PASSWORD, organisations: [books.org.id, orgB.id] });
      assert.deepEqual((await api(base, '/v1/operations/accounts.list', tokens.access_token)).body, missing);
      assert.deepEqual((await api(base, '/v1/operations/accounts.list', tokens.access_token, { 'service-organisation': orgC.id })).body, notApproved);
    });

    it('role policy applies as on REST: a refused role is an isError result with the same problem', async () => {
      const auth = new BrowserAuth(base, REDIRECT, { email: sam.email, password: PASSWORD });
      const { client } = await connectWithOAuth(mcp, auth);
      clients.push(client);
      const refused = problemOf((await client.callTool({ name: 'ledger_account_transactions', arguments: { account: 'Office' } })) as CallToolResult);
      assert.deepEqual([refused.status, refused.code], [403, 'role_not_allowed']);
      const pl = (await client.callTool({ name: 'reports_profit_and_loss', arguments: {} })) as CallToolResult;
      assert.deepEqual((pl.structuredContent as any).summary.at(-1), { label: 'Net Profit', amounts: [1788.25] });

      const app = await registerApp(store.db, { name: 'REST twin for Sam', redirectUris: [REDIRECT] });
      const { tokens } = await connect(base, { config: await discover(base, app.clientId), redirectUri: REDIRECT, email: sam.email, password: PASSWORD });
      const rest = await api(base, '/v1/operations/ledger.account_transactions?account=Office', tokens.access_token);
      assert.equal(rest.status, 403);
      assert.deepEqual(rest.body, refused);
    });

    it('an expired access token is renewed with the refresh token, without signing in again (30 rolling days)', async () => {
      const auth = new BrowserAuth(base, REDIRECT, { email: ada.email, password: PASSWORD });
      const { client } = await connectWithOAuth(mcp, auth);
      clients.push(client);
      const first = auth.savedTokens!;
      // the hour has passed: the server no longer takes this access token
      auth.savedTokens = { ...first, access_token: 'an-access-token-past-its-hour' };
      auth.interactive = false;
      const answer = (await client.callTool({ name: 'bills_list_saved_filters', arguments: {} })) as CallToolResult;
      assert.ok(!answer.isError);
      assert.equal(auth.authorizationUrls.length, 1, 'no new sign-in');
      assert.ok(auth.savedTokens?.refresh_token && auth.savedTokens.refresh_token !== first.refresh_token, 'the refresh token rotated');
    });

    it('revoking the consent makes the next call 401, and the client is sent back to sign in', async () => {
      const auth = new BrowserAuth(base, REDIRECT, { email: ada.email, password: PASSWORD });
      const { client } = await connectWithOAuth(mcp, auth);
      clients.push(client);
      assert.ok(!((await client.callTool({ name: 'bills_list_saved_filters', arguments: {} })) as CallToolResult).isError);
      const consent = await store.db
        .selectFrom('oauth_consents')
        .select('grant_id')
        .where('client_id', '=', String(auth.client!.client_id))
        .executeTakeFirstOrThrow();
      assert.equal(await revokeConsent(store.db, consent.grant_id), true);
      const raw = await postMcp(mcp, auth.savedTokens!.access_token);
      assert.equal(raw.status, 401);
      assert.match(raw.headers.get('www-authenticate')!, /^Bearer error="invalid_token", .*resource_metadata="/);
      auth.interactive = false;
      await assert.rejects(client.callTool({ name: 'bills_list_saved_filters', arguments: {} }), (e: Error) => e instanceof UnauthorizedError);
      assert.equal(auth.authorizationUrls.length, 2, 'the client starts a new sign-in');
    });

    it('a REST token is refused at /mcp; an MCP token issued for the resource with a trailing slash is accepted', async () => {
      const app = await registerApp(store.db, { name: 'Audience check', redirectUris: [REDIRECT] });
      const config = await discover(base, app.clientId);
      const rest = await connect(base, { config, redirectUri: REDIRECT, email: ada.email, password: PASSWORD });
      const refused = await postMcp(mcp, rest.tokens.access_token);
      assert.equal(refused.status, 401);
      assert.match(
        refused.headers.get('www-authenticate')!,
        /^Bearer error="invalid_token", error_description="the access token was issued for another resource; request one for http:\/\/127\.0\.0\.1:\d+\/mcp"/,
      );

      const slash = await connect(base, { config, redirectUri: REDIRECT, email: ada.email, password: PASSWORD, resource: `${mcp}/` });
      for (const url of [mcp, `${mcp}/`]) {
        const { client } = await connectWithToken(url, slash.tokens.access_token);
        clients.push(client);
        assert.equal((await client.listTools()).tools.length, TOOLS.length);
        const filters = (await client.callTool({ name: 'bills_list_saved_filters', arguments: {} })) as CallToolResult;
        assert.equal((filters.structuredContent as any).filters[0].total, 96);
      }
      assert.equal((await api(base, '/v1/organisations', slash.tokens.access_token)).status, 401, 'and the MCP token is not a REST token');
    });

    it(
      "an organisation's own client (client credentials for the MCP resource) needs no organisation; a token without service.read gets 403 " +
        'insufficient_scope',
      async () => {
        const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Inspector' });
        const token = await clientCredentialsToken(base, own.clientId, own.clientSecret, mcp);
        const { client } = await connectWithToken(mcp, token);
        clients.push(client);
        const { tools } = await client.listTools();
        assert.equal((tools[0]!.inputSchema.properties as any).organisation, undefined);
        const accounts = (await client.callTool({ name: 'accounts_list', arguments: { search: 'rent' } })) as CallToolResult;
        assert.deepEqual(
          (accounts.structuredContent as any).accounts.map((a: any) => a.fullName),
          ['Rent'],
          'a word start: "rent" is not in Current Account',
        );
        const other = problemOf((await client.callTool({ name: 'accounts_list', arguments: { organisation: orgB.id } })) as CallToolResult);
        assert.equal(other.code, 'organisation_not_allowed');

        const writer = await createApiClient(store.db, { organisationId: books.org.id, name: 'Writer only', scopes: ['service.write'] });
        const writeToken = await clientCredentialsToken(base, writer.clientId, writer.clientSecret, mcp, 'service.write');
        const forbidden = await postMcp(mcp, writeToken);
        assert.equal(forbidden.status, 403);
        assert.equal(forbidden.body.code, 'insufficient_scope');
        assert.equal(
          forbidden.headers.get('www-authenticate'),
          `Bearer error="insufficient_scope", error_description="this call needs the service.read scope", ` +
            `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="service.read offline_access"`,
        );
      },
    );

    it('is stateless: GET (no server stream) and DELETE (no session) answer 405 once authenticated; loopback host names only on loopback', async () => {
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Stateless' });
      const token = await clientCredentialsToken(base, own.clientId, own.clientSecret, mcp);
      const init = await postMcp(mcp, token);
      assert.equal(init.status, 200);
      assert.equal(init.headers.get('mcp-session-id'), null);
      assert.equal(init.body.result.serverInfo.name, 'ledgerline');
      // on a loopback address only loopback host names are answered (DNS rebinding)
      const rebound = await postWithHost(mcp, 'evil.example.com', token);
      assert.deepEqual([rebound.status, rebound.body.code], [403, 'invalid_host']);
      assert.equal((await postWithHost(mcp, `localhost:${new URL(base).port}`, token)).status, 200);
      for (const method of ['GET', 'DELETE']) {
        const r = await postMcp(mcp, token, undefined, method);
        assert.equal(r.status, 405, method);
        assert.equal(r.headers.get('allow'), 'POST, OPTIONS');
        assert.equal((await postMcp(mcp, undefined, undefined, method)).status, 401);
      }
    });
  });

  describe(`MCP with a Client ID Metadata Document client [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let documentServer: ReturnType<typeof createServer>;
    let clientIdUrl: string;
    let fetched = 0;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .where('id', '=', books.users.admin.id)
        .execute();
      documentServer = createServer((request, response) => {
        fetched++;
        if (request.url !== '/client.json') return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
        response.end(
          JSON.stringify({
            client_id: clientIdUrl,
            client_name: 'Loopback Assistant',
            redirect_uris: [REDIRECT],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          }),
        );
      });
      await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', () => resolve()));
      // a client id must be an https URL (oidc-provider and the SDK both insist); this fetch stands in for
      // TLS and for the SSRF guard that keeps the real one off loopback, and serves the document over plain http
      clientIdUrl = `https://127.0.0.1:${(documentServer.address() as { port: number }).port}/client.json`;
      const viaLoopback: typeof fetch = (url, init) =>
        fetch(String(url).replace(/^https:/, 'http:'), {
          method: init?.method ?? 'GET',
          headers: init?.headers ?? {},
          redirect: init?.redirect ?? 'manual',
          signal: init?.signal ?? null,
        });
      server = await startServer(store, { today: TODAY, metadataDocumentFetch: viaLoopback });
    });
    after(async () => {
      await server.close();
      documentServer.close();
      await store.close();
    });

    it('the client id is its metadata document URL: no registration, then sign-in, consent and tools', async () => {
      const metadata: any = await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json();
      assert.equal(metadata.client_id_metadata_document_supported, true);
      const auth = new BrowserAuth(server.baseUrl, REDIRECT, { email: books.users.admin.email, password: PASSWORD }, clientIdUrl);
      const { client } = await connectWithOAuth(`${server.baseUrl}/mcp`, auth);
      try {
        assert.equal(auth.client?.client_id, clientIdUrl);
        assert.equal(auth.authorizationUrls[0]!.searchParams.get('client_id'), clientIdUrl);
        assert.ok(fetched >= 1, 'the server fetched the document');
        const rows = await store.db.selectFrom('oauth_clients').select(['client_id', 'kind', 'name']).execute();
        assert.deepEqual(rows, [{ client_id: clientIdUrl, kind: 'metadata_document', name: 'Loopback Assistant' }]);
        const pl = (await client.callTool({ name: 'reports_profit_and_loss', arguments: { period: 'this_month' } })) as CallToolResult;
        assert.deepEqual((pl.structuredContent as any).summary.at(-1), { label: 'Net Profit', amounts: [1788.25] });
      } finally {
        await client.close();
      }
    });
  });

  describe(`MCP rate limits [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      server = await startServer(store, { today: TODAY, rateLimits: defaultRateLimits({ perToken: 2, perOrganisation: 3 }) });
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    it('every tool call counts like a REST call, per token and per organisation; past a limit, rate_limited with Retry-After', async () => {
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Busy' });
      const mcp = `${server.baseUrl}/mcp`;
      const token = await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcp);
      const { client, responses } = await connectWithToken(mcp, token);
      try {
        await client.listTools();
        await client.listTools();
        const call = async () => (await client.callTool({ name: 'accounts_list', arguments: { search: '6100' } })) as CallToolResult;
        const first = await call();
        assert.equal((first.structuredContent as any).count, 1);
        assert.equal(responses.at(-1)!.headers.get('ratelimit'), '"per-token";r=1;t=60, "per-organisation";r=2;t=60');
        assert.equal(responses.at(-1)!.headers.get('ratelimit-policy'), '"per-token";q=2;w=60, "per-organisation";q=3;w=60');
        assert.ok(!(await call()).isError);
        const refused = problemOf(await call());
        assert.deepEqual([refused.status, refused.code], [429, 'rate_limited']);
        assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= 60);
        assert.equal(responses.at(-1)!.headers.get('retry-after'), String(refused.retryAfter));
        // the organisation's budget is shared with REST: the two MCP calls made spent two of its three
        // (the one refused per token spent none)
        const restToken = await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, `${server.baseUrl}/v1`);
        assert.equal((await api(server.baseUrl, '/v1/operations/accounts.list', restToken)).status, 200);
        const rest = await api(server.baseUrl, '/v1/operations/accounts.list', restToken);
        assert.equal(rest.status, 429);
        assert.match(rest.body.detail, /per-organisation/);
      } finally {
        await client.close();
      }
    });
  });
}
