/**
 * Issue 36, items 4 and 5: every amount and quantity taken in is bounded, with a 400 naming the field
 * (an import: a refusal naming the line), and no stored amount can make a read fail. Sums past 2^53
 * minor units (two bills of 90,000,000,000,000 GBP, written through the store as data from before
 * the bound) once answered 500 in Bills to Pay, the saved filters, aged payables, the balance sheet,
 * the trial balance and the overview; a quantity of 1e-7 was stored and then answered 500, and the
 * retry with the same Idempotency-Key created the document a second time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { sum, toMajor } from '../../src/domain/money.js';
import { importStatement } from '../../src/import/importer.js';
import { importJournal } from '../../src/import/journal/load.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import { provisionOrganisation } from '../../src/provision.js';
import { insertBillFilter } from '../../src/store/bill-filter-writes.js';
import type { Store } from '../../src/store/db.js';
import { insertDocument, type DocumentToStore } from '../../src/store/document-writes.js';
import type { BankAccountRow } from '../../src/store/schema.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { Browser } from '../helpers/browser.js';
import { rejection } from '../helpers/call.js';
import { clientToken, sendJson } from '../helpers/rest-calls.js';
import { startServer } from '../helpers/server.js';
import { DIALECTS, describeEachDialect, openTestStore } from '../helpers/store.js';

/** 90,000,000,000,000.00 GBP in pence: under 2^53 alone, past it twice over. */
const HUGE = 9_000_000_000_000_000;

function bill(overrides: Record<string, unknown> = {}) {
  return {
    type: 'bill',
    number: 'BIG-1',
    supplier: 'Paper Co',
    date: '2026-11-02',
    dueDate: '2026-12-02',
    currency: 'GBP',
    subtotal: 100,
    tax: 20,
    total: 120,
    codedLines: [{ description: 'Paper', subtotal: 100, tax: 20, total: 120 }],
    invoiceLines: [{ description: 'A4 paper, box', quantity: 5, unitPrice: 20, tax: 20, amount: 100 }],
    ...overrides,
  };
}

it('sums and conversions to major units never throw on stored data, and stay exact while they can', () => {
  assert.equal(sum([2 ** 52, 2 ** 52, -(2 ** 52), -(2 ** 52), 7]), 7, 'partial sums past 2^53 still give the exact total');
  assert.equal(sum([HUGE, HUGE]), 18_000_000_000_000_000);
  assert.equal(toMajor(18_000_000_000_000_000, 'GBP'), 180_000_000_000_000);
  assert.equal(toMajor(-18_000_000_000_000_001n, 'GBP'), -180_000_000_000_000.01);
  assert.equal(toMajor(10_000_000_000_000, 'GBP'), 100_000_000_000, 'the bound, 10^13 minor units');
});

