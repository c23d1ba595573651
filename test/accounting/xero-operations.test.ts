/**
 * Issue 16's promise for a Xero organisation: every read operation of the service answers from
 * Xero's data, over REST with the organisation's own API client's token and over MCP with the
 * official SDK client, against the contract-checked fake (helpers/fake-xero.ts). The fake's book is
 * the default one plus what documents and banking need: a VAT account, a bill with taxed line items
 * and a PDF attached, a supplier credit note, and bank transactions Xero has reconciled. Each answer
 * is checked against the fake's own figures (its journals, its reports, its documents' bytes).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { createApiClient } from '../../src/auth/clients.js';
import { importStatement } from '../../src/import/importer.js';
import { billsCreateSavedFilter } from '../../src/operations/bills-saved-filter-changes.js';
import { findOperation, OPERATIONS } from '../../src/operations/index.js';
import { effectOf } from '../../src/operations/operation.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { call } from '../helpers/call.js';
import { reportRow, startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { defaultFakeBook, fakeId, journalsOf, movements, type FakeBook } from '../helpers/fake-xero-book.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

// many calls a minute to one fake tenant: the published budget is call-budget.test.ts's subject
useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const pence = (major: number) => Math.round(major * 100);
/** a small PDF with bytes outside ASCII, so a text round trip would show */
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%'),
  Buffer.from([0xe2, 0xe3, 0xcf, 0xd3]),
  Buffer.from('\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
]);
const BILL = fakeId('bill PC-7802');
const CREDIT = fakeId('credit PC-CN-12');

/** The default book with a VAT account, a taxed bill with its PDF, a supplier credit note and reconciled bank lines. */
function documentsBook(): FakeBook {
  const book = defaultFakeBook();
  book.accounts.push({ id: fakeId('account 820'), code: '820', name: 'VAT', type: 'CURRLIAB', status: 'ACTIVE', systemAccount: 'GST' });
  const paperCo = book.contacts.find((c) => c.name === 'Paper Co')!.id;
  book.invoices.push({
    id: BILL,
    type: 'ACCPAY',
    number: 'PC-7802',
    contactId: paperCo,
    date: '2026-06-05',
    dueDate: '2026-07-05',
    lines: [
      { description: 'Coffee bags', accountCode: '310', amount: 25_000, tax: 5_000, quantity: 500, unitPrice: 50 },
      { description: 'Labels', accountCode: '461', amount: 4_000, tax: 800, quantity: 2, unitPrice: 2_000 },
    ],
    payments: [],
    updated: '2026-06-05T12:00:00Z',
    attachments: [{ id: fakeId('attachment PC-7802'), fileName: 'PC-7802.pdf', mimeType: 'application/pdf', bytes: PDF }],
  });
  book.creditNotes = [
    {
      id: CREDIT,
      number: 'PC-CN-12',
      contactId: paperCo,
      date: '2026-06-10',
      lines: [{ description: 'Toner returned', accountCode: '461', amount: 6_000, tax: 1_200 }],
      updated: '2026-06-10T12:00:00Z',
    },
  ];
  // a scan over documents.file's 10 MB, attached to an older bill
  const big = book.invoices.find((i) => i.number === 'BI-2025-77')!;
  big.attachments = [{ id: fakeId('attachment BI-2025-77'), fileName: 'scan.tiff', mimeType: 'image/tiff', bytes: Buffer.alloc(10 * 1024 * 1024 + 1, 0x49) }];
  for (const bt of book.bankTransactions) bt.reconciled = bt.bankCode === '090';
  // the part payment of BI-2026-14 (2026-05-01, 300.00 from the bank account)
  for (const inv of book.invoices) for (const p of inv.payments) p.reconciled = true;
  return book;
}

let xero: FakeXero;
before(async () => {
  xero = await startFakeXero({ limits: false, today: TODAY, book: documentsBook() });
});
after(async () => {
  await xero?.close();
});

