import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { documentsFile } from '../../src/operations/documents-file.js';
import { documentsGet } from '../../src/operations/documents-get.js';
import { provisionOrganisation } from '../../src/provision.js';
import { billRow } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { asUser, call, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

const TODAY = '2026-03-15';
const ORG = 'org_docs_gbp';
const OTHER = 'org_docs_eur';
const SUBMITTER = 'usr_docs_submitter';

// every byte value between a PDF header and trailer, so base64 must carry them all unchanged
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const TOO_LARGE = Buffer.alloc(10 * 1024 * 1024 + 1, 0x25);

// --- fixture builder: rows written straight to the tables, as the document pipeline would leave them ---

interface DocFixture {
  id: string;
  number: string;
  type: string;
  supplier: string;
  date: string;
  dueDate?: string | null;
  currency: string;
  subtotal: number;
  tax: number;
  total: number;
  accountingId?: string | null;
  publishedAt?: string | null;
  file?: { name: string; contentType: string; data: Buffer };
  coded?: {
    id: string;
    lineNo: number;
    description: string;
    accountId?: string | null;
    accountName?: string | null;
    taxCodeId?: string | null;
    class?: string | null;
    customer?: string | null;
    quantity: string;
    subtotal: number;
    tax: number;
    total: number;
  }[];
  invoice?: {
    id: string;
    lineNo: number;
    description: string;
    productCode?: string | null;
    unit?: string | null;
    quantity: string;
    unitPrice: number;
    tax: number;
    amount: number;
  }[];
}

async function addDocument(db: Kysely<Database>, organisationId: string, d: DocFixture): Promise<void> {
  await db
    .insertInto('documents')
    .values({
      id: d.id,
      organisation_id: organisationId,
      number: d.number,
      type: d.type,
      supplier: d.supplier,
      date: d.date,
      due_date: d.dueDate ?? null,
      currency: d.currency,
      subtotal: d.subtotal,
      tax: d.tax,
      total: d.total,
      accounting_transaction_id: d.accountingId ?? null,
      published_at: d.publishedAt ?? null,
      created_at: '2026-02-01T00:00:00.000Z',
    })
    .execute();
  for (const l of d.coded ?? []) {
    await db
      .insertInto('document_coded_lines')
      .values({
        id: l.id,
        document_id: d.id,
        organisation_id: organisationId,
        line_no: l.lineNo,
        description: l.description,
        account_id: l.accountId ?? null,
        account_name: l.accountName ?? null,
        tax_code_id: l.taxCodeId ?? null,
        class: l.class ?? null,
        customer: l.customer ?? null,
        quantity: l.quantity,
        subtotal: l.subtotal,
        tax: l.tax,
        total: l.total,
      })
      .execute();
  }
  for (const l of d.invoice ?? []) {
    await db
      .insertInto('document_invoice_lines')
      .values({
        id: l.id,
        document_id: d.id,
        organisation_id: organisationId,
        line_no: l.lineNo,
        description: l.description,
        product_code: l.productCode ?? null,
        unit: l.unit ?? null,
        quantity: l.quantity,
        unit_price: l.unitPrice,
        tax: l.tax,
        amount: l.amount,
      })
      .execute();
  }
  if (d.file) {
    await db
      .insertInto('document_files')
      .values({
        document_id: d.id,
        organisation_id: organisationId,
        file_name: d.file.name,
        content_type: d.file.contentType,
        size: d.file.data.length,
        data: d.file.data,
      })
      .execute();
  }
}

async function setup(store: Store): Promise<void> {
  const { db } = store;
  await provisionOrganisation(db, { id: ORG, name: 'Paper Trail Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
  await provisionOrganisation(db, { id: OTHER, name: 'Andere GmbH', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });

  await addDocument(db, ORG, {
    id: 'doc_inv',
    number: 'INV-1001',
    type: 'bill',
    supplier: 'Acme Supplies',
    date: '2026-02-01',
    dueDate: '2026-03-01',
    currency: 'GBP',
    subtotal: 10000,
    tax: 2000,
    total: 12000,
    accountingId: 'txn_1',
    publishedAt: '2026-02-02T09:00:00.000Z',
    file: { name: 'INV-1001.pdf', contentType: 'application/pdf', data: PDF },
    // written out of line order: the answer must come back in line order
    coded: [
      {
        id: 'cl_2',
        lineNo: 2,
        description: 'Toner',
        accountId: 'acc_office',
        accountName: 'Office Supplies',
        taxCodeId: 'tax_20',
        customer: 'Big Client plc',
        quantity: '2.5',
        subtotal: 6000,
        tax: 1200,
        total: 7200,
      },
      {
        id: 'cl_1',
        lineNo: 1,
        description: 'Printer paper',
        accountId: 'acc_office',
        accountName: 'Office Supplies',
        taxCodeId: 'tax_20',
        class: 'Admin',
        quantity: '10',
        subtotal: 4000,
        tax: 800,
        total: 4800,
      },
    ],
    invoice: [
      { id: 'il_2', lineNo: 2, description: 'Toner cartridge', quantity: '2.5', unitPrice: 2400, tax: 1200, amount: 6000 },
      { id: 'il_1', lineNo: 1, description: 'A4 paper, box', productCode: 'PAP-A4', unit: 'box', quantity: '10', unitPrice: 400, tax: 800, amount: 4000 },
    ],
  });
  await addDocument(db, ORG, {
    id: 'doc_rcpt',
    number: 'R-55',
    type: 'receipt',
    supplier: 'Tokyo Café',
    date: '2026-02-10',
    currency: 'JPY',
    subtotal: 1364,
    tax: 136,
    total: 1500,
    coded: [{ id: 'cl_3', lineNo: 1, description: 'Coffee', quantity: '1', subtotal: 1364, tax: 136, total: 1500 }],
  });
  await addDocument(db, ORG, {
    id: 'doc_png',
    number: 'EXP-9',
    type: 'expense_claim',
    supplier: 'Carol Jones',
    date: '2026-02-12',
    currency: 'GBP',
    subtotal: 1999,
    tax: 0,
    total: 1999,
    file: { name: 'taxi.png', contentType: 'image/png', data: PNG },
  });
  await addDocument(db, ORG, {
    id: 'doc_big',
    number: 'SCAN-1',
    type: 'bill',
    supplier: 'Scanner Co',
    date: '2026-02-15',
    currency: 'GBP',
    subtotal: 100,
    tax: 0,
    total: 100,
    file: { name: 'scan.tiff', contentType: 'image/tiff', data: TOO_LARGE },
  });
  await addDocument(db, OTHER, {
    id: 'doc_other',
    number: 'RE-1',
    type: 'bill',
    supplier: 'Lieferant AG',
    date: '2026-02-01',
    currency: 'EUR',
    subtotal: 100,
    tax: 19,
    total: 119,
    file: { name: 're.pdf', contentType: 'application/pdf', data: PDF },
  });

  await db
    .insertInto('bills')
    .values(
      billRow({
        id: 'bill_docs',
        organisation_id: ORG,
        document_id: 'doc_inv',
        kind: 'bill',
        supplier: 'Acme Supplies',
        invoice_number: 'INV-1001',
        date: '2026-02-01',
        due_date: '2026-03-01',
        scheduled_date: null,
        tags: '',
        currency: 'GBP',
        original_amount: 12000,
        amount_due: 12000,
        latest_note: null,
        created_at: '2026-02-01T00:00:00.000Z',
      }),
    )
    .execute();

  await createUser(db, { id: SUBMITTER, email: 'submitter@example.test', name: 'Sam Submitter' });
  await setMembership(db, ORG, SUBMITTER, 'submitter');
}

const INV = {
  id: 'doc_inv',
  number: 'INV-1001',
  type: 'bill',
  supplier: 'Acme Supplies',
  date: '2026-02-01',
  dueDate: '2026-03-01',
  currency: 'GBP',
  accountingId: 'txn_1',
  publishedAt: '2026-02-02T09:00:00.000Z',
  accountingLink: null,
  link: 'https://ledgerline.test/v1/operations/documents.file?id=doc_inv',
  subtotal: 100,
  tax: 20,
  total: 120,
  codedLines: [
    {
      id: 'cl_1',
      description: 'Printer paper',
      account: 'Office Supplies',
      accountId: 'acc_office',
      taxCodeId: 'tax_20',
      class: 'Admin',
      customer: null,
      quantity: 10,
      subtotal: 40,
      tax: 8,
      total: 48,
    },
    {
      id: 'cl_2',
      description: 'Toner',
      account: 'Office Supplies',
      accountId: 'acc_office',
      taxCodeId: 'tax_20',
      class: null,
      customer: 'Big Client plc',
      quantity: 2.5,
      subtotal: 60,
      tax: 12,
      total: 72,
    },
  ],
  invoiceLines: [
    { id: 'il_1', description: 'A4 paper, box', productCode: 'PAP-A4', unit: 'box', quantity: 10, unitPrice: 4, tax: 8, amount: 40 },
    { id: 'il_2', description: 'Toner cartridge', productCode: null, unit: null, quantity: 2.5, unitPrice: 24, tax: 12, amount: 60 },
  ],
};

const RCPT = {
  id: 'doc_rcpt',
  number: 'R-55',
  type: 'receipt',
  supplier: 'Tokyo Café',
  date: '2026-02-10',
  dueDate: null,
  currency: 'JPY',
  accountingId: null,
  publishedAt: null,
  accountingLink: null,
  link: null,
  subtotal: 1364,
  tax: 136,
  total: 1500,
  codedLines: [
    {
      id: 'cl_3',
      description: 'Coffee',
      account: null,
      accountId: null,
      taxCodeId: null,
      class: null,
      customer: null,
      quantity: 1,
      subtotal: 1364,
      tax: 136,
      total: 1500,
    },
  ],
  invoiceLines: [],
};

const PNG_DOC = {
  id: 'doc_png',
  number: 'EXP-9',
  type: 'expense_claim',
  supplier: 'Carol Jones',
  date: '2026-02-12',
  dueDate: null,
  currency: 'GBP',
  accountingId: null,
  publishedAt: null,
  accountingLink: null,
  link: 'https://ledgerline.test/v1/operations/documents.file?id=doc_png',
  subtotal: 19.99,
  tax: 0,
  total: 19.99,
  codedLines: [],
  invoiceLines: [],
};

/** The same store, counting the statements run through it. */
function counting(store: Store): { store: Store; count: () => number } {
  const { db, count } = countingQueries(store.db);
  return { store: { ...store, db }, count };
}

describeEachDialect(
  'documents and their files',
  (store) => {
    const get = (input: Record<string, unknown>, text = false) => call(store(), documentsGet, ORG, input, { today: TODAY, text });
    const file = (id: string) => call(store(), documentsFile, ORG, { id }, { today: TODAY });

    it('returns documents in the order asked, each once, with their lines in line order', async () => {
      assert.deepEqual(await get({ ids: 'doc_rcpt, doc_inv ,doc_rcpt,doc_png' }), { documents: [RCPT, INV, PNG_DOC], notFound: [] });
      assert.deepEqual(await get({ ids: 'doc_inv' }, true), { documents: [INV], notFound: [] });
    });

    it("lists ids that are not documents of this organisation, another organisation's included, under notFound", async () => {
      assert.deepEqual(await get({ ids: 'doc_nope,doc_inv,doc_other,doc_nope' }), { documents: [INV], notFound: ['doc_nope', 'doc_other'] });
      const theirs = await call(store(), documentsGet, OTHER, { ids: 'doc_inv,doc_other' }, { today: TODAY });
      assert.deepEqual(theirs.notFound, ['doc_inv']);
      assert.deepEqual(
        theirs.documents.map((d: { id: string; total: number }) => [d.id, d.total]),
        [['doc_other', 1.19]],
      );
    });

    it('reads the lines of every document with the same number of statements, however many documents', async () => {
      const one = counting(store());
      await call(one.store, documentsGet, ORG, { ids: 'doc_inv' }, { today: TODAY });
      const three = counting(store());
      await call(three.store, documentsGet, ORG, { ids: 'doc_inv,doc_rcpt,doc_png' }, { today: TODAY });
      assert.ok(one.count() > 0);
      assert.equal(three.count(), one.count());
    });

    it("reads the organisation's row, then every document asked with its lines in one statement (a round trip or a reader's message each)", async () => {
      const counted = counting(store());
      const got = await call(counted.store, documentsGet, ORG, { ids: 'doc_rcpt,doc_inv' }, { today: TODAY });
      assert.deepEqual(got, { documents: [RCPT, INV], notFound: [] });
      assert.equal(counted.count(), 2);
    });

    it('takes ids with quotes, braces, backslashes, spaces or the word NULL as the texts they are', async () => {
      const odd = ['doc"inv', 'doc{inv}', 'doc\\inv', 'NULL', 'doc inv'];
      assert.deepEqual(await get({ ids: [...odd, 'doc_inv'].join(',') }), { documents: [INV], notFound: odd });
    });

    it('compiles its statements once (store/prepared.ts): the same documents.get or documents.file again builds nothing', async () => {
      const counted = countingQueries(store().db);
      const counting = { ...store(), db: counted.db };
      for (const [op, input] of [
        [documentsGet, { ids: 'doc_inv,doc_rcpt,doc_png' }],
        [documentsFile, { id: 'doc_inv' }],
      ] as const) {
        const first = await call(counting, op, ORG, input, { today: TODAY });
        const [compiledBefore, ranBefore] = [counted.compiled(), counted.count()];
        assert.deepEqual(await call(counting, op, ORG, input, { today: TODAY }), first);
        assert.equal(counted.compiled() - compiledBefore, 0, op.name);
        assert.ok(counted.count() - ranBefore >= 2, 'the statements still run each call');
      }
    });

    it('takes up to 50 distinct ids and refuses 51', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `doc_missing_${i}`);
      const fifty = await get({ ids: [...ids(50), ...ids(10)].join(',') });
      assert.equal(fifty.notFound.length, 50);
      const error = await rejection(() => get({ ids: ids(51).join(',') }));
      assert.equal(error.status, 400);
      assert.equal(error.code, 'invalid_request');
      assert.deepEqual(error.errors, [{ parameter: 'ids', message: 'at most 50 document ids per call (got 51 distinct ids)' }]);
    });

    it('refuses missing or empty ids', async () => {
      const empty = await rejection(() => get({ ids: ' , ,' }));
      assert.equal(empty.status, 400);
      assert.deepEqual(empty.errors, [{ parameter: 'ids', message: 'must name at least one document id' }]);
      const missing = await rejection(() => get({ ids: '' }, true));
      assert.equal(missing.status, 400);
      assert.equal(missing.errors[0].parameter, 'ids');
    });

    it('returns a PDF byte for byte, base64, with its size before base64', async () => {
      const out = await file('doc_inv');
      assert.deepEqual(out, { id: 'doc_inv', fileName: 'INV-1001.pdf', contentType: 'application/pdf', size: PDF.length, data: PDF.toString('base64') });
      assert.ok(Buffer.from(out.data, 'base64').equals(PDF));
      assert.equal(out.size, 9 + 256 + 7);
      const png = await file('doc_png');
      assert.deepEqual([png.contentType, png.size, png.data], ['image/png', 12, PNG.toString('base64')]);
    });

    it('answers 404 not_found for a document without a file and for one not in this organisation', async () => {
      const noFile = await rejection(() => file('doc_rcpt'));
      assert.deepEqual([noFile.status, noFile.code, noFile.message], [404, 'not_found', 'document doc_rcpt has no file']);
      for (const id of ['doc_nope', 'doc_other']) {
        const missing = await rejection(() => file(id));
        assert.deepEqual([missing.status, missing.code, missing.message], [404, 'not_found', `no document ${id} in this organisation`]);
      }
    });

    it('refuses a stored file over 10 MB with 413 file_too_large', async () => {
      const error = await rejection(() => file('doc_big'));
      assert.deepEqual([error.status, error.code], [413, 'file_too_large']);
      assert.match(error.message, /10485761 bytes/);
    });

    it('refuses documents to a submitter by default while bills to pay stay open to them', async () => {
      const principal = asUser(SUBMITTER);
      for (const op of [documentsGet, documentsFile]) {
        const input = op === documentsGet ? { ids: 'doc_inv' } : { id: 'doc_inv' };
        const error = await rejection(() => call(store(), op, ORG, input, { today: TODAY, principal }));
        assert.deepEqual([error.status, error.code], [403, 'role_not_allowed']);
      }
      const bills = await call(store(), billsListToPay, ORG, {}, { today: TODAY, principal });
      assert.deepEqual([bills.count, bills.total, bills.bills[0].invoiceNumber], [1, 120, 'INV-1001']);
    });
  },
  setup,
);
