/**
 * documents.publish for a Xero organisation (issue 42), over REST and MCP with real tokens, against
 * the contract-checked fake Xero: a created bill published is an ACCPAY invoice in Xero with its
 * file attached, its lines are in ledger.account_transactions at once (the mirror is kept an hour:
 * the connector's pass after the write brings them) with their `document`, Xero's own balance
 * sheet equals Ledgerline's, and the same publish sent twice with one Idempotency-Key makes one
 * invoice. A refusal by Xero (a date in its locked period) answers 422 accounting_refused naming the
 * field, with nothing written and the document still unpublished. A bank payment matched to the
 * published bill (banking.match) is a payment in Xero, the line reconciled in the service and linked,
 * the bill out of Bills to Pay; banking.unmatch (over MCP) deletes the payment and restores each figure.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { accountingSystemFor } from '../../src/accounting/index.js';
import { forgetMirror } from '../../src/accounting/mirror/mirror.js';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { createApiClient } from '../../src/auth/clients.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import { refreshSuggestions } from '../../src/operations/banking/suggestions.js';
import { defaultFakeBook, fakeId, type FakeBook } from '../helpers/fake-xero-book.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { describeEachDialect } from '../helpers/store.js';
import { vendorOrganisation } from '../helpers/vendor-organisation.js';

useCallBudget(NO_BUDGET);

const TODAY = '2026-06-15';
const BANK = 'bac_xero_business';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

function vatBook(): FakeBook {
  const book = defaultFakeBook();
  book.accounts.push({ id: fakeId('account 820'), code: '820', name: 'VAT', type: 'CURRLIAB', status: 'ACTIVE', systemAccount: 'GST' });
  return book;
}

const bill = (number: string, extra: Record<string, unknown> = {}) => ({
  type: 'bill',
  number,
  supplier: 'Paper Co',
  date: '2026-06-08',
  dueDate: '2026-07-08',
  currency: 'GBP',
  subtotal: 120.5,
  tax: 24.1,
  total: 144.6,
  codedLines: [{ description: 'Copier paper', account: 'Printing & Stationery', taxCodeId: 'INPUT2', subtotal: 120.5, tax: 24.1, total: 144.6 }],
  file: { name: `${number}.pdf`, data: PDF.toString('base64') },
  ...extra,
});

describeEachDialect('documents.publish for a Xero organisation, over REST and MCP', (store) => {
  let xero: FakeXero;
  let server: Awaited<ReturnType<typeof startServer>>;
  let org: string;
  let token: string;
  let mcp: Connected;

  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    sendJson(server.baseUrl, method, path, token, body, headers);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    assert.equal(result.isError === true, false, `${name}: ${JSON.stringify(result.content).slice(0, 600)}`);
    return result.structuredContent as any;
  };
  const ledgerArgs = { account: 'Printing & Stationery', period: 'custom', from: '2026-06-01', to: '2026-06-30' };
  const ledgerRest = async () => (await send('GET', `/v1/operations/ledger.account_transactions?${new URLSearchParams(ledgerArgs)}`)).body;
  const invoiceOf = (id: string) => xero.book.invoices.find((i) => i.id === id);

  before(async () => {
    xero = await startFakeXero({ limits: false, today: TODAY, book: vatBook() });
    server = await startServer(store(), { today: TODAY });
    org = await vendorOrganisation(store(), 'xero', `Xero publishing ${Math.random()}`, {
      tenantId: xero.tenantId,
      accessToken: xero.token,
      baseUrl: xero.baseUrl,
      mirrorMaxAgeMs: 3_600_000,
    });
    await store()
      .db.insertInto('bank_accounts')
      .values({
        id: BANK,
        organisation_id: org,
        name: 'Business Bank Account',
        number: '090',
        type: 'bank',
        bank: 'Harbour Bank',
        currency: 'GBP',
        is_default: 1,
        ledger_account_id: fakeId('account 090'),
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    token = await clientToken(store(), server.baseUrl, org, ['service.read', 'service.write']);
    const own = await createApiClient(store().db, { organisationId: org, name: 'Assistant', scopes: ['service.read', 'service.write'] });
    const url = `${server.baseUrl}/mcp`;
    mcp = await connectWithToken(url, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, url, 'service.read service.write'));
  });
  after(async () => {
    await mcp?.client.close();
    await server?.close();
    await xero?.close();
  });

  it(
    "over REST: a created bill published is Xero's ACCPAY invoice with its file, in the ledger at once with its document, and Xero's balance sheet " +
      "equals Ledgerline's",
    async () => {
      const created = await send('POST', '/v1/operations/documents.create', bill('PC-9001'));
      assert.equal(created.status, 201, created.bytes);
      const id = created.body.document.id as string;
      assert.equal((await ledgerRest()).transactions.length, 0, 'nothing on the account in June yet');

      const published = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(published.status, 201, published.bytes);
      const doc = published.body.document;
      assert.ok(doc.publishedAt);
      const inv = invoiceOf(doc.accountingId);
      assert.ok(inv, `Xero holds ${doc.accountingId}`);
      assert.deepEqual([inv.type, inv.number, inv.lines[0]!.accountCode, inv.lines[0]!.amount, inv.lines[0]!.tax], ['ACCPAY', 'PC-9001', '461', 12_050, 2_410]);
      assert.deepEqual(
        inv.attachments?.map((a) => [a.fileName, a.bytes.equals(PDF)]),
        [['PC-9001.pdf', true]],
      );
      assert.equal(doc.accountingLink, `https://go.xero.com/AccountsPayable/View.aspx?InvoiceID=${doc.accountingId}`);

      const line = (await ledgerRest()).transactions.find((t: any) => t.accountingSystemId === doc.accountingId);
      assert.ok(line, 'the line is in the ledger');
      assert.deepEqual([line.type, line.number, line.supplier, line.amount, line.document?.id], ['bill', 'PC-9001', 'Paper Co', 120.5, id]);

      const system = accountingSystemFor(store().db, (await getOrganisation(store().db, org))!);
      const theirs = await system.ownBalanceSheetTotals!(TODAY);
      const ours = (await send('GET', `/v1/operations/reports.balance_sheet?asAt=${TODAY}`)).body;
      for (const { label, amount } of theirs)
        assert.equal(Math.round((ours.summary.find((l: any) => l.label === label)?.amounts[0] ?? 0) * 100), amount, label);
    },
  );

  it('over REST: the same publish sent twice with one Idempotency-Key makes one invoice and one answer', async () => {
    const id = (await send('POST', '/v1/operations/documents.create', bill('PC-9002'))).body.document.id as string;
    const before = xero.book.invoices.length;
    const first = await send('POST', '/v1/operations/documents.publish', { id }, { 'idempotency-key': `publish-${id}` });
    const second = await send('POST', '/v1/operations/documents.publish', { id }, { 'idempotency-key': `publish-${id}` });
    assert.equal(first.status, 201, first.bytes);
    assert.deepEqual(second.body, first.body);
    assert.equal(xero.book.invoices.length, before + 1);
  });

  it("over REST: Xero's lock date refuses the bill: 422 accounting_refused naming the date, nothing written, the document unpublished", async () => {
    const id = (await send('POST', '/v1/operations/documents.create', bill('PC-9003', { date: '2026-03-20', dueDate: '2026-04-20' }))).body.document
      .id as string;
    xero.book.periodLockDate = '2026-03-31';
    try {
      const before = xero.book.invoices.length;
      const refused = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(refused.status, 422, refused.bytes);
      assert.equal(refused.body.code, 'accounting_refused');
      assert.deepEqual(
        refused.body.errors.map((e: any) => e.parameter),
        ['date'],
      );
      assert.equal(xero.book.invoices.length, before);
      assert.equal((await send('GET', `/v1/operations/documents.get?ids=${id}`)).body.documents[0].publishedAt, null);
    } finally {
      delete xero.book.periodLockDate;
    }
  });

  it(
    'over REST: a file Xero will not take, refused after it made the invoice, is not accounting_refused: the publish stays under way, and publishing ' +
      'again answers 201 with the same one invoice, without the file',
    async () => {
      // a phone's WebP photo: the service takes it, Xero does not (not a type it attaches)
      const WEBP = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00', 'latin1');
      const created = await send('POST', '/v1/operations/documents.create', bill('PC-9006', { file: { name: 'PC-9006.webp', data: WEBP.toString('base64') } }));
      assert.equal(created.status, 201, created.bytes);
      const id = created.body.document.id as string;
      const made = () => xero.book.invoices.filter((i) => i.number === 'PC-9006');

      const first = await send('POST', '/v1/operations/documents.publish', { id });
      assert.notEqual(first.body.code, 'accounting_refused', first.bytes);
      assert.deepEqual([first.status, first.body.code], [502, 'accounting_unavailable'], first.bytes);
      assert.equal(made().length, 1, 'Xero holds the invoice');
      assert.match(first.body.detail, /refused its file PC-9006\.webp .*Publish the document again/);
      const edit = await send('PATCH', '/v1/operations/documents.update', { id, number: 'PC-9006-B' });
      assert.deepEqual([edit.status, edit.body.code], [409, 'document_published'], `not editable while the publish is under way: ${edit.bytes}`);
      assert.match(edit.body.detail, /outcome is not known yet: publish it again/);
      assert.equal((await send('GET', `/v1/operations/documents.get?ids=${id}`)).body.documents[0].publishedAt, null);

      const again = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(again.status, 201, again.bytes);
      assert.equal(again.body.document.accountingId, made()[0]!.id, 'the invoice the first try made');
      assert.equal(made().length, 1, 'no second invoice');
      assert.equal(made()[0]!.attachments?.length ?? 0, 0, 'it stands without the file');
    },
  );

  it('over MCP: a bill created and published with the tools is in Xero and in the ledger with its document', async () => {
    const created = await tool('documents_create', bill('PC-9004'));
    const published = await tool('documents_publish', { id: created.document.id });
    assert.ok(invoiceOf(published.document.accountingId)?.attachments?.length === 1, 'the invoice and its file');
    const ledger = await tool('ledger_account_transactions', ledgerArgs);
    const line = ledger.transactions.find((t: any) => t.accountingSystemId === published.document.accountingId);
    assert.deepEqual([line?.number, line?.amount, line?.document?.id], ['PC-9004', 120.5, created.document.id]);
  });

  it(
    'a bank payment matched to the bill is a payment in Xero, the bill leaving Bills to Pay; unmatch (over MCP) deletes it and restores every ' + 'figure',
    async () => {
      const id = (await send('POST', '/v1/operations/documents.create', bill('PC-9005', { file: null }))).body.document.id as string;
      const published = await send('POST', '/v1/operations/documents.publish', { id });
      assert.equal(published.status, 201, published.bytes);
      const inv = invoiceOf(published.body.document.accountingId)!;
      const row = statementLine({
        id: `btx_xero_${Math.random().toString(36).slice(2)}`,
        organisationId: org,
        bankAccountId: BANK,
        date: '2026-06-12',
        description: 'FP PAPER CO PC-9005',
        amount: -14_460,
      });
      await insertBankLines(store().db, [row]);
      const listed = async () => (await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.filter((b: any) => b.invoiceNumber === 'PC-9005');
      const line = async () =>
        (await send('GET', `/v1/operations/banking.transactions?account=${BANK}&period=custom&from=2026-06-01&to=2026-06-30`)).body.transactions.find(
          (t: any) => t.id === row.id,
        );
      assert.equal((await listed()).length, 1, 'owed before the match');

      const matched = await send('POST', '/v1/operations/banking.match', { transactionIds: row.id, documentId: id });
      assert.equal(matched.status, 201, matched.bytes);
      const live = inv.payments.filter((p) => !p.deleted);
      assert.deepEqual(
        live.map((p) => [p.amount, p.bankCode, p.date]),
        [[14_460, '090', '2026-06-12']],
        'Xero holds the payment',
      );
      assert.ok(String(matched.body.match.paymentId).includes(live[0]!.id), `${matched.body.match.paymentId} names Xero's PaymentID`);
      const shown = await line();
      assert.deepEqual([shown.status, shown.reconciledIn, shown.linked?.documentId], ['reconciled', 'service', id]);
      assert.deepEqual(await listed(), [], 'the bill leaves Bills to Pay');

      const undone = (await mcp.client.callTool({ name: 'banking_unmatch', arguments: { transactionId: row.id } })) as CallToolResult;
      assert.equal(undone.isError === true, false, JSON.stringify(undone.content));
      assert.ok(
        inv.payments.every((p) => p.deleted),
        'the payment is deleted in Xero',
      );
      const restored = await line();
      assert.deepEqual([restored.status, restored.reconciledIn, restored.linked ?? null], ['to_reconcile', null, null]);
      assert.deepEqual(
        (await listed()).map((b: any) => b.amountDue),
        [144.6],
        'back in Bills to Pay, owed in full',
      );
    },
  );

  it(
    'a line paying an open bill Xero holds itself is suggested with it and matched to it: a payment in Xero, the bill out of Bills to Pay; unmatch ' +
      'restores it',
    async () => {
      const billId = fakeId('bill BI-2026-14');
      const inv = invoiceOf(billId)!;
      const lineId = 'btx_xero_bi14';
      await insertBankLines(store().db, [
        statementLine({
          id: lineId,
          organisationId: org,
          bankAccountId: BANK,
          date: '2026-06-10',
          description: 'FP BEAN IMPORTERS BI-2026-14',
          amount: -50_000,
        }),
      ]);
      await refreshSuggestions(store().db, org, accountingSystemFor(store().db, (await getOrganisation(store().db, org))!), { today: TODAY });
      const line = async () => {
        const r = await send('GET', `/v1/operations/banking.transactions?account=${BANK}&period=custom&from=2026-06-01&to=2026-06-30`);
        assert.equal(r.status, 200, r.bytes);
        return r.body.transactions.find((t: any) => t.id === lineId);
      };
      const listed = async () => (await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.filter((b: any) => b.invoiceNumber === 'BI-2026-14');
      const suggested = await line();
      assert.equal(suggested.suggestedMatch, true, JSON.stringify(suggested.suggestion));
      assert.equal(suggested.suggestion.documentId, `xero:${billId}`);
      assert.deepEqual(
        (await listed()).map((b: any) => b.amountDue),
        [500],
      );

      const matched = await send('POST', '/v1/operations/banking.match', { transactionIds: lineId, documentId: suggested.suggestion.documentId });
      assert.equal(matched.status, 201, matched.bytes);
      assert.deepEqual(
        inv.payments.filter((p) => !p.deleted).map((p) => p.amount),
        [30_000, 50_000],
        'Xero holds the new payment beside the earlier one',
      );
      const shown = await line();
      assert.deepEqual(
        [shown.status, shown.reconciledIn, shown.linked?.documentId, shown.linked?.number],
        ['reconciled', 'service', `xero:${billId}`, 'BI-2026-14'],
      );
      assert.deepEqual(await listed(), [], 'paid in full: out of Bills to Pay');

      const undone = await send('DELETE', `/v1/operations/banking.unmatch?transactionId=${lineId}`);
      assert.equal(undone.status, 200, undone.bytes);
      assert.deepEqual(
        inv.payments.filter((p) => !p.deleted).map((p) => p.amount),
        [30_000],
      );
      assert.deepEqual(
        (await listed()).map((b: any) => b.amountDue),
        [500],
        'owed again',
      );
    },
  );

  it('a published bill paid in Xero itself is owed, in Bills to Pay, what Xero says: part paid, then gone', async () => {
    const id = (await send('POST', '/v1/operations/documents.create', bill('PC-9010', { file: null }))).body.document.id as string;
    const published = await send('POST', '/v1/operations/documents.publish', { id });
    assert.equal(published.status, 201, published.bytes);
    const inv = invoiceOf(published.body.document.accountingId)!;
    const listed = async () =>
      (await send('GET', '/v1/operations/bills.list_to_pay')).body.bills.filter((b: any) => b.invoiceNumber === 'PC-9010').map((b: any) => b.amountDue);
    assert.deepEqual(await listed(), [144.6]);
    // paid in Xero, not through the service; the mirror read afresh
    inv.payments.push({ id: fakeId('payment PC-9010 part'), date: '2026-06-11', amount: 4_460, bankCode: '090' });
    inv.updated = '2026-06-14T10:00:00Z';
    await forgetMirror(store().db, org);
    assert.deepEqual(await listed(), [100], 'part paid in the books');
    inv.payments.push({ id: fakeId('payment PC-9010 rest'), date: '2026-06-12', amount: 10_000, bankCode: '090' });
    inv.updated = '2026-06-14T11:00:00Z';
    await forgetMirror(store().db, org);
    assert.deepEqual(await listed(), [], 'paid in full in the books: no longer to pay');
  });

  it('made only requests the contract allows', () => {
    assert.deepEqual(xero.violations, []);
  });
});
