/**
 * documents.publish for a QuickBooks organisation over REST and MCP with real tokens, against the
 * contract-checked fake: a created bill published is a Bill in QuickBooks with its file attached,
 * its lines in ledger.account_transactions at once with their `document`, and QuickBooks' own
 * balance sheet totals equal Ledgerline's; the same publish sent twice under one Idempotency-Key
 * makes one bill; a closed period is 422 accounting_refused naming the date, nothing written; a
 * bank payment matched to the bill (banking.match) is a BillPayment in QuickBooks, the line
 * reconciled in the service and linked, the bill out of Bills to Pay; banking.unmatch (over MCP)
 * deletes it and every figure is restored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { createApiClient } from '../../src/auth/clients.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import { getOrganisation } from '../../src/store/organisations.js';
import type { Store } from '../../src/store/db.js';
import { BILL_PDF } from '../helpers/fake-quickbooks-documents.js';
import { startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const CHECKING = 'bac_qb_checking';

function paperBill(number: string, overrides: Record<string, unknown> = {}) {
  return {
    type: 'bill',
    number,
    supplier: 'Paper Supply Co',
    date: '2026-06-08',
    dueDate: '2026-07-08',
    currency: 'USD',
    subtotal: 84.25,
    tax: 0,
    total: 84.25,
    codedLines: [{ description: 'Cake boxes', account: 'Office Supplies', subtotal: 84.25, tax: 0, total: 84.25 }],
    file: { name: `${number}.pdf`, data: BILL_PDF.toString('base64') },
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe(`documents.publish for a QuickBooks organisation [${dialect}]`, () => {
    let store: Store;
    let qb: FakeQuickBooks;
    let server: Awaited<ReturnType<typeof startServer>>;
    let org: string;
    let writer: string;
    let mcp: Connected;

    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      sendJson(server.baseUrl, method, path, writer, body, headers);
    const create = async (body: unknown) => {
      const r = await send('POST', '/v1/operations/documents.create', body);
      assert.equal(r.status, 201, r.bytes);
      return r.body.document.id as string;
    };
    const officeSupplies = async () =>
      (await send('GET', '/v1/operations/ledger.account_transactions?account=Office%20Supplies&period=custom&from=2026-06-01&to=2026-06-30')).body;
    const bills = (number: string) => qb.company.entities.Bill.filter((b) => b.DocNumber === number);
    const attachedTo = (billId: string) =>
      qb.company.entities.Attachable.filter((a) => a.AttachableRef?.some((r: any) => r.EntityRef.type === 'Bill' && r.EntityRef.value === billId));
    const booksAgree = async () => {
      const theirs = await accountingSystemFor(store.db, (await getOrganisation(store.db, org))!).ownBalanceSheetTotals!(TODAY);
      const ours = (await send('GET', `/v1/operations/reports.balance_sheet?asAt=${TODAY}`)).body;
      assert.deepEqual(
        theirs.map(({ label }) => ({ label, amount: Math.round(ours.summary.find((l: any) => l.label === label).amounts[0] * 100) })),
        theirs,
        "Ledgerline's balance sheet totals equal QuickBooks' own report",
      );
    };

    before(async () => {
      store = await openTestStore(dialect);
      qb = await startFakeQuickBooks({ limits: false, today: TODAY });
      org = await vendorOrganisation(store, 'quickbooks', 'Maple Street Bakery', {
        realmId: qb.realmId,
        accessToken: qb.token,
        baseUrl: qb.baseUrl,
        mirrorMaxAgeMs: 3_600_000,
      });
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: CHECKING,
          organisation_id: org,
          name: 'Checking',
          number: '1000',
          type: 'bank',
          bank: 'Chase',
          currency: 'USD',
          is_default: 1,
          ledger_account_id: '35',
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, org, ['service.read', 'service.write']);
      const own = await createApiClient(store.db, { organisationId: org, name: 'Assistant', scopes: ['service.read', 'service.write'] });
      const url = `${server.baseUrl}/mcp`;
      mcp = await connectWithToken(url, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, url, 'service.read service.write'));
    });
    after(async () => {
      await mcp?.client.close();
      await server?.close();
      await qb?.close();
      await store?.close();
    });

    it('over REST: the bill is in QuickBooks with its file, and in the ledger at once with its document; published once', async () => {
      const id = await create(paperBill('PS-8101'));
      const published = await send('POST', '/v1/operations/documents.publish', { id }, { 'idempotency-key': 'publish-ps-8101' });
      assert.equal(published.status, 201, published.bytes);
      const doc = published.body.document;
      const [bill] = bills('PS-8101');
      assert.ok(bill, 'QuickBooks holds the bill');
      assert.equal(doc.accountingId, `Bill:${bill.Id}`);
      assert.equal(doc.accountingLink, `https://app.qbo.intuit.com/app/bill?txnId=${bill.Id}`);
      assert.equal(bill.TotalAmt, 84.25);
      assert.equal(attachedTo(bill.Id).length, 1, 'its file attached');
      assert.deepEqual(qb.company.files[attachedTo(bill.Id)[0]!.Id], BILL_PDF);

      const line = (await officeSupplies()).transactions.find((t: any) => t.accountingSystemId === doc.accountingId);
      assert.ok(line, 'the ledger shows it at once');
      assert.deepEqual([line.type, line.number, line.supplier, line.amount, line.document?.id], ['bill', 'PS-8101', 'Paper Supply Co', 84.25, id]);

      const again = await send('POST', '/v1/operations/documents.publish', { id }, { 'idempotency-key': 'publish-ps-8101' });
      assert.equal(again.status, 201, again.bytes);
      assert.deepEqual(again.body, published.body);
      assert.equal(bills('PS-8101').length, 1, 'one bill');
      await booksAgree();
      assert.deepEqual(qb.violations, []);
    });

    it('over MCP: documents_publish writes the bill; the ledger tool shows it with its document', async () => {
      const id = await create(
        paperBill('PS-8102', { subtotal: 40, total: 40, codedLines: [{ description: 'Labels', account: 'Office Supplies', subtotal: 40, tax: 0, total: 40 }] }),
      );
      const result: any = await mcp.client.callTool({ name: 'documents_publish', arguments: { id } });
      assert.equal(result.isError === true, false, JSON.stringify(result.content));
      const [bill] = bills('PS-8102');
      assert.equal(result.structuredContent.document.accountingId, `Bill:${bill!.Id}`);
      const ledger: any = await mcp.client.callTool({
        name: 'ledger_account_transactions',
        arguments: { account: 'Office Supplies', period: 'custom', from: '2026-06-01', to: '2026-06-30' },
      });
      const line = ledger.structuredContent.transactions.find((t: any) => t.accountingSystemId === `Bill:${bill!.Id}`);
      assert.deepEqual([line?.amount, line?.document?.id], [40, id]);
      await booksAgree();
    });

    it('a date in a closed period is 422 accounting_refused naming the date; nothing is written', async () => {
      qb.company.bookCloseDate = '2026-05-31';
      try {
        const id = await create(paperBill('PS-8103', { date: '2026-05-20' }));
        const refused = await send('POST', '/v1/operations/documents.publish', { id });
        assert.equal(refused.status, 422, refused.bytes);
        assert.equal(refused.body.code, 'accounting_refused');
        assert.deepEqual(
          refused.body.errors.map((e: any) => e.parameter),
          ['date'],
        );
        assert.equal(bills('PS-8103').length, 0);
        const after = await send('GET', `/v1/operations/documents.get?ids=${id}`);
        assert.equal(after.status, 200, after.bytes);
        assert.equal(after.body.documents[0].publishedAt, null, 'the document stays unpublished');
      } finally {
        qb.company.bookCloseDate = undefined;
      }
    });

    it(
      'a bank payment matched to the bill is a BillPayment in QuickBooks, the bill leaving Bills to Pay; unmatch (over MCP) restores every ' + 'figure',
      async () => {
        const id = await create(paperBill('PS-8104', { file: null }));
        const published = await send('POST', '/v1/operations/documents.publish', { id });
        assert.equal(published.status, 201, published.bytes);
        const [bill] = bills('PS-8104');
        const row = statementLine({
          id: 'btx_qb_1',
          organisationId: org,
          bankAccountId: CHECKING,
          date: '2026-06-12',
          description: 'CHECK 1045 PAPER SUPPLY CO',
          amount: -8425,
        });
        await insertBankLines(store.db, [row]);
        const listed = async () => (await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.filter((b: any) => b.invoiceNumber === 'PS-8104');
        const line = async () =>
          (await send('GET', `/v1/operations/banking.transactions?account=${CHECKING}&period=custom&from=2026-06-01&to=2026-06-30`)).body.transactions.find(
            (t: any) => t.id === row.id,
          );
        assert.equal((await listed()).length, 1, 'owed before the match');
        assert.equal(bill!.Balance, 84.25);

        const matched = await send('POST', '/v1/operations/banking.match', { transactionIds: row.id, documentId: id });
        assert.equal(matched.status, 201, matched.bytes);
        const payment = qb.company.entities.BillPayment.find((p) => `BillPayment:${p.Id}` === matched.body.match.paymentId);
        assert.ok(payment, 'QuickBooks holds the bill payment');
        assert.deepEqual(
          [payment.PayType, payment.CheckPayment.BankAccountRef.value, payment.TotalAmt, payment.Line[0].LinkedTxn[0].TxnId],
          ['Check', '35', 84.25, bill!.Id],
        );
        assert.equal(bill!.Balance, 0, 'the bill is paid in QuickBooks');
        const shown = await line();
        assert.deepEqual([shown.status, shown.reconciledIn, shown.linked?.documentId], ['reconciled', 'service', id]);
        assert.deepEqual(await listed(), [], 'the bill leaves Bills to Pay');
        await booksAgree();

        const undone: any = await mcp.client.callTool({ name: 'banking_unmatch', arguments: { transactionId: row.id } });
        assert.equal(undone.isError === true, false, JSON.stringify(undone.content));
        assert.equal(
          qb.company.entities.BillPayment.some((p) => p.Id === payment.Id),
          false,
          'the payment is deleted in QuickBooks',
        );
        assert.equal(bill!.Balance, 84.25, 'the bill is owed again');
        const restored = await line();
        assert.deepEqual([restored.status, restored.reconciledIn, restored.linked ?? null], ['to_reconcile', null, null]);
        assert.equal((await listed()).length, 1, 'back in Bills to Pay');
        await booksAgree();
        assert.deepEqual(qb.violations, []);
      },
    );
  });
}