for (const dialect of DIALECTS) {
  describe(`amounts and quantities taken in are bounded [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let writer: string;

    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      sendJson(server.baseUrl, method, path, writer, body, headers);
    const create = (body: unknown, headers: Record<string, string> = {}) => send('POST', '/v1/operations/documents.create', body, headers);
    const documents = async () =>
      Number(
        (
          await store.db
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organisation_id', '=', books.org.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const parameters = (answer: { body: any }) => [...new Set((answer.body.errors ?? []).map((e: any) => e.parameter))].sort();

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      server = await startServer(store, { today: TODAY });
      writer = await clientToken(store, server.baseUrl, books.org.id, ['service.read', 'service.write']);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    it('answers an amount past 10^13 minor units with a 400 naming the field, and writes nothing', async () => {
      const before = await documents();
      const big = HUGE / 100;
      const cases: [Record<string, unknown>, string[]][] = [
        [{ subtotal: big, tax: 0, total: big, codedLines: [], invoiceLines: [] }, ['subtotal', 'total']],
        [{ tax: 1e308, total: 1e308 }, ['tax', 'total']],
        // lines that once added up past 2^53 and answered 500
        [
          {
            subtotal: 100_000_000_000_000,
            tax: 0,
            total: 100_000_000_000_000,
            codedLines: [
              { description: 'half', subtotal: 50_000_000_000_000, tax: 0, total: 50_000_000_000_000 },
              { description: 'half', subtotal: 50_000_000_000_000, tax: 0, total: 50_000_000_000_000 },
            ],
            invoiceLines: [],
          },
          ['codedLines.0.subtotal', 'codedLines.0.total', 'codedLines.1.subtotal', 'codedLines.1.total', 'subtotal', 'total'],
        ],
        [{ codedLines: [{ description: 'x', subtotal: big, tax: 20, total: 120 }] }, ['codedLines.0.subtotal']],
        [{ codedLines: [{ description: 'x', subtotal: -big, tax: 20, total: 120 }] }, ['codedLines.0.subtotal']],
        [{ invoiceLines: [{ description: 'x', quantity: 1, unitPrice: 100_000_000_000.01, tax: 20, amount: 100 }] }, ['invoiceLines.0.unitPrice']],
        [{ currency: 'JPY', subtotal: 10_000_000_000_001, tax: 0, total: 10_000_000_000_001, codedLines: [], invoiceLines: [] }, ['subtotal', 'total']],
      ];
      for (const [change, fields] of cases) {
        const answer = await create(bill(change));
        assert.equal(answer.status, 400, `${JSON.stringify(change)}: ${answer.bytes}`);
        assert.equal(answer.body.code, 'invalid_request');
        assert.deepEqual(parameters(answer), fields, `${JSON.stringify(change)}: ${answer.bytes}`);
        assert.match(answer.body.detail, /must be at most (100,000,000,000\.00 GBP|10,000,000,000,000 JPY) in size/);
      }
      assert.equal(await documents(), before);

      // the bound itself is taken, and read back exactly
      const at = await create(bill({ number: 'AT-BOUND', subtotal: 100_000_000_000, tax: 0, total: 100_000_000_000, codedLines: [], invoiceLines: [] }));
      assert.equal(at.status, 201, at.bytes);
      assert.equal(at.body.document.total, 100_000_000_000);
      const changed = await send('PATCH', '/v1/operations/documents.update', { id: at.body.document.id, subtotal: big, total: big });
      assert.equal(changed.status, 400, changed.bytes);
      assert.deepEqual(parameters(changed), ['subtotal', 'total']);
      const removed = await send('DELETE', `/v1/operations/documents.delete?id=${at.body.document.id}`);
      assert.equal(removed.status, 200, removed.bytes);
    });

    it('answers a quantity out of range or past six decimals with a 400 naming the field, and keeps one inside exactly', async () => {
      const before = await documents();
      const cases: [Record<string, unknown>, string[]][] = [
        [{ invoiceLines: [{ description: 'x', quantity: 1e-7, unitPrice: 20, tax: 20, amount: 100 }] }, ['invoiceLines.0.quantity']],
        [{ invoiceLines: [{ description: 'x', quantity: 1e308, unitPrice: 20, tax: 20, amount: 100 }] }, ['invoiceLines.0.quantity']],
        [{ codedLines: [{ description: 'x', quantity: 1e-7, subtotal: 100, tax: 20, total: 120 }] }, ['codedLines.0.quantity']],
        [{ codedLines: [{ description: 'x', quantity: 1e308, subtotal: 100, tax: 20, total: 120 }] }, ['codedLines.0.quantity']],
        [{ codedLines: [{ description: 'x', quantity: 0.1234567, subtotal: 100, tax: 20, total: 120 }] }, ['codedLines.0.quantity']],
        [{ codedLines: [{ description: 'x', quantity: 1_000_000_001, subtotal: 100, tax: 20, total: 120 }] }, ['codedLines.0.quantity']],
        [{ codedLines: [{ description: 'x', quantity: 0, subtotal: 100, tax: 20, total: 120 }] }, ['codedLines.0.quantity']],
      ];
      for (const [change, fields] of cases) {
        const answer = await create(bill(change));
        assert.equal(answer.status, 400, `${JSON.stringify(change)}: ${answer.bytes}`);
        assert.deepEqual(parameters(answer), fields, `${JSON.stringify(change)}: ${answer.bytes}`);
      }
      assert.equal(await documents(), before);

      const edges = await create(
        bill({
          number: 'Q-EDGES',
          codedLines: [
            { description: 'a millionth', quantity: 0.000001, subtotal: 50, tax: 10, total: 60 },
            { description: 'a billion', quantity: 1_000_000_000, subtotal: 50, tax: 10, total: 60 },
          ],
        }),
      );
      assert.equal(edges.status, 201, edges.bytes);
      const got = await send('GET', `/v1/operations/documents.get?ids=${edges.body.document.id}`);
      assert.equal(got.status, 200, got.bytes);
      assert.deepEqual(
        got.body.documents[0].codedLines.map((l: any) => l.quantity),
        [0.000001, 1_000_000_000],
      );
    });

    it("answers the retry of a create whose quantity was refused the same, and creates nothing (the issue's 1e-7)", async () => {
      const before = await documents();
      const body = bill({ number: 'Q-RETRY', codedLines: [{ description: 'x', quantity: 1e-7, subtotal: 100, tax: 20, total: 120 }] });
      const first = await create(body, { 'idempotency-key': `q-retry-${dialect}` });
      const again = await create(body, { 'idempotency-key': `q-retry-${dialect}` });
      assert.equal(first.status, 400, first.bytes);
      assert.equal(again.status, 400, again.bytes);
      assert.equal(await documents(), before, 'no document, let alone two');
    });

    it('keeps the answer with the write: a create that fails after writing is undone, so its retry never creates twice', async () => {
      // something after the document's rows fails (here the audit entry): the create must not leave a document behind it
      if (dialect === 'sqlite') {
        await sql`create trigger audit_down before insert on audit_log begin select raise(abort, 'audit log down'); end`.execute(store.db);
      } else {
        await sql`create function audit_down() returns trigger language plpgsql as $$ begin raise exception 'audit log down'; end $$`.execute(store.db);
        await sql`create trigger audit_down before insert on audit_log for each row execute function audit_down()`.execute(store.db);
      }
      const before = await documents();
      const key = { 'idempotency-key': `after-write-${dialect}` };
      try {
        const first = await create(bill({ number: 'AFTER-WRITE' }), key);
        const again = await create(bill({ number: 'AFTER-WRITE' }), key);
        assert.equal(first.status, 500, first.bytes);
        assert.equal(again.status, 500, again.bytes);
        assert.equal(await documents(), before, 'the failed create left no document, and its retry made none');
      } finally {
        await sql`drop trigger audit_down${sql.raw(dialect === 'sqlite' ? '' : ' on audit_log')}`.execute(store.db);
        if (dialect === 'postgres') await sql`drop function audit_down()`.execute(store.db);
      }
      // with the audit log back, the same key creates the document once and the retry answers it
      const created = await create(bill({ number: 'AFTER-WRITE' }), key);
      const retried = await create(bill({ number: 'AFTER-WRITE' }), key);
      assert.equal(created.status, 201, created.bytes);
      assert.equal(retried.status, 201, retried.bytes);
      assert.deepEqual(retried.body, created.body);
      assert.equal(await documents(), before + 1);
    });

    it('reads a line whose quantity was stored in exponent form before the bound', async () => {
      const answer = await create(bill({ number: 'Q-OLD' }));
      assert.equal(answer.status, 201, answer.bytes);
      const id = answer.body.document.id;
      await store.db.updateTable('document_invoice_lines').set({ quantity: '1e-7' }).where('document_id', '=', id).execute();
      await store.db.updateTable('document_coded_lines').set({ quantity: '1e+308' }).where('document_id', '=', id).execute();
      const got = await send('GET', `/v1/operations/documents.get?ids=${id}`);
      assert.equal(got.status, 200, got.bytes);
      assert.equal(got.body.documents[0].invoiceLines[0].quantity, 1e-7);
      assert.equal(got.body.documents[0].codedLines[0].quantity, 1e308);
    });
  });

  describe(`reads over amounts stored before the bound [${dialect}]`, () => {
    let store: Store;
    let server: Awaited<ReturnType<typeof startServer>>;
    let books: Awaited<ReturnType<typeof buildBooks>>;
    let reader: string;
    const PASSWORD = 'correct horse battery';
    let adminEmail: string;

    /** A bill as documents.create would have stored one before amounts were bounded. */
    const hugeBill = (number: string): DocumentToStore => ({
      type: 'bill',
      number,
      supplier: 'Huge Holdings',
      date: '2026-11-02',
      dueDate: '2026-11-02',
      currency: 'GBP',
      subtotal: HUGE,
      tax: 0,
      total: HUGE,
      codedLines: [
        {
          description: 'everything',
          account_id: null,
          account_name: null,
          tax_code_id: null,
          class: null,
          customer: null,
          quantity: '1',
          subtotal: HUGE,
          tax: 0,
          total: HUGE,
        },
      ],
      invoiceLines: [],
      file: null,
      bill: { dueDate: '2026-11-02', scheduledDate: null, tags: ['huge'], note: null },
    });

    before(async () => {
      store = await openTestStore(dialect);
      books = await buildBooks(store);
      for (const n of ['HUGE-1', 'HUGE-2']) await insertDocument(store.db, books.org.id, hugeBill(n), 'seed', async (_trx, id) => id);
      await insertBillFilter(store.db, books.org.id, { name: 'Huge ones', description: 'tagged huge', criteria: { tagsAny: ['huge'] } });
      await insertBillFilter(store.db, books.org.id, { name: 'Everything', description: 'every bill', criteria: {} });
      const w = new LedgerWriter(store.db, store.dialect, books.org.id, 'GBP');
      for (const date of ['2026-11-05', '2026-11-06']) {
        await w.post({
          type: 'journal',
          date,
          description: 'Huge journal',
          lines: [
            { accountId: books.ids.bank, amount: HUGE },
            { accountId: books.ids.rent, amount: -HUGE },
          ],
        });
        await w.post({
          type: 'bill',
          date,
          number: `HB-${date}`,
          contactId: books.ids.landlord,
          description: 'Huge bill',
          lines: [
            { accountId: books.ids.rent, amount: HUGE },
            { accountId: books.ids.payable, amount: -HUGE },
          ],
        });
      }
      adminEmail = `bounds-admin-${dialect}@example.test`;
      const admin = await createUser(store.db, { email: adminEmail, name: 'Bounds Admin', passwordHash: await hash(PASSWORD) });
      await setMembership(store.db, books.org.id, admin.id, 'admin');
      server = await startServer(store, { today: TODAY });
      reader = await clientToken(store, server.baseUrl, books.org.id, ['service.read']);
    });
    after(async () => {
      await server?.close();
      await store?.close();
    });

    const read = async (path: string) => {
      const answer = await sendJson(server.baseUrl, 'GET', `/v1/operations/${path}`, reader);
      assert.equal(answer.status, 200, `${path}: ${answer.bytes.slice(0, 500)}`);
      return answer.body;
    };

    it('answers Bills to Pay, the saved filters and aged payables with totals past 2^53 minor units', async () => {
      const toPay = await read('bills.list_to_pay');
      assert.ok(toPay.total >= 180_000_000_000_000, String(toPay.total));
      const huge = await read('bills.list_to_pay?filter=Huge%20ones');
      assert.equal(huge.total, 180_000_000_000_000);
      assert.equal(huge.count, 2);
      const filters = await read('bills.list_saved_filters');
      assert.equal(filters.filters.find((f: any) => f.name === 'Huge ones').total, 180_000_000_000_000);
      const aged = await read('reports.aged_payables');
      assert.ok(
        aged.totals.current + aged.totals.days1to30 + aged.totals.days31to60 + aged.totals.days61to90 + aged.totals.days91plus >= 180_000_000_000_000,
        JSON.stringify(aged.totals),
      );
    });

    it('answers the balance sheet, trial balance, profit and loss, cash summary and ledger with such totals', async () => {
      const balanceSheet = await read('reports.balance_sheet');
      assert.ok(JSON.stringify(balanceSheet).includes('18000000000'), 'the bank balance is there, to the nearest double');
      const trial = await read('reports.trial_balance');
      assert.ok(trial.totals.debit >= 180_000_000_000_000, JSON.stringify(trial.totals));
      await read('reports.profit_and_loss');
      await read('reports.cash_summary');
      await read('ledger.account_transactions?account=1000');
      await read('reports.aged_receivables');
    });

    it('shows the overview and the saved filters pages', async () => {
      const browser = new Browser(server.baseUrl);
      await browser.follow('/signin');
      const signedIn = await browser.submit({ email: adminEmail, password: PASSWORD });
      assert.equal(signedIn.response.status, 200);
      for (const page of ['overview', 'bill-filters']) {
        const { response, body } = await browser.follow(`/orgs/${books.org.id}/${page}`);
        assert.equal(response.status, 200, `${page}: ${body.slice(0, 300)}`);
      }
    });
  });
}

describeEachDialect('imports refuse an amount past the bound, naming the line', (store) => {
  let n = 0;
  const newOrg = () => provisionOrganisation(store().db, { name: `Bounds ${++n}`, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  const account = async (organisationId: string, currency: string): Promise<BankAccountRow> => {
    const row: BankAccountRow = {
      id: `bac_bound${++n}`,
      organisation_id: organisationId,
      name: `Bound ${n}`,
      number: '',
      type: 'bank',
      bank: '',
      currency,
      is_default: 0,
      ledger_account_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    await store().db.insertInto('bank_accounts').values(row).execute();
    return row;
  };
  const transactions = async (organisationId: string) =>
    Number(
      (
        await store()
          .db.selectFrom('bank_transactions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('organisation_id', '=', organisationId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const csv = (amounts: string[]) =>
    Buffer.from(['Date,Description,Amount', ...amounts.map((a, i) => `2026-01-${String(i + 10).padStart(2, '0')},Entry ${i},${a}`)].join('\n'));

  it('a bank statement entry past the bound, in its currency or at the rate in the home currency', async () => {
    const org = await newOrg();
    const gbp = await account(org.id, 'GBP');
    const refused = await rejection(() =>
      importStatement(store(), { organisation: org, account: gbp, fileName: 'big.csv', bytes: csv(['-12.50', '90000000000000.00', '100000000000.00']) }),
    );
    assert.ok(refused instanceof ImportRefusal, String(refused?.stack ?? refused));
    assert.equal(refused.code, 'amount_too_large');
    assert.deepEqual(
      refused.problems.map((p: any) => p.where),
      ['line 3'],
    );
    assert.match(refused.message, /line 3: 90,000,000,000,000\.00 GBP is larger than the largest amount taken, 100,000,000,000\.00 GBP/);

    const idr = await account(org.id, 'IDR');
    const atRate = await rejection(() =>
      importStatement(store(), { organisation: org, account: idr, fileName: 'rate.csv', bytes: csv(['1000.00', '50000000000.00']), options: { rate: '2.5' } }),
    );
    assert.ok(atRate instanceof ImportRefusal, String(atRate?.stack ?? atRate));
    assert.equal(atRate.code, 'amount_too_large');
    assert.deepEqual(
      atRate.problems.map((p: any) => p.where),
      ['line 3'],
    );
    assert.equal(await transactions(org.id), 0, 'nothing was written');

    const fine = await importStatement(store(), { organisation: org, account: gbp, fileName: 'ok.csv', bytes: csv(['-12.50', '100000000000.00']) });
    assert.equal(fine.new, 2);
  });

  it('a journal posting past the bound, given or left out to balance the others', async () => {
    const org = await newOrg();
    const journal = (text: string) => importJournal(store(), { organisation: org, fileName: 'big.journal', bytes: Buffer.from(text), allowNewAccounts: true });
    const given = await rejection(() =>
      journal(['2026-01-05 Opening', '    assets:bank    £90000000000000.00', '    equity:capital    £-90000000000000.00', ''].join('\n')),
    );
    assert.ok(given instanceof ImportRefusal, String(given?.stack ?? given));
    assert.equal(given.code, 'amount_too_large');
    assert.match(given.message, /line 2: 90000000000000\.00 GBP is larger than the largest amount taken, 100,000,000,000\.00 GBP/);
    const leftOut = await rejection(() =>
      journal(['2026-01-05 Opening', '    assets:bank    £60000000000.00', '    assets:savings    £60000000000.00', '    equity:capital', ''].join('\n')),
    );
    assert.ok(leftOut instanceof ImportRefusal, String(leftOut?.stack ?? leftOut));
    assert.equal(leftOut.code, 'amount_too_large');
    assert.match(leftOut.message, /line 4: the amount left out balances the others at -120,000,000,000\.00 GBP/);
    const ok = await journal(['2026-01-05 Opening', '    assets:bank    £100000000000.00', '    equity:capital', ''].join('\n'));
    assert.equal(ok.new, 1);
  });
});
