/**
 * Documents into the service over REST with real tokens: create (with a file checked by its bytes),
 * update, delete; the write scope, role policy and submitters' own documents; every bad input a
 * 400 naming its field with nothing written; Idempotency-Key; every change in the audit log; a
 * bill created here listed by bills.list_to_pay and its file served by documents.file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { documentsCreate } from '../../src/operations/documents-create.js';
import { documentsDelete } from '../../src/operations/documents-delete.js';
import { documentsUpdate } from '../../src/operations/documents-update.js';
import type { Store } from '../../src/store/db.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { asUser, call, rejection } from '../helpers/call.js';
import { PDF } from '../helpers/documents.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

function bill(overrides: Record<string, unknown> = {}) {
  return {
    type: 'bill',
    number: 'PC-2026-114',
    supplier: 'Paper Co',
    date: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'GBP',
    subtotal: 120.5,
    tax: 24.1,
    total: 144.6,
    codedLines: [{ description: 'Copier paper', account: 'Office:Stationery', subtotal: 120.5, tax: 24.1, total: 144.6 }],
    invoiceLines: [
      { description: 'A4 paper, box', quantity: 5, unitPrice: 20.1, tax: 20.1, amount: 100.5 },
      { description: 'Delivery', quantity: 1, unitPrice: 20, tax: 4, amount: 20 },
    ],
    file: { name: 'pc-2026-114.pdf', data: PDF.toString('base64') },
    tags: 'office',
    note: 'Pay with the December run',
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe(`document write operations over REST [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;
    let reader: string;

    const send = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
      sendJson(server.baseUrl, method, path, token, body, headers);
    const create = (body: unknown, token = writer, headers: Record<string, string> = {}) =>
      send('POST', '/v1/operations/documents.create', token, body, headers);
    const counts = async () => {
      const n = async (table: 'documents' | 'document_coded_lines' | 'document_invoice_lines' | 'document_files' | 'bills') =>
        Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('organisation_id', '=', books.org.id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        documents: await n('documents'),
        coded: await n('document_coded_lines'),
        invoice: await n('document_invoice_lines'),
        files: await n('document_files'),
        bills: await n('bills'),
      };
    };
    const audit = async (action: string) =>
      store.db
        .selectFrom('audit_log' as any)
        .selectAll()
        .where('organisation_id', '=', books.org.id)
        .where('action', '=', action)
        .execute() as Promise<any[]>;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, books.org.id, ['service.read', 'service.write']);
      reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('creates a bill with its lines and file: documents.get, documents.file and bills.list_to_pay answer it', async () => {
      const before = await counts();
      const created = await create(bill());
      assert.equal(created.status, 201, created.bytes);
      const doc = created.body.document;
      assert.match(doc.id, /^doc_/);
      assert.deepEqual(
        [doc.type, doc.number, doc.supplier, doc.currency, doc.subtotal, doc.tax, doc.total],
        ['bill', 'PC-2026-114', 'Paper Co', 'GBP', 120.5, 24.1, 144.6],
      );
      assert.equal(doc.accountingId, null);
      assert.equal(doc.codedLines[0].account, 'Office:Stationery');
      assert.equal(doc.codedLines[0].accountId, books.ids.stationery);
      assert.deepEqual(
        doc.invoiceLines.map((l: any) => [l.quantity, l.unitPrice, l.amount]),
        [
          [5, 20.1, 100.5],
          [1, 20, 20],
        ],
      );
      assert.deepEqual(created.body.bill && { ...created.body.bill, id: undefined }, {
        id: undefined,
        dueDate: '2026-12-02',
        scheduledDate: null,
        tags: 'office',
        note: 'Pay with the December run',
        amountDue: 144.6,
      });
      assert.deepEqual(await counts(), {
        documents: before.documents + 1,
        coded: before.coded + 1,
        invoice: before.invoice + 2,
        files: before.files + 1,
        bills: before.bills + 1,
      });

      const got = await send('GET', `/v1/operations/documents.get?ids=${doc.id}`, reader);
      assert.deepEqual(got.body.documents[0], doc);
      const file = await send('GET', `/v1/operations/documents.file?id=${doc.id}`, reader);
      assert.equal(file.status, 200);
      assert.deepEqual([file.body.fileName, file.body.contentType, file.body.size], ['pc-2026-114.pdf', 'application/pdf', PDF.length]);
      assert.deepEqual(Buffer.from(file.body.data, 'base64'), PDF);
      const toPay = await send('GET', '/v1/operations/bills.list_to_pay', reader);
      const listed = toPay.body.bills.find((b: any) => b.invoiceNumber === 'PC-2026-114');
      assert.ok(listed, JSON.stringify(toPay.body));
      assert.equal(listed.amountDue, 144.6);

      // the answer is what the OpenAPI document publishes for the create
      const published = (openApiDocument(server.baseUrl) as any).paths['/v1/operations/documents.create'].post.responses['201'].content['application/json']
        .schema;
      const check = new Ajv2020({ strict: false, allErrors: true }).compile(published);
      assert.ok(check(created.body), new Ajv2020().errorsText(check.errors));

      const [entry] = await audit('document.created');
      assert.equal(entry.target, doc.id);
      assert.equal(JSON.parse(entry.detail).file, 'pc-2026-114.pdf');
    });

    it('refuses a token without service.write: 403 insufficient_scope naming the scope, nothing written', async () => {
      const before = await counts();
      const refused = await create(bill({ number: 'RO-1' }), reader);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'insufficient_scope');
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="service\.write"/);
      const del = await send('DELETE', '/v1/operations/documents.delete?id=doc_x', reader);
      assert.equal(del.status, 403);
      assert.deepEqual(await counts(), before);
    });

    it('answers every bad input with a 400 naming the field, and writes nothing', async () => {
      const before = await counts();
      const cases: [Record<string, unknown>, string[]][] = [
        [{ total: 150 }, ['total']],
        [{ subtotal: 120.555 }, ['subtotal']],
        [{ codedLines: [{ description: 'x', account: 'Stationary supplies', subtotal: 120.5, tax: 24.1, total: 144.6 }] }, ['codedLines.0.account']],
        [{ codedLines: [{ description: 'x', subtotal: 100, tax: 24.1, total: 124.1 }] }, ['codedLines']],
        [{ invoiceLines: [{ description: 'x', quantity: 3, unitPrice: 40, tax: 24.1, amount: 120.5 }] }, ['invoiceLines.0.amount']],
        [{ file: { name: 'scan.png', contentType: 'image/png', data: PDF.toString('base64') } }, ['file.contentType']],
        [{ file: { name: 'notes.pdf', data: Buffer.from('just some text, not a PDF').toString('base64') } }, ['file.data']],
        [{ file: { name: 'x.pdf', data: 'not base64!' } }, ['file.data']],
        [{ date: '2026-02-30' }, ['date']],
        [{ dueDate: '2026-10-01' }, ['dueDate']],
        [{ currency: 'XYZ1' }, ['currency']],
        [{ type: 'receipt' }, ['tags', 'note']],
        [{ colour: 'blue' }, ['colour']],
        [{ supplier: '' }, ['supplier']],
      ];
      for (const [change, fields] of cases) {
        const answer = await create(bill(change));
        assert.equal(answer.status, 400, `${JSON.stringify(change)}: ${answer.bytes}`);
        assert.equal(answer.body.code, 'invalid_request');
        assert.deepEqual(
          [...new Set(answer.body.errors.map((e: any) => e.parameter))].sort(),
          [...fields].sort(),
          `${JSON.stringify(change)}: ${JSON.stringify(answer.body.errors)}`,
        );
      }
      const notJson = await fetch(`${server.baseUrl}/v1/operations/documents.create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        body: '[1,2]',
      });
      assert.equal(notJson.status, 400);
      assert.deepEqual(await counts(), before);
    });

    it('keeps a file of any accepted type by its content, and refuses one over 10 MB', async () => {
      const png = await create(bill({ number: 'PNG-1', file: { name: 'photo.jpg', data: PNG.toString('base64') } }));
      assert.equal(png.status, 201, png.bytes);
      const info = await store.db
        .selectFrom('document_files')
        .select(['content_type', 'file_name', 'size'])
        .where('document_id', '=', png.body.document.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([info.content_type, info.file_name, Number(info.size)], ['image/png', 'photo.jpg', PNG.length]);
      const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]);
      const before = await counts();
      const tooBig = await create(bill({ number: 'BIG-1', file: { name: 'big.pdf', data: big.toString('base64') } }));
      assert.equal(tooBig.status, 400, tooBig.bytes.slice(0, 300));
      assert.deepEqual(
        tooBig.body.errors.map((e: any) => e.parameter),
        ['file.data'],
      );
      assert.deepEqual(await counts(), before);
    });

    it('makes a retried create with the same Idempotency-Key answer once, and refuses the key for another request', async () => {
      const key = `key-${dialect}-1`;
      const before = await counts();
      const first = await create(bill({ number: 'IDEM-1' }), writer, { 'idempotency-key': key });
      const again = await create(bill({ number: 'IDEM-1' }), writer, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.body.document.id, first.body.document.id);
      assert.equal((await counts()).documents, before.documents + 1);
      const other = await create(bill({ number: 'IDEM-2' }), writer, { 'idempotency-key': key });
      assert.equal(other.status, 422);
      assert.equal(other.body.code, 'idempotency_key_reused');
      const bad = await create(bill({ number: 'IDEM-3' }), writer, { 'idempotency-key': 'has spaces in it' });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.parameter),
        ['Idempotency-Key'],
      );
      assert.equal((await counts()).documents, before.documents + 1);
    });

    it('updates an unpublished document whole-checked, and only the planning fields of a published one', async () => {
      const { body } = await create(bill({ number: 'UPD-1' }));
      const id = body.document.id;
      const changed = await send('PATCH', '/v1/operations/documents.update', writer, {
        id,
        number: 'UPD-1A',
        scheduledDate: '2026-11-28',
        tags: 'office, urgent',
      });
      assert.equal(changed.status, 200, changed.bytes);
      assert.equal(changed.body.document.number, 'UPD-1A');
      assert.deepEqual([changed.body.bill.scheduledDate, changed.body.bill.tags], ['2026-11-28', 'office,urgent']);
      assert.equal(changed.body.document.codedLines.length, 1, 'lines kept when not sent');
      assert.ok(changed.body.document.link, 'file kept when not sent');

      const receipt = await create(bill({ number: 'UPD-R' }));
      const asReceipt = await send('PATCH', '/v1/operations/documents.update', writer, { id: receipt.body.document.id, type: 'receipt' });
      assert.equal(asReceipt.status, 200, asReceipt.bytes);
      assert.deepEqual([asReceipt.body.document.type, asReceipt.body.bill], ['receipt', null], 'a bill made a receipt leaves Bills to Pay');

      const bad = await send('PATCH', '/v1/operations/documents.update', writer, { id, total: 1 });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        bad.body.errors.map((e: any) => e.parameter),
        ['total'],
      );
      const none = await send('PATCH', '/v1/operations/documents.update', writer, { id });
      assert.equal(none.status, 400);

      await store.db
        .updateTable('documents')
        .set({ published_at: '2026-11-20T10:00:00.000Z', accounting_transaction_id: 'txn_x' })
        .where('id', '=', id)
        .execute();
      const content = await send('PATCH', '/v1/operations/documents.update', writer, { id, number: 'UPD-1B' });
      assert.equal(content.status, 409);
      assert.equal(content.body.code, 'document_published');
      const planning = await send('PATCH', '/v1/operations/documents.update', writer, { id, note: 'Paid by card instead', scheduledDate: null });
      assert.equal(planning.status, 200, planning.bytes);
      assert.deepEqual([planning.body.document.number, planning.body.bill.note, planning.body.bill.scheduledDate], ['UPD-1A', 'Paid by card instead', null]);
      const del = await send('DELETE', `/v1/operations/documents.delete?id=${id}`, writer);
      assert.equal(del.status, 409);
      assert.equal((await audit('document.updated')).filter((e) => e.target === id).length, 2);
    });

    it('deletes an unpublished document with its lines, file and bill; a second delete is not_found', async () => {
      const { body } = await create(bill({ number: 'DEL-1' }));
      const id = body.document.id;
      const before = await counts();
      const deleted = await send('DELETE', `/v1/operations/documents.delete?id=${id}`, writer);
      assert.equal(deleted.status, 200, deleted.bytes);
      assert.deepEqual(deleted.body, { deleted: id });
      assert.deepEqual(await counts(), {
        documents: before.documents - 1,
        coded: before.coded - 1,
        invoice: before.invoice - 2,
        files: before.files - 1,
        bills: before.bills - 1,
      });
      const got = await send('GET', `/v1/operations/documents.get?ids=${id}`, reader);
      assert.deepEqual(got.body.notFound, [id]);
      const again = await send('DELETE', `/v1/operations/documents.delete?id=${id}`, writer);
      assert.equal(again.status, 404);
      assert.equal((await audit('document.deleted')).filter((e) => e.target === id).length, 1);
    });

    it('answers any JSON body to a change with a 2xx or a 4xx, never a 5xx (property, fixed seed)', async () => {
      const keys = [...Object.keys(bill()), 'id', 'name', 'criteria', 'colour'];
      const value = fc.oneof(fc.jsonValue(), fc.constantFrom(-0.001, 1e21, '', 'GBP', '2026-02-29', [], {}, null));
      const body = fc.oneof(
        fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 10 }),
        fc.record(
          { ...Object.fromEntries(Object.entries(bill()).map(([k, v]) => [k, fc.constant(v)])), total: value, codedLines: value, file: value },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      );
      const paths = ['POST documents.create', 'PATCH documents.update', 'POST bills.create_saved_filter', 'PATCH bills.update_saved_filter'];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), body, async (target, sent) => {
          const [method, name] = target.split(' ') as [string, string];
          const answer = await send(method, `/v1/operations/${name}`, writer, sent);
          assert.ok(answer.status < 500, `${target} ${JSON.stringify(sent).slice(0, 300)} → ${answer.status} ${answer.bytes.slice(0, 300)}`);
        }),
        { numRuns: 60, seed: 20261125 },
      );
    });

    it('answers a write operation called with the wrong method with 405 and Allow', async () => {
      const wrong = await send('GET', '/v1/operations/documents.create', writer);
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'POST');
      assert.equal(wrong.body.code, 'method_not_allowed');
    });

    it('lets a submitter create and change their own documents only; a role the policy denies is refused', async () => {
      const { submitter, admin } = books.users;
      const asSubmitter = { today: TODAY, principal: asUser(submitter.id) };
      const own = await call(store, documentsCreate, books.org.id, bill({ number: 'SUB-1' }), asSubmitter);
      const mine = await call(store, documentsUpdate, books.org.id, { id: own.document.id, note: 'mine' }, asSubmitter);
      assert.equal(mine.bill.note, 'mine');
      const adminsDoc = await call(store, documentsCreate, books.org.id, bill({ number: 'ADM-1' }), { today: TODAY, principal: asUser(admin.id) });
      const notMine = await rejection(() => call(store, documentsUpdate, books.org.id, { id: adminsDoc.document.id, note: 'x' }, asSubmitter));
      assert.equal(notMine.code, 'not_document_owner');
      assert.equal((await rejection(() => call(store, documentsDelete, books.org.id, { id: adminsDoc.document.id }, asSubmitter))).code, 'not_document_owner');
      await call(store, documentsDelete, books.org.id, { id: own.document.id }, asSubmitter);

      const custom = await createUser(store.db, { email: `custom-${dialect}@example.test`, name: 'Cus Tom' });
      await setMembership(store.db, books.org.id, custom.id, 'custom');
      const before = await counts();
      const denied = await rejection(() =>
        call(store, documentsCreate, books.org.id, bill({ number: 'CUS-1' }), { today: TODAY, principal: asUser(custom.id) }),
      );
      assert.equal(denied.code, 'role_not_allowed');
      assert.deepEqual(await counts(), before);
    });
  });
}
