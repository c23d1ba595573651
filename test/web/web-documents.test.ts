/**
 * The Documents page (issue 14): an admin uploads a real PDF through the form and the document
 * exists with its file, bill and audit entry; a bad total or a file that is not a PDF is named
 * beside its field with what was typed kept and nothing written; delete works; a post without the
 * CSRF token is refused; a submitter is refused the page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Store } from '../../src/store/db.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

const PASSWORD = 'correct horse battery';
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 ' +
    '0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
const fieldError = (body: string, id: string) => new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(body)?.[1];

function form(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    type: 'bill',
    number: 'PC-114',
    supplier: 'Paper Co',
    date: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'GBP',
    subtotal: '120.50',
    tax: '24.10',
    total: '144.60',
    lineAccount: '',
    lineDescription: 'Copier paper',
    scheduledDate: '',
    tags: 'office, december-run',
    note: 'Pay with the December run',
    ...overrides,
  };
}

for (const dialect of DIALECTS) {
  describe(`documents page [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let path: string;

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      await store.db
        .updateTable('users')
        .set({ password_hash: await hash(PASSWORD) })
        .execute();
      server = await startServer(store, { today: TODAY });
      path = `/orgs/${books.org.id}/documents`;
    });
    after(async () => {
      await server.close();
      await store.close();
    });

    async function signedIn(email: string) {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const page = await browser.submit({ email, password: PASSWORD });
      assert.equal(page.response.status, 200);
      return browser;
    }

    /** The upload as a browser sends it: the CSRF field first, then the file, then the rest. */
    async function upload(browser: Browser, csrf: string | null, fields: Record<string, string>, file: { name: string; data: Buffer } | null) {
      const body = new FormData();
      if (csrf !== null) body.append('csrf', csrf);
      body.append('file', file ? new Blob([file.data]) : new Blob([]), file?.name ?? '');
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      const response = await browser.request(path, { method: 'POST', body, headers: { origin: server.baseUrl } });
      return { status: response.status, body: await response.text() };
    }

    const documentCount = async () =>
      Number(
        (
          await store.db
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', books.org.id)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('an admin uploads a PDF bill through the form; it is stored with its file, listed, and audited', async () => {
      const browser = await signedIn(books.users.admin.email);
      const page = await browser.follow(path);
      assert.equal(page.response.status, 200);
      assert.match(page.body, /<h3 id="upload">Upload a document<\/h3>/);
      assert.match(page.body, /<input id="currency" name="currency" type="text" value="GBP"/, 'the home currency by default');
      const stationery = new RegExp(`<option value="${books.ids.stationery}">Office:Stationery \\(6020\\)</option>`);
      assert.match(page.body, stationery, 'the accounts from accounts.list');
      const sent = await upload(browser, csrfOf(page.body), form({ lineAccount: books.ids.stationery }), { name: 'invoice.pdf', data: PDF });
      assert.equal(sent.status, 201, sent.body.slice(0, 2000));
      assert.match(sent.body, /Added bill PC-114 from Paper Co/);
      assert.match(sent.body, /<dt>Total<\/dt><dd>144.60 GBP<\/dd>/);
      assert.match(sent.body, /<dt>File<\/dt><dd>invoice.pdf<\/dd>/);
      assert.match(sent.body, /<dt>Account<\/dt><dd>Office:Stationery<\/dd>/);
      assert.match(sent.body, new RegExp(`<a href="${path}">Back to documents</a>`));

      const doc = await store.db
        .selectFrom('documents')
        .selectAll()
        .where('organisation_id', '=', books.org.id)
        .where('number', '=', 'PC-114')
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [doc.type, doc.supplier, doc.currency, Number(doc.total), doc.published_at, doc.created_by],
        ['bill', 'Paper Co', 'GBP', 14460, null, books.users.admin.id],
      );
      const file = await store.db.selectFrom('document_files').selectAll().where('document_id', '=', doc.id).executeTakeFirstOrThrow();
      assert.deepEqual([file.file_name, file.content_type], ['invoice.pdf', 'application/pdf']);
      assert.ok(Buffer.from(file.data).equals(PDF), 'the bytes as uploaded');
      const bill = await store.db.selectFrom('bills').selectAll().where('document_id', '=', doc.id).executeTakeFirstOrThrow();
      assert.deepEqual([bill.due_date, bill.tags, bill.latest_note], ['2026-12-02', 'office,december-run', 'Pay with the December run']);
      const line = await store.db.selectFrom('document_coded_lines').selectAll().where('document_id', '=', doc.id).executeTakeFirstOrThrow();
      assert.deepEqual([line.account_id, line.description, Number(line.total)], [books.ids.stationery, 'Copier paper', 14460]);

      const list = await browser.follow(path);
      assert.match(
        list.body,
        new RegExp(
          String.raw`<td data-label="Number">PC-114<\/td>\s*<td data-label="Type">Bill<\/td>\s*<td da` +
            String.raw`ta-label="Supplier">Paper Co<\/td>\s*<td data-label="Date">2 Nov 2026<\/td>\s*<t` +
            String.raw`d class="end" data-label="Total">144.60<\/td>\s*<td data-label="Currency">GBP<\/` +
            String.raw`td>\s*<td data-label="File">invoice.pdf<\/td>`,
        ),
      );
      const audit = await browser.follow(`/orgs/${books.org.id}/audit`);
      assert.match(audit.body, /Uploaded bill PC-114 from Paper Co \(144.60 GBP, file invoice.pdf\)/);
    });

    it('names a bad total and a file that is not a PDF beside their fields, keeps what was typed, and writes nothing', async () => {
      const browser = await signedIn(books.users.admin.email);
      const csrf = csrfOf((await browser.follow(path)).body);
      const before = await documentCount();

      const badTotal = await upload(browser, csrf, form({ number: 'PC-115', supplier: 'Paper & Co <Ltd>', total: '150.00' }), {
        name: 'invoice.pdf',
        data: PDF,
      });
      assert.equal(badTotal.status, 400);
      assert.match(fieldError(badTotal.body, 'total') ?? '', /must equal subtotal plus tax/);
      assert.match(badTotal.body, /<input id="total" name="total" type="text" value="150.00"[^>]* aria-invalid="true" aria-describedby="total-error">/);
      assert.match(badTotal.body, /<input id="supplier" name="supplier" type="text" value="Paper &amp; Co &lt;Ltd&gt;"/, 'kept, and escaped');
      assert.match(badTotal.body, /<textarea id="note" name="note" rows="2">Pay with the December run<\/textarea>/);

      const notNumber = await upload(browser, csrf, form({ number: 'PC-116', subtotal: 'twelve' }), { name: 'invoice.pdf', data: PDF });
      assert.equal(notNumber.status, 400);
      assert.equal(fieldError(notNumber.body, 'subtotal'), 'must be an amount such as 120.50');

      const text = await upload(browser, csrf, form({ number: 'PC-117' }), { name: 'invoice.pdf', data: Buffer.from('just some text, not a PDF') });
      assert.equal(text.status, 400);
      assert.match(fieldError(text.body, 'file') ?? '', /is not a PDF, PNG, JPEG, WebP or HEIC file/);
      assert.match(text.body, /<input id="number" name="number" type="text" value="PC-117"/);

      const none = await upload(browser, csrf, form({ number: 'PC-118', date: 'yesterday' }), null);
      assert.equal(none.status, 400);
      assert.equal(fieldError(none.body, 'file'), 'choose the file of the document');
      assert.match(fieldError(none.body, 'date') ?? '', /must be a date written yyyy-MM-dd/);

      const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024, 0x20)]);
      const tooBig = await upload(browser, csrf, form({ number: 'PC-119' }), { name: 'huge.pdf', data: big });
      assert.equal(tooBig.status, 413);
      assert.equal(fieldError(tooBig.body, 'file'), 'is over 10 MB');
      assert.match(tooBig.body, /<input id="number" name="number" type="text" value="PC-119"/, 'the fields after the file are kept');

      assert.equal(await documentCount(), before, 'nothing written');
      assert.equal(
        (await store.db.selectFrom('documents').select('id').where('number', 'in', ['PC-115', 'PC-116', 'PC-117', 'PC-118', 'PC-119']).execute()).length,
        0,
      );
    });

    it('deletes an unpublished document with the button; without the CSRF token nothing is uploaded or deleted', async () => {
      const browser = await signedIn(books.users.admin.email);
      const csrf = csrfOf((await browser.follow(path)).body);
      const made = await upload(browser, csrf, form({ number: 'DEL-1', type: 'receipt', tags: '', note: '', dueDate: '' }), { name: 'receipt.pdf', data: PDF });
      assert.equal(made.status, 201, made.body.slice(0, 2000));
      const doc = await store.db.selectFrom('documents').select('id').where('number', '=', 'DEL-1').executeTakeFirstOrThrow();
      const page = await browser.follow(path);
      assert.match(page.body, new RegExp(`<form method="post" action="${path}/${doc.id}/delete" class="inline">`));

      const before = await documentCount();
      assert.equal((await upload(browser, null, form({ number: 'NO-CSRF' }), { name: 'x.pdf', data: PDF })).status, 403);
      const refused = await browser.request(`${path}/${doc.id}/delete`, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      assert.equal(refused.status, 403);
      const elsewhere = await browser.request(`${path}/${doc.id}/delete`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf }).toString(),
      });
      assert.equal(elsewhere.status, 403);
      assert.equal(await documentCount(), before);

      const deleted = await browser.submit({}, { action: `${path}/${doc.id}/delete` });
      assert.equal(deleted.response.status, 200);
      assert.match(deleted.body, /Document deleted, with its file and its Bills to Pay entry/);
      assert.equal(await documentCount(), before - 1);
      assert.equal((await store.db.selectFrom('document_files').select('document_id').where('document_id', '=', doc.id).execute()).length, 0);

      const again = await browser.submit({}, { action: `${path}/${doc.id}/delete` });
      assert.equal(again.response.status, 404);
      assert.match(again.body, /Nothing was deleted: no document/);

      const audit = await store.db
        .selectFrom('audit_log')
        .select(['action'])
        .where('organisation_id', '=', books.org.id)
        .where('target', '=', doc.id)
        .execute();
      assert.deepEqual(audit.map((e) => e.action).sort(), ['document.created', 'document.deleted']);
      assert.match((await browser.follow(`/orgs/${books.org.id}/audit`)).body, /Deleted receipt DEL-1 from Paper Co/);
    });

    it("follows the organisation's role permissions: an admin refused documents.create is told so and nothing is written", async () => {
      await setRoleAllowed(store.db, books.org.id, 'documents.create', 'admin', false);
      try {
        const browser = await signedIn(books.users.admin.email);
        const csrf = csrfOf((await browser.follow(path)).body);
        const before = await documentCount();
        const refused = await upload(browser, csrf, form({ number: 'ROLE-1' }), { name: 'invoice.pdf', data: PDF });
        assert.equal(refused.status, 403);
        assert.match(refused.body, /<div class="error" role="alert"><p><strong>Nothing was saved.<\/strong><\/p><p>[^<]*documents.create/);
        assert.match(refused.body, /<input id="number" name="number" type="text" value="ROLE-1"/);
        assert.equal(await documentCount(), before);
      } finally {
        await setRoleAllowed(store.db, books.org.id, 'documents.create', 'admin', true);
      }
    });

    it('is for admins only', async () => {
      const browser = await signedIn(books.users.submitter.email);
      assert.equal((await browser.follow(path)).response.status, 403);
      const before = await documentCount();
      const body = new FormData();
      body.append('csrf', 'x');
      body.append('file', new Blob([PDF]), 'x.pdf');
      assert.equal((await browser.request(path, { method: 'POST', body, headers: { origin: server.baseUrl } })).status, 403);
      assert.equal(await documentCount(), before);
    });
  });
}