const accountId = (code: string) => xero.book.accounts.find((a) => a.code === code)!.id;
/** an account's balance from the fake's journals: debit positive, so money held positive and a card's debt negative */
const journalBalance = (code: string) => movements(journalsOf(xero.book), undefined, '9999-12-31').get(accountId(code)) ?? 0;

async function xeroOrganisation(store: Store, name: string): Promise<string> {
  const row = await provisionOrganisation(store.db, { name, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'xero' });
  const config = { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl };
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

const orgs = {} as { xero: string; imported: string };

describeEachDialect(
  'a Xero organisation answers every read operation from Xero, over REST and MCP',
  (store) => {
    let server: Awaited<ReturnType<typeof startServer>>;
    /** each organisation's own API client: a REST token, and an MCP connection with its own token */
    const clients = new Map<string, { token: string; mcp: Connected }>();
    const called = new Set<string>();

    before(async () => {
      server = await startServer(store(), { today: TODAY });
      for (const organisationId of [orgs.xero, orgs.imported]) {
        const token = await clientToken(store(), server.baseUrl, organisationId, ['service.read']);
        const own = await createApiClient(store().db, { organisationId, name: 'assistant' });
        const endpoint = `${server.baseUrl}/mcp`;
        clients.set(organisationId, {
          token,
          mcp: await connectWithToken(endpoint, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, endpoint)),
        });
      }
    });
    after(async () => {
      for (const c of clients.values()) await c.mcp.client.close();
      await server?.close();
    });
    const token = () => clients.get(orgs.xero)!.token;
    const mcp = () => clients.get(orgs.xero)!.mcp;

    const query = (args: Record<string, unknown>) => {
      const q = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, String(v)])).toString();
      return q ? `?${q}` : '';
    };
    /** The operation over REST: status and parsed body. */
    const restCall = async (name: string, args: Record<string, unknown> = {}, organisationId = orgs.xero) => {
      const r = await fetch(`${server.baseUrl}/v1/operations/${name}${query(args)}`, {
        headers: { authorization: `Bearer ${clients.get(organisationId)!.token}` },
      });
      return { status: r.status, body: (await r.json()) as any };
    };
    /** The operation over REST (200) and as its MCP tool (not an error): both answers. */
    const both = async (name: string, args: Record<string, unknown> = {}, organisationId = orgs.xero): Promise<[any, any, CallToolResult]> => {
      called.add(name);
      const rest = await restCall(name, args, organisationId);
      assert.equal(rest.status, 200, `${name} over REST: ${JSON.stringify(rest.body)}`);
      const tool = findOperation(name)!.tool!;
      const result = (await clients.get(organisationId)!.mcp.client.callTool({ name: tool, arguments: args })) as CallToolResult;
      assert.notEqual(result.isError, true, `${tool} over MCP: ${JSON.stringify(result.content)}`);
      return [rest.body, result.structuredContent, result];
    };
    /** The two answers, REST's and MCP's, to check alike. */
    const each = async (name: string, args: Record<string, unknown> = {}, organisationId = orgs.xero) => (await both(name, args, organisationId)).slice(0, 2);

    it('organisations (REST only: the spec gives it no MCP tool): the one the client belongs to', async () => {
      called.add('organisations');
      const r = await fetch(`${server.baseUrl}/v1/organisations`, { headers: { authorization: `Bearer ${token()}` } });
      assert.deepEqual(
        ((await r.json()) as any).organisations.map((o: any) => o.id),
        [orgs.xero],
      );
    });

    it("accounts.list: Xero's chart, the VAT account among it, the archived account left out", async () => {
      for (const answer of await each('accounts.list')) {
        const active = xero.book.accounts.filter((a) => a.status === 'ACTIVE');
        assert.deepEqual(answer.accounts.map((a: any) => a.number).sort(), active.map((a) => a.code).sort());
        assert.deepEqual(
          answer.accounts.filter((a: any) => a.number === '820').map((a: any) => [a.id, a.name, a.type]),
          [[accountId('820'), 'VAT', 'Other Current Liability']],
        );
      }
    });

    it("ledger.account_transactions: the bill's lines, each leading to the bill as a Xero document", async () => {
      const [rest, tool] = await both('ledger.account_transactions', { account: '310', period: 'custom', from: '2026-06-01', to: '2026-06-30' });
      for (const answer of [rest, tool]) {
        assert.deepEqual(
          answer.transactions.map((t: any) => [t.date, t.type, t.amount, t.supplier, t.number, t.document?.id, t.document?.total]),
          [['2026-06-05', 'bill', 250, 'Paper Co', 'PC-7802', `xero:${BILL}`, 348]],
        );
      }
      assert.equal(rest.transactions[0].link, `${server.baseUrl}/v1/operations/documents.get?ids=${encodeURIComponent(`xero:${BILL}`)}`);
      assert.match(
        tool.transactions[0].link,
        /^ledgerline:\/\/organisations\/.+\/documents\/xero%3A/,
        'over MCP the link is a resource the connection can read',
      );
      for (const answer of await each('ledger.account_transactions', { account: '461', period: 'custom', from: '2026-06-01', to: '2026-06-30' })) {
        assert.deepEqual(
          answer.transactions.map((t: any) => [t.date, t.type, t.amount, t.number, t.document?.id, t.document?.type]),
          [
            ['2026-06-10', 'supplier_credit', -60, 'PC-CN-12', `xero:${CREDIT}`, 'supplier_credit'],
            ['2026-06-05', 'bill', 40, 'PC-7802', `xero:${BILL}`, 'bill'],
          ],
        );
      }
    });

    it('ledger.account_transactions pages over REST and MCP (page): the lines of the unpaged answer, the totals of all on every page', async () => {
      const args = { account: '461', period: 'custom', from: '2026-06-01', to: '2026-06-30' };
      const [whole] = await each('ledger.account_transactions', args);
      const key = (t: any) => [t.date, t.type, t.amount, t.accountingSystemId];
      for (const page of [1, 2, 3]) {
        for (const answer of await each('ledger.account_transactions', { ...args, limit: 1, page })) {
          assert.deepEqual([answer.page, answer.pageSize, answer.hasMore, answer.count, answer.total], [page, 1, page < 2, 2, whole.total], `page ${page}`);
          assert.deepEqual(answer.transactions.map(key), whole.transactions.slice(page - 1, page).map(key), `page ${page}`);
        }
      }
    });

    it("reports.profit_and_loss: Net Profit and Total Cost of Sales equal the fake Xero report's", async () => {
      const x = await xero.get('/Reports/ProfitAndLoss?fromDate=2026-01-01&toDate=2026-06-30');
      for (const answer of await each('reports.profit_and_loss', { period: 'custom', from: '2026-01-01', to: '2026-06-30' })) {
        assert.deepEqual(answer.summary.find((l: any) => l.label === 'Net Profit').amounts.map(pence), reportRow(x, 'Net Profit'));
        assert.deepEqual(answer.sections.find((s: any) => s.title === 'Cost of Sales').total.map(pence), reportRow(x, 'Total Cost of Sales'));
      }
    });

    it("reports.balance_sheet: Total Assets and Total Liabilities equal the fake Xero report's", async () => {
      const x = await xero.get('/Reports/BalanceSheet?date=2026-06-30');
      for (const answer of await each('reports.balance_sheet', { asAt: '2026-06-30' })) {
        assert.deepEqual(answer.summary.find((l: any) => l.label === 'Total Assets').amounts.map(pence), reportRow(x, 'Total Assets'));
        assert.deepEqual(answer.summary.find((l: any) => l.label === 'Total Liabilities').amounts.map(pence), reportRow(x, 'Total Liabilities'));
      }
    });

    it("banking.accounts: Xero's bank account and credit card, with their balances in the journals", async () => {
      const expected = [
        [`xero:${accountId('090')}`, 'Business Bank Account', '090', 'bank', 'GBP', journalBalance('090')],
        [`xero:${accountId('091')}`, 'Company Card', '091', 'credit_card', 'GBP', journalBalance('091')],
      ];
      assert.ok(journalBalance('090') > 0 && journalBalance('091') < 0, 'money held positive, the card owed negative');
      for (const answer of await each('banking.accounts')) {
        assert.deepEqual(
          answer.accounts.map((a: any) => [a.id, a.name, a.number, a.type, a.currency, pence(a.balance)]),
          expected,
        );
      }
    });

    it('banking.transactions: a Xero account nothing is imported into is account_not_found saying what it is and where its lines are', async () => {
      const id = `xero:${accountId('091')}`;
      const refused = await restCall('banking.transactions', { account: id });
      assert.deepEqual([refused.status, refused.body.code], [404, 'account_not_found']);
      assert.match(refused.body.detail, /"Company Card" in the connected books \(xero\).*no statement has been imported into it.*ledger\.account_transactions/);
      const asTool = (await mcp().client.callTool({ name: 'banking_transactions', arguments: { account: id } })) as CallToolResult;
      assert.equal(asTool.isError, true);
      const unknown = await restCall('banking.transactions', { account: 'xero:no-such-account' });
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'account_not_found']);
      assert.doesNotMatch(unknown.body.detail, /connected books/);
    });

    it("bills.list_to_pay: Xero's open bills, the taxed one at its gross", async () => {
      for (const answer of await each('bills.list_to_pay')) {
        const bill = answer.bills.find((b: any) => b.invoiceNumber === 'PC-7802');
        assert.deepEqual([bill.supplier, bill.dueDate, bill.amountDue], ['Paper Co', '2026-07-05', 348]);
        assert.equal(pence(answer.total), 45_000 + 24_000 + 50_000 + 34_800);
      }
    });

    it("bills.list_saved_filters: a saved filter counts Xero's bills", async () => {
      for (const answer of await each('bills.list_saved_filters')) {
        assert.deepEqual(
          answer.filters.map((f: any) => [f.name, f.count, f.total]),
          [['Paper Co', 2, 588]],
        );
      }
    });

    it('documents.get: the bill with its taxed lines, the supplier credit note, and an unknown id not found', async () => {
      const ids = [`xero:${BILL}`, `xero:${CREDIT}`, `xero:${fakeId('nothing')}`].join(',');
      const [rest, tool, result] = await both('documents.get', { ids });
      for (const answer of [rest, tool]) {
        const [bill, credit] = answer.documents;
        assert.deepEqual(answer.notFound, [`xero:${fakeId('nothing')}`]);
        assert.deepEqual(
          [bill.id, bill.type, bill.number, bill.supplier, bill.date, bill.dueDate, bill.currency, bill.accountingId, bill.subtotal, bill.tax, bill.total],
          [`xero:${BILL}`, 'bill', 'PC-7802', 'Paper Co', '2026-06-05', '2026-07-05', 'GBP', BILL, 290, 58, 348],
        );
        assert.deepEqual(
          bill.codedLines.map((l: any) => [l.description, l.account, l.accountId, l.subtotal, l.tax, l.total]),
          [
            ['Coffee bags', 'Cost of Goods Sold', accountId('310'), 250, 0, 250],
            ['Labels', 'Printing & Stationery', accountId('461'), 40, 0, 40],
            ['Tax', 'VAT', accountId('820'), 0, 58, 58],
          ],
        );
        assert.deepEqual(
          bill.invoiceLines.map((l: any) => [l.description, l.quantity, l.unitPrice, l.tax, l.amount]),
          [
            ['Coffee bags', 500, 0.5, 50, 250],
            ['Labels', 2, 20, 8, 40],
          ],
        );
        assert.deepEqual(
          [credit.type, credit.number, credit.supplier, credit.date, credit.subtotal, credit.tax, credit.total, credit.link],
          ['supplier_credit', 'PC-CN-12', 'Paper Co', '2026-06-10', 60, 12, 72, null],
        );
      }
      assert.equal(rest.documents[0].link, `${server.baseUrl}/v1/operations/documents.file?id=${encodeURIComponent(`xero:${BILL}`)}`);
      const link = result.content.find((c: any) => c.type === 'resource_link') as any;
      assert.ok(link, 'over MCP the bill with a file comes with a link to it');
      const read = await mcp().client.readResource({ uri: link.uri });
      assert.deepEqual(Buffer.from((read.contents[0] as any).blob, 'base64'), PDF, 'the resource is the attachment');
    });

    it("documents.file: the bill's attachment in Xero, byte for byte; the credit note with none is not found", async () => {
      const [rest, tool] = await both('documents.file', { id: `xero:${BILL}` });
      for (const answer of [rest, tool]) {
        assert.deepEqual([answer.fileName, answer.contentType, answer.size], ['PC-7802.pdf', 'application/pdf', PDF.length]);
        assert.deepEqual(Buffer.from(answer.data, 'base64'), PDF);
      }
      const none = await restCall('documents.file', { id: `xero:${CREDIT}` });
      assert.deepEqual([none.status, none.body.code], [404, 'not_found']);
      const asTool = (await mcp().client.callTool({ name: 'documents_file', arguments: { id: `xero:${CREDIT}` } })) as CallToolResult;
      assert.equal(asTool.isError, true);
    });

    it("documents.file: an attachment over 10 MB is refused on Xero's recorded size, before its bytes are asked for", async () => {
      const id = fakeId('bill BI-2025-77');
      const before = xero.requests.length;
      const refused = await restCall('documents.file', { id: `xero:${id}` });
      assert.deepEqual([refused.status, refused.body.code], [413, 'file_too_large']);
      assert.match(refused.body.detail, /10485761 bytes/);
      const paths = xero.requests.slice(before).map((q) => q.path);
      assert.ok(paths.includes(`/Invoices/${id}/Attachments`));
      assert.ok(!paths.includes(`/Invoices/${id}/Attachments/${fakeId('attachment BI-2025-77')}`), 'the bytes were not read');
    });

    it("reports.trial_balance: balanced, the VAT account holding the bill's tax less the credit note's", async () => {
      for (const answer of await each('reports.trial_balance', { date: '2026-06-30' })) {
        assert.equal(answer.balanced, true);
        const vat = answer.accounts.find((a: any) => a.number === '820');
        assert.deepEqual([pence(vat.debit), pence(vat.credit)], [journalBalance('820'), 0]);
        assert.equal(journalBalance('820'), 5_800 - 1_200);
      }
    });

    it('reports.aged_receivables and reports.aged_payables: what customers owe, and the bills to pay', async () => {
      for (const answer of await each('reports.aged_receivables', { date: '2026-06-30' })) {
        assert.equal(pence(answer.totals.total), journalBalance('610'));
      }
      for (const answer of await each('reports.aged_payables', { date: '2026-06-30' })) {
        assert.equal(pence(answer.totals.total), 45_000 + 24_000 + 50_000 + 34_800);
        // the books' payable balance also has the credit note taken off (not yet applied to a bill)
        assert.equal(pence(answer.ledgerBalance), -journalBalance('800'));
        assert.equal(-journalBalance('800'), 45_000 + 24_000 + 50_000 + 34_800 - 7_200);
      }
    });

    it('reports.cash_summary: each account ends at its balance in the journals', async () => {
      for (const answer of await each('reports.cash_summary', { period: 'custom', from: '2025-01-01', to: '2026-06-30' })) {
        assert.deepEqual(answer.accounts.map((a: any) => [a.number, pence(a.end)]).sort(), [
          ['090', journalBalance('090')],
          ['091', journalBalance('091')],
        ]);
      }
    });

    it("contacts.search and sales.list_invoices: Xero's contacts and sales invoices", async () => {
      for (const answer of await each('contacts.search', { search: 'paper' })) {
        assert.deepEqual(
          answer.contacts.map((c: any) => c.name),
          ['Paper Co'],
        );
      }
      for (const answer of await each('sales.list_invoices', { period: 'custom', from: '2026-01-01', to: '2026-06-30' })) {
        assert.deepEqual(
          answer.invoices.map((i: any) => [i.number, i.total]),
          [['INV-0002', 2_600]],
        );
      }
    });

    it(
      'banking.accounts and banking.transactions after a statement is imported into the Xero bank account: linked, and the lines Xero reconciled come ' +
        'in reconciled',
      async () => {
        const organisation = (await getOrganisation(store().db, orgs.imported))!;
        const statement = [
          'Date,Description,Amount',
          '2025-12-15,ESPRESSO MACHINE,-1500.00',
          '2026-04-25,MARKET STALL,325.00',
          '2026-05-01,BEAN IMPORTERS,-300.00',
          '2026-06-02,BANK CHARGES,-12.50',
        ].join('\n');
        const report = await importStatement(store(), {
          organisation,
          account: { create: { name: 'Business Bank Account', type: 'bank', currency: 'GBP' } },
          fileName: 'statement.csv',
          bytes: Buffer.from(statement),
        });
        assert.equal(report.new, 4);
        for (const accounts of await each('banking.accounts', {}, orgs.imported)) {
          const listed = accounts.accounts.map((a: any) => [a.name, a.id.startsWith('xero:'), pence(a.balance)]);
          assert.deepEqual(
            listed,
            [
              ['Business Bank Account', false, -148_750],
              ['Company Card', true, journalBalance('091')],
            ],
            'the imported account stands for the Xero one, listed once',
          );
        }
        const args = { account: 'Business Bank Account', period: 'custom', from: '2025-12-01', to: '2026-06-30', order: 'oldest' };
        for (const lines of await each('banking.transactions', args, orgs.imported)) {
          assert.deepEqual(
            lines.transactions.map((t: any) => [t.date, t.amount, t.status, t.reconciledIn]),
            [
              ['2025-12-15', -1500, 'reconciled', 'accounting_system'],
              ['2026-04-25', 325, 'reconciled', 'accounting_system'],
              ['2026-05-01', -300, 'reconciled', 'accounting_system'],
              ['2026-06-02', -12.5, 'to_reconcile', null],
            ],
            'bank transactions and payments Xero reconciled come in reconciled; a line Xero has not is to reconcile',
          );
          assert.deepEqual([lines.totals.reconciled, lines.totals.toReconcile], [3, 1]);
        }
      },
    );

    it('that was every read operation, and the fake saw only what the contract allows', () => {
      assert.ok(
        xero.requests.some((q) => q.path === '/Payments' && q.status === 200),
        'read /Payments',
      );
      const reads = OPERATIONS.filter((op) => effectOf(op) === 'read').map((op) => op.name);
      assert.deepEqual([...called].sort(), [...reads].sort());
      assert.deepEqual(xero.violations, []);
      for (const path of ['/CreditNotes', `/Invoices/${BILL}/Attachments`, `/Invoices/${BILL}/Attachments/${fakeId('attachment PC-7802')}`]) {
        assert.ok(
          xero.requests.some((q) => q.path === path && q.status === 200),
          `read ${path}`,
        );
      }
    });
  },
  async (store) => {
    orgs.xero = await xeroOrganisation(store, 'Harbour Roasters');
    orgs.imported = await xeroOrganisation(store, 'Harbour Roasters (statements)');
    await call(store, billsCreateSavedFilter, orgs.xero, { name: 'Paper Co', criteria: { suppliers: ['Paper Co'] } }, { today: TODAY });
  },
);
