/**
 * documents.publish on the builtin ledger, over REST and MCP with real tokens: a created bill
 * written to the books in the transaction that marks it published (its lines in the ledger with
 * their document, the P&L moved by its subtotal), once only (a second publish, the same
 * Idempotency-Key), a receipt as a card charge with a new supplier created on confirmation, every
 * missing field named at once with nothing written, the role policy, and a GnuCash book's 409.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { provisionOrganisation } from '../../src/provision.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { GNUCASH_FIXTURES } from '../helpers/gnucash-reports.js';
import { clientCredentialsToken, connectWithToken, type Connected } from '../helpers/mcp.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { paperBill } from '../helpers/documents.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

for (const dialect of DIALECTS) {
  describe(`documents.publish on the builtin ledger [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;
    let mcp: Connected;

    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, token = writer) =>
      sendJson(server.baseUrl, method, path, token, body, headers);
    const create = async (body: unknown) => {
      const r = await send('POST', '/v1/operations/documents.create', body);
      assert.equal(r.status, 201, r.bytes);
      return r.body.document.id as string;
    };
    const publish = (body: unknown, headers: Record<string, string> = {}) => send('POST', '/v1/operations/documents.publish', body, headers);
    const transactions = async () =>
      Number(
        (
          await store.db
            .selectFrom('acct_transactions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', books.org.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const ledger = async (account: string) =>
      (await send('GET', `/v1/operations/ledger.account_transactions?account=${encodeURIComponent(account)}&period=custom&from=2026-11-01&to=2026-11-30`)).body;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
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

    it('writes a bill to the books: its lines in the ledger with their document, the P&L moved, published once', async () => {
      const id = await create(paperBill());
      const before = await transactions();
      const pnlBefore = (await send('GET', '/v1/operations/reports.profit_and_loss?period=custom&from=2026-11-01&to=2026-11-30')).body;
      const published = await publish({ id });
      assert.equal(published.status, 201, published.bytes);
      const doc = published.body.document;
      assert.ok(doc.publishedAt);
      assert.match(doc.accountingId, /^txn_/);
      assert.equal(await transactions(), before + 1);

      // the stationery line carries the document; the payable owes the total; VAT holds the tax
      const stationery = await ledger('Office:Stationery');
      const line = stationery.transactions.find((t: any) => t.accountingSystemId === doc.accountingId);
      assert.ok(line, JSON.stringify(stationery.transactions));
      assert.deepEqual([line.type, line.number, line.supplier, line.amount], ['bill', 'PC-2026-200', 'Paper Co', 120.5]);
      assert.equal(line.document.id, id);
      const payable = (await ledger('Accounts Payable')).transactions.find((t: any) => t.accountingSystemId === doc.accountingId);
      assert.equal(payable.amount, 144.6, 'owed: the liability grows');
      const vat = (await ledger('VAT')).transactions.find((t: any) => t.accountingSystemId === doc.accountingId);
      assert.equal(vat.amount, -24.1, 'input tax reclaimed: the VAT owed falls');
      const pnlAfter = (await send('GET', '/v1/operations/reports.profit_and_loss?period=custom&from=2026-11-01&to=2026-11-30')).body;
      const net = (pnl: any) => pnl.summary.find((l: any) => l.label === 'Net Profit').amounts[0] as number;
      assert.equal(Math.round((net(pnlBefore) - net(pnlAfter)) * 100), 12050, 'net profit falls by the subtotal');

      // a second publish writes nothing and says why
      const again = await publish({ id });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'document_published');
      assert.equal(await transactions(), before + 1);
      // its content no longer changes
      const change = await send('PATCH', '/v1/operations/documents.update', { id, number: 'X' });
      assert.equal(change.status, 409);

      const [entry]: any[] = await store.db
        .selectFrom('audit_log' as any)
        .selectAll()
        .where('organisation_id', '=', books.org.id)
        .where('action', '=', 'document.published')
        .execute();
      assert.equal(entry!.target, id);
    });

    it('the same publish sent twice with one Idempotency-Key makes one transaction and one answer', async () => {
      const id = await create(paperBill({ number: 'PC-2026-201' }));
      const before = await transactions();
      const first = await publish({ id }, { 'idempotency-key': 'publish-pc-201' });
      const second = await publish({ id }, { 'idempotency-key': 'publish-pc-201' });
      assert.equal(first.status, 201, first.bytes);
      assert.equal(second.status, 201, second.bytes);
      assert.deepEqual(second.body, first.body);
      assert.equal(await transactions(), before + 1);
    });

    it('names every missing field at once and writes nothing; createContact and paidFrom complete a receipt', async () => {
      const id = await create(
        paperBill({
          type: 'receipt',
          number: 'R-77',
          supplier: 'Corner Cafe',
          dueDate: null,
          subtotal: 12,
          tax: 0,
          total: 12,
          codedLines: [{ description: 'Team lunch', subtotal: 12, total: 12 }],
        }),
      );
      const before = await transactions();
      const refused = await publish({ id });
      assert.equal(refused.status, 422, refused.bytes);
      assert.equal(refused.body.code, 'document_incomplete');
      assert.deepEqual(refused.body.errors.map((e: any) => e.parameter).sort(), ['codedLines.0.account', 'createContact', 'paidFrom']);
      assert.equal(await transactions(), before);

      const coded = await send('PATCH', '/v1/operations/documents.update', {
        id,
        codedLines: [{ description: 'Team lunch', account: 'Office', subtotal: 12, total: 12 }],
      });
      assert.equal(coded.status, 200, coded.bytes);
      const published = await publish({ id, paidFrom: 'Company Card', createContact: true });
      assert.equal(published.status, 201, published.bytes);
      const card = (await ledger('Company Card')).transactions.find((t: any) => t.accountingSystemId === published.body.document.accountingId);
      assert.deepEqual([card.type, card.supplier, card.amount], ['card_charge', 'Corner Cafe', 12]);
      const contacts = await store.db
        .selectFrom('acct_contacts')
        .select('kind')
        .where('organisation_id', '=', books.org.id)
        .where('name', '=', 'Corner Cafe')
        .execute();
      assert.deepEqual(contacts, [{ kind: 'supplier' }]);
    });

    it('a foreign bill needs its rate in the builtin ledger, and is booked at it', async () => {
      const id = await create(
        paperBill({
          number: 'EU-9',
          currency: 'EUR',
          subtotal: 100,
          tax: 0,
          total: 100,
          codedLines: [{ description: 'Licence', account: 'Office:Software', subtotal: 100, total: 100 }],
        }),
      );
      const refused = await publish({ id });
      assert.equal(refused.status, 422);
      assert.deepEqual(
        refused.body.errors.map((e: any) => e.parameter),
        ['exchangeRate'],
      );
      const published = await publish({ id, exchangeRate: '0.8612' });
      assert.equal(published.status, 201, published.bytes);
      const line = (await ledger('Office:Software')).transactions.find((t: any) => t.accountingSystemId === published.body.document.accountingId);
      assert.deepEqual([line.amount, line.currency, line.amountInCurrency], [86.12, 'EUR', 100]);
    });

    it('over MCP: the documents_publish tool publishes, and a read-only token cannot', async () => {
      const id = await create(paperBill({ number: 'PC-2026-300' }));
      const result: any = await mcp.client.callTool({ name: 'documents_publish', arguments: { id } });
      assert.equal(result.isError === true, false, JSON.stringify(result.content));
      assert.equal(result.structuredContent.document.id, id);
      assert.ok(result.structuredContent.document.publishedAt);
      const reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
      const other = await create(paperBill({ number: 'PC-2026-301' }));
      const refused = await send('POST', '/v1/operations/documents.publish', { id: other }, {}, reader);
      assert.equal(refused.status, 403);
    });

    it('a GnuCash book answers 409 publishing_not_supported', async () => {
      const gnucash = await provisionOrganisation(store.db, {
        name: 'Book on file',
        homeCurrency: 'GBP',
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: 'gnucash',
      });
      await store.db
        .updateTable('organisations')
        .set({ accounting_config: JSON.stringify({ bookPath: join(GNUCASH_FIXTURES, 'payables.gnucash') }) })
        .where('id', '=', gnucash.id)
        .execute();
      const token = await clientToken(store, server.baseUrl, gnucash.id, ['service.read', 'service.write']);
      const created = await sendJson(server.baseUrl, 'POST', '/v1/operations/documents.create', token, paperBill({ codedLines: [] }));
      assert.equal(created.status, 201, created.bytes);
      const refused = await sendJson(server.baseUrl, 'POST', '/v1/operations/documents.publish', token, { id: created.body.document.id });
      assert.equal(refused.status, 409, refused.bytes);
      assert.equal(refused.body.code, 'publishing_not_supported');
      assert.match(refused.body.detail, /GnuCash/);
    });
  });
}
