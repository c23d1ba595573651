/**
 * Issue 16's promise for QuickBooks Online: an organisation connected to a QuickBooks company
 * answers every read operation the service has from that company's data, over REST with an API
 * client's token and over MCP with the official SDK client, both from a real port against the
 * contract-checked fake (helpers/fake-quickbooks.ts, with the documents company of
 * helpers/fake-quickbooks-documents.ts: a bill with account and item lines, purchase tax and an
 * attached PDF). Each answer's figures are the fake's own: a bill's total its TotalAmt, a file's
 * bytes the attachment's, a bank balance its CurrentBalance, a report's totals the fake's report rows.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { createApiClient } from '../../src/auth/clients.js';
import { effectOf } from '../../src/operations/operation.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { reportRow, startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { BILL_PDF, DOCUMENTED_BILL, documentsFakeCompany } from '../helpers/fake-quickbooks-documents.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';

// many calls a minute to one fake company; the published call budget is call-budget.test.ts's
useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const cents = (major: number) => Math.round(major * 100);
const ORG = 'org_qbo_reads';
const BILL = `quickbooks:Bill:${DOCUMENTED_BILL}`;

let qb: FakeQuickBooks;
before(async () => {
  qb = await startFakeQuickBooks({ limits: false, company: documentsFakeCompany(), today: TODAY });
});
after(async () => {
  assert.deepEqual(qb.violations, [], 'every request and answer within Intuit’s contract');
  await qb?.close();
});

const entity = (name: string, id: string) => qb.company.entities[name as 'Bill'].find((e) => e.Id === id)!;
const account = (id: string) => entity('Account', id);

async function setup(store: Store): Promise<void> {
  await provisionOrganisation(store.db, {
    id: ORG,
    name: 'Maple Street Bakery',
    homeCurrency: 'USD',
    timeZone: 'America/Los_Angeles',
    fyStartMonth: 1,
    accountingSystem: 'quickbooks',
  });
  // mirrorMaxAgeMs 0: every call asks QuickBooks what changed (the test attaches a file midway)
  const config = { realmId: qb.realmId, accessToken: qb.token, baseUrl: qb.baseUrl, mirrorMaxAgeMs: 0 };
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify(config) })
    .where('id', '=', ORG)
    .execute();
}

describeEachDialect(
  'a QuickBooks organisation answers every read operation from QuickBooks, over REST and MCP',
  (store) => {
    let server: Awaited<ReturnType<typeof startServer>>;
    let token: string;
    let mcp: Connected;
    const called = new Set<string>();

    before(async () => {
      server = await startServer(store(), { today: TODAY });
      token = await clientToken(store(), server.baseUrl, ORG, ['service.read', 'service.write']);
      const own = await createApiClient(store().db, { organisationId: ORG, name: 'assistant' });
      const mcpUrl = `${server.baseUrl}/mcp`;
      mcp = await connectWithToken(mcpUrl, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, mcpUrl));
    });
    after(async () => {
      await mcp?.client.close();
      await server?.close();
    });

    /** The REST answer (status 200 expected unless told) */
    async function rest(name: string, args: Record<string, string | number | boolean> = {}, status = 200): Promise<any> {
      called.add(name);
      const query = new URLSearchParams(Object.entries(args).map(([k, v]): [string, string] => [k, String(v)]));
      const r = await sendJson(server.baseUrl, 'GET', `/v1/operations/${name}${Object.keys(args).length ? `?${query}` : ''}`, token);
      assert.equal(r.status, status, `${name} ${JSON.stringify(args)}: ${r.bytes.slice(0, 400)}`);
      return r.body;
    }
    /** The MCP tool's structured answer (or, when it is an error, the result itself) */
    async function tool(name: string, args: Record<string, unknown> = {}, error = false): Promise<any> {
      const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
      assert.equal(result.isError === true, error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content).slice(0, 400)}`);
      return error ? result : result.structuredContent;
    }
    /** Both dialects of the service answering the same question, REST first. */
    async function both(name: string, args: Record<string, string | number | boolean> = {}): Promise<[any, any]> {
      return [await rest(name, args), await tool(name.replace('.', '_'), args)];
    }

    it('organisations: the QuickBooks organisation', async () => {
      called.add('organisations');
      const r = await sendJson(server.baseUrl, 'GET', '/v1/organisations', token);
      assert.deepEqual(
        r.body.organisations.map((o: any) => [o.id, o.name]),
        [[ORG, 'Maple Street Bakery']],
      );
    });

    it("accounts.list: QuickBooks' chart, AcctNum as number, FullyQualifiedName as full name", async () => {
      for (const answer of await both('accounts.list', { includeInactive: true })) {
        const posting = qb.company.entities.Account.filter((a) => a.AccountType !== 'Non-Posting');
        assert.equal(answer.count, posting.length);
        assert.deepEqual(
          answer.accounts.find((a: any) => a.number === '6110'),
          {
            ...answer.accounts.find((a: any) => a.number === '6110'),
            id: '25',
            name: 'Telephone',
            fullName: 'Utilities:Telephone',
            type: 'Expense',
            parentId: '24',
          },
        );
      }
    });

    it("ledger.account_transactions: the bill's line on Office Supplies, with its QuickBooks document", async () => {
      const args = { account: 'Office Supplies', period: 'custom', from: '2026-01-01', to: '2026-06-30' };
      const [viaRest, viaMcp] = await both('ledger.account_transactions', args);
      for (const answer of [viaRest, viaMcp]) {
        assert.deepEqual(
          answer.transactions.map((t: any) => [t.date, t.type, t.number, t.supplier, t.amount]),
          [
            ['2026-05-20', 'bill', 'PS-5012', 'Paper Supply Co', 90],
            ['2026-03-15', 'expense', null, 'Paper Supply Co', 60],
            ['2026-02-20', 'card_refund', null, 'Paper Supply Co', -15],
          ],
        );
        const bill = answer.transactions[0];
        assert.equal(bill.document.id, BILL);
        assert.equal(cents(bill.document.total), cents(entity('Bill', DOCUMENTED_BILL).TotalAmt), "the document's total is QuickBooks' TotalAmt");
      }
      // the line's link: documents.get over REST, the document's resource over MCP
      assert.match(viaRest.transactions[0].link, /\/v1\/operations\/documents\.get\?ids=quickbooks%3ABill%3A149$/);
      assert.match(viaMcp.transactions[0].link, /^ledgerline:\/\/organisations\/.+\/documents\/quickbooks%3ABill%3A149$/);
    });

    it('ledger.account_transactions pages over REST and MCP (page): the lines of the unpaged answer, the totals of all on every page', async () => {
      const args = { account: 'Office Supplies', period: 'custom', from: '2026-01-01', to: '2026-06-30' };
      const [whole] = await both('ledger.account_transactions', args);
      const key = (t: any) => [t.date, t.type, t.amount, t.accountingSystemId];
      for (const page of [1, 2, 3, 4]) {
        for (const answer of await both('ledger.account_transactions', { ...args, limit: 1, page })) {
          assert.deepEqual(
            [answer.page, answer.pageSize, answer.hasMore, answer.count, answer.total],
            [page, 1, page < 3, whole.count, whole.total],
            `page ${page}`,
          );
          assert.deepEqual(answer.transactions.map(key), whole.transactions.slice(page - 1, page).map(key), `page ${page}`);
        }
      }
      for (const answer of await both('ledger.account_transactions', { ...args, groupBy: 'supplier', limit: 1, page: 2 })) {
        assert.deepEqual([answer.groups, answer.hasMore, answer.total], [[], false, whole.total], 'one supplier: page 2 of groups is past the end');
      }
    });

    it("reports.profit_and_loss: QuickBooks' ProfitAndLoss totals, the item lines included", async () => {
      const fake = await qb.get(`/reports/ProfitAndLoss?start_date=2026-01-01&end_date=${TODAY}&accounting_method=Accrual`);
      for (const pl of await both('reports.profit_and_loss', { period: 'custom', from: '2026-01-01', to: TODAY })) {
        const summary = (label: string) => pl.summary.find((l: any) => l.label === label).amounts.map(cents);
        assert.deepEqual(summary('Net Profit'), reportRow(fake, 'Net Income'));
        assert.deepEqual(summary('Gross Profit'), reportRow(fake, 'Gross Profit'));
        const cogs = pl.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts)).find((a: any) => a.name === 'Cost of Goods Sold');
        // 1,000.00 of flour and yeast, 150.00 credited back, 110.00 of rye flour (an item line)
        assert.deepEqual(cogs.amounts.map(cents), reportRow(fake, 'Total Cost of Goods Sold'));
        assert.equal(cogs.amounts[0], 960);
      }
    });

    it("reports.balance_sheet: QuickBooks' BalanceSheet totals, purchase tax on its agency's account", async () => {
      const fake = await qb.get(`/reports/BalanceSheet?start_date=${TODAY}&end_date=${TODAY}&accounting_method=Accrual`);
      for (const bs of await both('reports.balance_sheet', { asAt: TODAY })) {
        const summary = (label: string) => bs.summary.find((l: any) => l.label === label).amounts.map(cents);
        assert.deepEqual(summary('Total Assets'), reportRow(fake, 'TOTAL ASSETS'));
        assert.deepEqual(summary('Total Liabilities'), reportRow(fake, 'Total Liabilities'));
        const line = (name: string) => bs.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts)).find((a: any) => a.name === name);
        assert.deepEqual(line('Sales Tax Payable').amounts.map(cents), reportRow(fake, 'Sales Tax Payable'));
        assert.deepEqual(line('Sales Tax Payable').amounts.map(cents), [-1_856], '18.56 of purchase tax to reclaim');
        assert.deepEqual(line('Accounts Payable (A/P)').amounts.map(cents), reportRow(fake, 'Accounts Payable (A/P)'));
      }
    });

    it("banking.accounts: QuickBooks' bank and card accounts at their CurrentBalance, a card's owed balance negative", async () => {
      for (const answer of await both('banking.accounts')) {
        assert.deepEqual(
          answer.accounts.map((a: any) => [a.id, a.name, a.number, a.type, a.currency, a.transactions, cents(a.balance)]),
          [
            ['quickbooks:35', 'Checking', '1000', 'bank', 'USD', 0, cents(account('35').CurrentBalance)],
            ['quickbooks:36', 'Savings', '1010', 'bank', 'USD', 0, cents(account('36').CurrentBalance)],
            ['quickbooks:41', 'Visa Card', '2100', 'credit_card', 'USD', 0, -cents(account('41').CurrentBalance)],
          ],
        );
        assert.equal(cents(answer.accounts[1].balance), 500_000, 'the transfer to savings');
        assert.equal(cents(answer.accounts[2].balance), -3_000, '45.00 charged, 15.00 refunded: 30.00 owed on the card');
      }
    });

    it('banking.transactions: nothing imported yet; a QuickBooks account asked for by its id says where its lines are', async () => {
      for (const answer of await both('banking.transactions', { period: 'custom', from: '2026-01-01', to: TODAY })) {
        assert.deepEqual([answer.count, answer.totals.transactions, answer.totals.closingBalance], [0, 0, 0]);
      }
      const refused = await rest('banking.transactions', { account: 'quickbooks:35' }, 404);
      assert.equal(refused.code, 'account_not_found');
      assert.match(refused.detail, /"Checking" in the connected books \(quickbooks\); no statement has been imported into it.*ledger\.account_transactions/);
      const viaMcp = await tool('banking_transactions', { account: 'quickbooks:35' }, true);
      assert.match(JSON.stringify(viaMcp.content), /account_not_found/);
    });

    it("bills.list_to_pay: QuickBooks' bills with a Balance, at that balance", async () => {
      const owed = qb.company.entities.Bill.filter((b) => b.Balance > 0);
      for (const answer of await both('bills.list_to_pay')) {
        assert.deepEqual(
          answer.bills.map((b: any) => [b.supplier, b.invoiceNumber, cents(b.amountDue)]).sort(),
          owed.map((b) => [b.VendorRef.name, b.DocNumber, cents(b.Balance)]).sort(),
        );
        assert.equal(
          cents(answer.total),
          owed.reduce((s, b) => s + cents(b.Balance), 0),
        );
        assert.ok(
          answer.bills.some((b: any) => b.invoiceNumber === 'PS-5012' && b.amountDue === 250.56),
          'the new bill, tax included',
        );
      }
    });

    it("bills.list_saved_filters: a saved filter counts QuickBooks' bills", async () => {
      const created = await sendJson(server.baseUrl, 'POST', '/v1/operations/bills.create_saved_filter', token, {
        name: 'Flour Mill',
        criteria: { suppliers: ['Flour Mill Co'] },
      });
      assert.equal(created.status, 201, created.bytes);
      const flour = qb.company.entities.Bill.filter((b) => b.Balance > 0 && b.VendorRef.name === 'Flour Mill Co');
      for (const answer of await both('bills.list_saved_filters')) {
        assert.deepEqual(
          answer.filters.map((f: any) => [f.name, f.count, cents(f.total)]),
          [['Flour Mill', flour.length, flour.reduce((s, b) => s + cents(b.Balance), 0)]],
        );
      }
    });

    it('documents.get: a bill with its account, item and tax lines, a vendor credit, an unknown id', async () => {
      const bill = entity('Bill', DOCUMENTED_BILL);
      const ids = `${BILL},quickbooks:VendorCredit:152,quickbooks:Bill:999`;
      const [viaRest, viaMcp] = await both('documents.get', { ids });
      for (const answer of [viaRest, viaMcp]) {
        assert.deepEqual(answer.notFound, ['quickbooks:Bill:999']);
        const [doc, credit] = answer.documents;
        assert.deepEqual(
          { ...doc, link: undefined },
          {
            id: BILL,
            number: 'PS-5012',
            type: 'bill',
            supplier: 'Paper Supply Co',
            date: '2026-05-20',
            dueDate: '2026-06-19',
            currency: 'USD',
            accountingId: 'Bill:149',
            accountingLink: null,
            publishedAt: '2026-05-20',
            link: undefined,
            subtotal: 232,
            tax: 18.56,
            total: bill.TotalAmt,
            codedLines: [
              {
                id: '1',
                description: 'Bakery boxes',
                account: 'Office Supplies',
                accountId: '20',
                taxCodeId: null,
                class: null,
                customer: null,
                quantity: 1,
                subtotal: 90,
                tax: 0,
                total: 90,
              },
              {
                id: '2',
                description: 'Rye flour',
                account: 'Cost of Goods Sold',
                accountId: '60',
                taxCodeId: null,
                class: null,
                customer: null,
                quantity: 1,
                subtotal: 110,
                tax: 0,
                total: 110,
              },
              {
                id: '3',
                description: 'Jam jars',
                account: 'Inventory Asset',
                accountId: '81',
                taxCodeId: null,
                class: null,
                customer: null,
                quantity: 1,
                subtotal: 32,
                tax: 0,
                total: 32,
              },
              {
                id: 'tax-1',
                description: 'Purchase tax 8%',
                account: 'Sales Tax Payable',
                accountId: '89',
                taxCodeId: null,
                class: null,
                customer: null,
                quantity: 1,
                subtotal: 0,
                tax: 18.56,
                total: 18.56,
              },
            ],
            invoiceLines: [
              { id: '1', description: 'Bakery boxes', productCode: null, unit: null, quantity: 1, unitPrice: 90, tax: 0, amount: 90 },
              { id: '2', description: 'Rye flour', productCode: null, unit: null, quantity: 4, unitPrice: 27.5, tax: 0, amount: 110 },
              { id: '3', description: 'Jam jars', productCode: null, unit: null, quantity: 10, unitPrice: 3.2, tax: 0, amount: 32 },
            ],
          },
        );
        assert.equal(cents(doc.total), cents(bill.TotalAmt), "QuickBooks' TotalAmt");
        assert.deepEqual(
          [credit.id, credit.type, credit.number, credit.supplier, credit.total, credit.dueDate, credit.link],
          ['quickbooks:VendorCredit:152', 'supplier_credit', 'FM-CR-9', 'Flour Mill Co', 150, null, null],
        );
      }
      // the file's link: documents.file over REST, the file resource over MCP
      assert.equal(viaRest.documents[0].link, `${server.baseUrl}/v1/operations/documents.file?id=${encodeURIComponent(BILL)}`);
      assert.match(viaMcp.documents[0].link, /^ledgerline:\/\/organisations\/.+\/documents\/quickbooks%3ABill%3A149\/file$/);
      const read = await mcp.client.readResource({ uri: viaMcp.documents[0].link });
      assert.ok(Buffer.from((read.contents[0] as any).blob, 'base64').equals(BILL_PDF), 'the resource is the attached PDF');
    });

    it('documents.file: the PDF attached to the bill in QuickBooks, byte for byte; no file for a note or a spreadsheet', async () => {
      for (const file of await both('documents.file', { id: BILL })) {
        assert.deepEqual(
          { ...file, data: undefined },
          { id: BILL, fileName: 'PS-5012.pdf', contentType: 'application/pdf', size: BILL_PDF.length, data: undefined },
        );
        assert.ok(Buffer.from(file.data, 'base64').equals(BILL_PDF));
      }
      for (const id of ['quickbooks:VendorCredit:152', 'quickbooks:Bill:147']) {
        const refused = await rest('documents.file', { id }, 404);
        assert.equal(refused.code, 'not_found');
      }
      assert.ok(
        qb.requests.some((r) => r.path.startsWith('/attachments/') && r.status === 200),
        'fetched from the TempDownloadUri',
      );
      /** attaches a file to a bill in the fake QuickBooks, once (the two dialects share the fake) */
      const attach = (id: string, fileName: string, contentType: string, bytes: Buffer, billId: string) => {
        if (qb.company.files[id]) return;
        qb.company.files[id] = bytes;
        const now = new Date().toISOString();
        qb.company.entities.Attachable.push({
          Id: id,
          FileName: fileName,
          ContentType: contentType,
          Size: bytes.length,
          AttachableRef: [{ EntityRef: { value: billId, type: 'Bill' } }],
          MetaData: { CreateTime: now, LastUpdatedTime: now },
        });
      };
      // a scan over 10 MB attached to another bill: refused as the service's own files are
      attach('5000000000000109999', 'scan.pdf', 'application/pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(10 * 1024 * 1024)]), '146');
      const tooLarge = await rest('documents.file', { id: 'quickbooks:Bill:146' }, 413);
      assert.equal(tooLarge.code, 'file_too_large');
      // an image of a type documents.file does not hand out: said, not a fault
      attach('5000000000000109998', 'scan.bmp', 'image/bmp', Buffer.from('BM fake bitmap'), '147');
      const unsupported = await rest('documents.file', { id: 'quickbooks:Bill:147' }, 404);
      assert.match(unsupported.detail, /of a type documents\.file does not hand out \(image\/bmp\)/);
    });

    it("issue 15's reads: trial balance, aged payables and receivables, cash summary, contacts, sales invoices", async () => {
      for (const trial of await both('reports.trial_balance', { date: TODAY })) {
        assert.equal(trial.balanced, true);
        const checking = trial.accounts.find((a: any) => a.name === 'Checking');
        assert.equal(cents(checking.debit), cents(account('35').CurrentBalance));
      }
      const bills = qb.company.entities.Bill.filter((b) => b.Balance > 0);
      for (const aged of await both('reports.aged_payables', { date: TODAY })) {
        assert.equal(
          cents(aged.totals.total),
          bills.reduce((s, b) => s + cents(b.Balance), 0),
        );
      }
      const invoices = qb.company.entities.Invoice.filter((i) => i.Balance > 0);
      for (const aged of await both('reports.aged_receivables', { date: TODAY })) {
        assert.equal(
          cents(aged.totals.total),
          invoices.reduce((s, i) => s + cents(i.Balance), 0),
        );
      }
      for (const cash of await both('reports.cash_summary', { period: 'custom', from: '2026-01-01', to: TODAY })) {
        const checking = cash.accounts.find((a: any) => a.name === 'Checking');
        assert.equal(cents(checking.end), cents(account('35').CurrentBalance), JSON.stringify(checking));
      }
      for (const found of await both('contacts.search', { search: 'Paper Supply', period: 'custom', from: '2026-01-01', to: TODAY })) {
        const paper = found.contacts.find((c: any) => c.name === 'Paper Supply Co');
        assert.ok(paper, JSON.stringify(found));
        // tax excluded, on expense accounts: the bill's boxes (90.00) and rye flour (110.00; its jars are stock), the cash purchase (60.00), less the
        //  card refund (15.00)
        assert.equal(cents(paper.spend), 9_000 + 11_000 + 6_000 - 1_500);
      }
      for (const sales of await both('sales.list_invoices', { period: 'custom', from: '2025-01-01', to: TODAY })) {
        assert.deepEqual(
          sales.invoices.map((i: any) => [i.number, cents(i.total)]).sort(),
          qb.company.entities.Invoice.map((i) => [i.DocNumber, cents(i.TotalAmt)]).sort(),
        );
      }
    });

    it('that was every read operation the service has', () => {
      const reads = OPERATIONS.filter((op) => effectOf(op) === 'read').map((op) => op.name);
      assert.deepEqual([...called].sort(), reads.sort());
    });
  },
  setup,
);
