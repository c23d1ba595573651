/**
 * Bank lines matched to published documents on the builtin ledger, over REST and MCP: a payment
 * matched to a bill is reconciled in the service and linked, the bill's payment is booked (the bank
 * and the payable move, the bill leaves Bills to Pay), and banking.unmatch restores every figure;
 * differences only when named (a fee on the bank fees account); lines taken refused; lines marked
 * reconciled outside the service and back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { paperBill } from '../helpers/documents.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const ACCOUNT = 'bac_match_current';

for (const dialect of DIALECTS) {
  describe(`banking.match, unmatch and mark_reconciled on the builtin ledger [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;
    let mcp: Connected;

    const send = (method: string, path: string, body?: unknown, token = writer) => sendJson(server.baseUrl, method, path, token, body);
    const get = async (path: string) => {
      const r = await send('GET', path);
      assert.equal(r.status, 200, r.bytes);
      return r.body;
    };
    const publishedBill = async (number: string, overrides: Record<string, unknown> = {}) => {
      const created = await send('POST', '/v1/operations/documents.create', paperBill({ number, file: null, ...overrides }));
      assert.equal(created.status, 201, created.bytes);
      const published = await send('POST', '/v1/operations/documents.publish', { id: created.body.document.id });
      assert.equal(published.status, 201, published.bytes);
      return created.body.document.id as string;
    };
    let lineNo = 0;
    const bankLine = async (date: string, description: string, amount: number) => {
      const row = statementLine({ id: `btx_m${++lineNo}`, organisationId: books.org.id, bankAccountId: ACCOUNT, date, description, amount });
      await insertBankLines(store.db, [row]);
      return row.id;
    };
    const net = (tb: any[], name: string) => {
      const row = tb.find((r) => r[0] === name);
      return row ? (row[1] ?? 0) - (row[2] ?? 0) : 0;
    };
    const trialBalance = async () => (await get('/v1/operations/reports.trial_balance?date=2026-11-30')).accounts.map((a: any) => [a.name, a.debit, a.credit]);
    const billListed = async (number: string) => (await get('/v1/operations/bills.list_to_pay')).bills.find((b: any) => b.invoiceNumber === number);
    const line = async (id: string, to = '2026-11-30') =>
      (await get(`/v1/operations/banking.transactions?account=${ACCOUNT}&period=custom&from=2026-11-01&to=${to}`)).transactions.find((t: any) => t.id === id);

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .insertInto('bank_accounts')
        .values({
          id: ACCOUNT,
          organisation_id: books.org.id,
          name: 'Current Account',
          number: '12345678',
          type: 'bank',
          bank: 'Barclays',
          currency: 'GBP',
          is_default: 1,
          ledger_account_id: books.ids.bank,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, books.org.id, ['service.read', 'service.write']);
      const own = await createApiClient(store.db, { organisationId: books.org.id, name: 'Assistant', scopes: ['service.read', 'service.write'] });
      const url = `${server.baseUrl}/mcp`;
      mcp = await connectWithToken(url, await clientCredentialsToken(server.baseUrl, own.clientId, own.clientSecret, url, 'service.read service.write'));
    });
    after(async () => {
      await mcp?.client.close();
      await server?.close();
      await store?.close();
    });

    it('a payment matched to a bill: reconciled in the service, linked, the bill paid in the books; unmatch restores every figure', async () => {
      const documentId = await publishedBill('PC-M-1');
      const paymentLine = await bankLine('2026-11-12', 'PAPER CO LTD PC-M-1', -14460);
      const trialBefore = await trialBalance();
      const totalsBefore = (await get(`/v1/operations/banking.transactions?account=${ACCOUNT}&period=custom&from=2026-11-01&to=2026-11-30`)).totals;
      assert.equal((await billListed('PC-M-1')).amountDue, 144.6);

      const matched = await send('POST', '/v1/operations/banking.match', { transactionIds: paymentLine, documentId });
      assert.equal(matched.status, 201, matched.bytes);
      assert.equal(matched.body.match.kind, 'payment');
      assert.match(matched.body.match.paymentId, /^txn_/);
      assert.deepEqual(matched.body.bill && matched.body.bill.amountDue, 0);

      const shown = await line(paymentLine);
      assert.deepEqual([shown.status, shown.reconciledIn, shown.linked.documentId, shown.linked.number], ['reconciled', 'service', documentId, 'PC-M-1']);
      assert.equal(await billListed('PC-M-1'), undefined, 'the bill leaves Bills to Pay');
      const totals = (await get(`/v1/operations/banking.transactions?account=${ACCOUNT}&period=custom&from=2026-11-01&to=2026-11-30`)).totals;
      assert.equal(totals.toReconcile, totalsBefore.toReconcile - 1);
      // the books (payments are not ledger.account_transactions' types: the trial balance shows them): the bank paid 144.60, the payable owes 144.60 less
      const trialAfter = await trialBalance();
      assert.equal(Math.round((net(trialAfter, 'Current Account') - net(trialBefore, 'Current Account')) * 100), -14460);
      assert.equal(Math.round((net(trialAfter, 'Accounts Payable') - net(trialBefore, 'Accounts Payable')) * 100), 14460);

      const again = await send('POST', '/v1/operations/banking.match', { transactionIds: paymentLine, documentId });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'already_matched');

      const undone = await send('DELETE', `/v1/operations/banking.unmatch?transactionId=${paymentLine}`);
      assert.equal(undone.status, 200, undone.bytes);
      const restored = await line(paymentLine);
      assert.deepEqual([restored.status, restored.reconciledIn, restored.linked ?? null], ['to_reconcile', null, null]);
      assert.equal((await billListed('PC-M-1')).amountDue, 144.6);
      assert.deepEqual(await trialBalance(), trialBefore, 'the books are as they were');
      assert.deepEqual((await get(`/v1/operations/banking.transactions?account=${ACCOUNT}&period=custom&from=2026-11-01&to=2026-11-30`)).totals, totalsBefore);
      const actions = (
        await store.db
          .selectFrom('audit_log' as any)
          .select('action')
          .where('organisation_id', '=', books.org.id)
          .where('target', '=', documentId)
          .execute()
      ).map((r: any) => r.action);
      assert.deepEqual(actions.filter((a: string) => a.startsWith('bank.')).sort(), ['bank.matched', 'bank.unmatched']);
    });

    it('publishing a bill suggests it for the line that pays it; matching it clears the suggestion', async () => {
      const paying = await bankLine('2026-12-01', 'PAPER CO LTD PC-M-5', -14460);
      assert.equal((await line(paying, '2026-12-31')).suggestedMatch, false);
      const documentId = await publishedBill('PC-M-5');
      const suggested = await line(paying, '2026-12-31');
      assert.equal(suggested.suggestedMatch, true, JSON.stringify(suggested));
      assert.equal(suggested.suggestion.documentId, documentId);
      assert.ok(suggested.suggestion.reasons.length > 0);
      const matched = await send('POST', '/v1/operations/banking.match', { transactionIds: paying, documentId: suggested.suggestion.documentId });
      assert.equal(matched.status, 201, matched.bytes);
      const after = await line(paying, '2026-12-31');
      assert.deepEqual([after.suggestedMatch, after.suggestion], [false, null]);
    });

    it('lines that differ from the bill are refused unless the difference is named; a fee goes to Bank Fees', async () => {
      const documentId = await publishedBill('PC-M-2');
      const before = await trialBalance();
      const a = await bankLine('2026-11-13', 'PAPER CO PART 1', -10000);
      const b = await bankLine('2026-11-14', 'PAPER CO PART 2', -4610);
      const refused = await send('POST', '/v1/operations/banking.match', { transactionIds: `${a},${b}`, documentId });
      assert.equal(refused.status, 422, refused.bytes);
      assert.equal(refused.body.code, 'match_amounts_differ');
      assert.match(refused.body.detail, /-146\.10 GBP.*-144\.60 GBP/);
      const rounding = await send('POST', '/v1/operations/banking.match', { transactionIds: `${a},${b}`, documentId, difference: { kind: 'rounding' } });
      assert.equal(rounding.status, 422, 'a rounding is at most one unit');

      const fee = await send('POST', '/v1/operations/banking.match', { transactionIds: `${a},${b}`, documentId, difference: { kind: 'fee' } });
      assert.equal(fee.status, 201, fee.bytes);
      assert.deepEqual([fee.body.match.difference, fee.body.match.differenceAccount], [-1.5, 'Bank Fees']);
      const after = await trialBalance();
      assert.equal(Math.round((net(after, 'Bank Fees') - net(before, 'Bank Fees')) * 100), 150);
      assert.equal(Math.round((net(after, 'Current Account') - net(before, 'Current Account')) * 100), -14610);
      assert.deepEqual((await line(a)).status, 'reconciled');
    });

    it('over MCP: banking_match matches a receipt to its card-free bank spend; an unpublished document is refused', async () => {
      const created = await send('POST', '/v1/operations/documents.create', paperBill({ type: 'receipt', number: 'R-M-3', dueDate: null, file: null }));
      const receipt = created.body.document.id;
      const spend = await bankLine('2026-11-15', 'CARD PAYMENT PAPER CO', -14460);
      const unpublished: any = await mcp.client.callTool({ name: 'banking_match', arguments: { transactionIds: spend, documentId: receipt } });
      assert.equal(unpublished.isError, true);
      assert.match(JSON.stringify(unpublished.content), /not published yet/);
      const published = await send('POST', '/v1/operations/documents.publish', { id: receipt, paidFrom: ACCOUNT });
      assert.equal(published.status, 201, published.bytes);
      const result: any = await mcp.client.callTool({ name: 'banking_match', arguments: { transactionIds: spend, documentId: receipt } });
      assert.equal(result.isError === true, false, JSON.stringify(result.content));
      assert.deepEqual([result.structuredContent.match.kind, result.structuredContent.match.paymentId], ['document', null]);
      assert.equal((await line(spend)).reconciledIn, 'service');
    });

    it('marks lines reconciled outside the service and back; matched lines are refused', async () => {
      const transfer = await bankLine('2026-11-16', 'TRANSFER TO SAVINGS', -50000);
      const marked = await send('PATCH', '/v1/operations/banking.mark_reconciled', { transactionIds: transfer });
      assert.equal(marked.status, 200, marked.bytes);
      assert.deepEqual([marked.body.changed, marked.body.transactions[0].reconciledIn], [1, 'outside_service']);
      const twice = await send('PATCH', '/v1/operations/banking.mark_reconciled', { transactionIds: transfer });
      assert.equal(twice.status, 409);
      const documentId = await publishedBill('PC-M-4');
      const refused = await send('POST', '/v1/operations/banking.match', { transactionIds: transfer, documentId });
      assert.equal(refused.status, 409);
      const back = await send('PATCH', '/v1/operations/banking.mark_reconciled', { transactionIds: transfer, reconciled: false });
      assert.deepEqual([back.body.changed, back.body.transactions[0].status], [1, 'to_reconcile']);
      const reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
      assert.equal((await send('PATCH', '/v1/operations/banking.mark_reconciled', { transactionIds: transfer }, reader)).status, 403);
    });
  });
}
