import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { verify } from '@node-rs/argon2';
import { sql } from 'kysely';
import { ACCOUNT_TYPES } from '../../src/accounting/types.js';
import { parseBillCriteria } from '../../src/domain/bill-criteria.js';
import { addDays } from '../../src/domain/dates.js';
import { convert, fromMajor } from '../../src/domain/money.js';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { billsListSavedFilters } from '../../src/operations/bills-list-saved-filters.js';
import type { Store } from '../../src/store/db.js';
import { call } from '../helpers/call.js';
import { describeEachDialect, openTestStore } from '../helpers/store.js';

const DATE = '2026-11-21';
const summaries = new WeakMap<Store, DemoSummary>();

/** CRC-32 computed bit by bit, independently of the generator's table. */
function slowCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Checks a PDF's header, trailer and every cross-reference offset; returns its inflated page text. */
function checkPdf(data: Buffer): string {
  const text = data.toString('latin1');
  assert.ok(text.startsWith('%PDF-1.4\n'), 'PDF header');
  assert.ok(text.endsWith('%%EOF\n'), 'PDF ends with %%EOF');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
  assert.equal(text.slice(startxref, startxref + 5), 'xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref))!;
  assert.equal(first, '0');
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  entries.slice(1).forEach((entry, i) => {
    assert.match(entry, /^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    assert.equal(text.slice(offset, offset + `${i + 1} 0 obj`.length), `${i + 1} 0 obj`, `object ${i + 1} offset`);
  });
  const stream = /<< \/Length (\d+) \/Filter \/FlateDecode >>\nstream\n/.exec(text)!;
  const start = stream.index + stream[0].length;
  return inflateSync(data.subarray(start, start + Number(stream[1]))).toString('latin1');
}

/** Checks a PNG's signature, chunk order and CRCs, and that its image data inflates to the right size. */
function checkPng(data: Buffer): { width: number; height: number } {
  assert.deepEqual([...data.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; body: Buffer }[] = [];
  for (let at = 8; at < data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    assert.equal(data.readUInt32BE(at + 8 + length), slowCrc32(data.subarray(at + 4, at + 8 + length)), `${type} CRC`);
    chunks.push({ type, body });
    at += 12 + length;
  }
  assert.equal(chunks[0]!.type, 'IHDR');
  assert.equal(chunks.at(-1)!.type, 'IEND');
  const header = chunks[0]!.body;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const bitDepth = header[8]!;
  assert.equal(header[9], 0, 'greyscale');
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.body)));
  const stride = Math.ceil((width * bitDepth) / 8) + 1;
  assert.equal(raw.length, height * stride);
  for (let y = 0; y < height; y++) assert.ok(raw[y * stride]! <= 4, 'row filter type');
  return { width, height };
}

describeEachDialect(
  'demo generator',
  (store) => {
    const summary = () => summaries.get(store())!;
    const db = () => store().db;
    const org = (name: string) => summary().organisations.find((o) => o.name === name)!;

    it('creates three organisations with distinct currencies, time zones and financial years', async () => {
      const rows = await db()
        .selectFrom('organisations')
        .select(['id', 'name', 'home_currency', 'time_zone', 'fy_start_month', 'created_at'])
        .orderBy('name')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.name, r.home_currency, r.time_zone, r.fy_start_month]),
        [
          ['Harbour & Pine Inc.', 'USD', 'America/New_York', 1],
          ['Northwind Studio Ltd', 'GBP', 'Europe/London', 4],
          ['Wattle & Co Pty Ltd', 'AUD', 'Australia/Sydney', 7],
        ],
      );
      assert.equal(summary().from, '2024-09-01');
      for (const r of rows) assert.equal(r.created_at, '2024-09-01T09:00:00.000Z');
      // the summary counts are what was written
      for (const o of summary().organisations) {
        const count = async (table: 'acct_accounts' | 'acct_transactions' | 'acct_lines' | 'bank_transactions' | 'documents' | 'bills') =>
          Number(
            (
              await db()
                .selectFrom(table)
                .select(sql<number>`count(*)`.as('n'))
                .where('organisation_id', '=', o.id)
                .executeTakeFirstOrThrow()
            ).n,
          );
        assert.deepEqual(
          {
            accounts: await count('acct_accounts'),
            transactions: await count('acct_transactions'),
            lines: await count('acct_lines'),
            bankTransactions: await count('bank_transactions'),
            documents: await count('documents'),
            bills: await count('bills'),
          },
          o.counts,
        );
        // "a few thousand ledger lines" each at scale 1
        assert.ok(o.counts.lines > 2_000 && o.counts.lines < 8_000, `${o.name}: ${o.counts.lines} lines`);
      }
    });

    it('balances every ledger transaction, and keeps the monthly totals equal to the lines', async () => {
      const unbalanced = await sql<{ transaction_id: string }>`
        select transaction_id from acct_lines group by transaction_id having sum(amount) <> 0`.execute(db());
      assert.deepEqual(unbalanced.rows, []);
      const orphans = await sql<{ n: number }>`
        select count(*) as n from acct_transactions t where not exists (select 1 from acct_lines l where l.transaction_id = t.id)`.execute(db());
      assert.equal(Number(orphans.rows[0]!.n), 0);
      const fromLines = await sql<{ organisation_id: string; account_id: string; month: string; amount: number }>`
        select organisation_id, account_id, substr(date, 1, 7) as month, sum(amount) as amount
        from acct_lines group by organisation_id, account_id, substr(date, 1, 7)`.execute(db());
      const stored = await db().selectFrom('acct_month_totals').selectAll().execute();
      const key = (r: { organisation_id: string; account_id: string; month: string }) => `${r.organisation_id}/${r.account_id}/${r.month}`;
      const expected = new Map(fromLines.rows.map((r) => [key(r), Number(r.amount)]));
      assert.equal(stored.length, expected.size);
      for (const r of stored) assert.equal(Number(r.amount), expected.get(key(r)), key(r));
    });

    it('has every account type, sub-accounts, numbers, an inactive account and Retained Earnings', async () => {
      for (const o of summary().organisations) {
        const accounts = await db().selectFrom('acct_accounts').selectAll().where('organisation_id', '=', o.id).execute();
        assert.deepEqual(new Set(accounts.map((a) => a.type)), new Set(Object.keys(ACCOUNT_TYPES)));
        assert.ok(accounts.every((a) => a.number !== null && a.classification === ACCOUNT_TYPES[a.type as keyof typeof ACCOUNT_TYPES]));
        assert.ok(accounts.some((a) => a.full_name === 'Office:Software' && a.parent_id !== null));
        assert.ok(accounts.some((a) => a.full_name === 'Equipment:Accumulated Depreciation' && a.type === 'Fixed Asset'));
        assert.ok(accounts.some((a) => a.name === 'Retained Earnings' && a.type === 'Equity'));
        assert.equal(accounts.filter((a) => a.active === 0).length, 1);
      }
    });

    it('opens the books with a balanced journal at the first day', async () => {
      const nw = org('Northwind Studio Ltd');
      const opening = await db()
        .selectFrom('acct_transactions as t')
        .innerJoin('acct_lines as l', 'l.transaction_id', 't.id')
        .innerJoin('acct_accounts as a', 'a.id', 'l.account_id')
        .select(['t.date', 't.type', 'a.full_name', 'l.amount'])
        .where('t.organisation_id', '=', nw.id)
        .where('t.description', '=', 'Opening balances')
        .execute();
      assert.ok(opening.every((l) => l.date === '2024-09-01' && l.type === 'journal'));
      const amount = (name: string) => Number(opening.find((l) => l.full_name === name)!.amount);
      assert.equal(amount('Business Current Account'), 4_200_000);
      assert.equal(amount('Equipment:Accumulated Depreciation'), -600_000);
      assert.equal(amount('Bank Loan'), -4_000_000);
      const first = await db()
        .selectFrom('acct_lines')
        .select(sql<string>`min(date)`.as('d'))
        .where('organisation_id', '=', nw.id)
        .executeTakeFirstOrThrow();
      assert.equal(first.d, '2024-09-01');
    });

    it('posts the recurring rent bill at its exact amount every month', async () => {
      const nw = org('Northwind Studio Ltd');
      const rent = await db()
        .selectFrom('acct_lines as l')
        .innerJoin('acct_accounts as a', 'a.id', 'l.account_id')
        .innerJoin('acct_contacts as c', 'c.id', 'l.contact_id')
        .select(['l.date', 'l.amount'])
        .where('l.organisation_id', '=', nw.id)
        .where('l.type', '=', 'bill')
        .where('a.full_name', '=', 'Accounts Payable')
        .where('c.name', '=', 'Clerkenwell Workspace Ltd')
        .orderBy('l.date')
        .execute();
      // 3,250.00 rent + 420.00 service charge + 20% VAT, on the 20th of each month from September 2024
      assert.equal(rent.length, 27);
      assert.equal(rent[0]!.date, '2024-09-20');
      assert.ok(rent.every((l) => Number(l.amount) === -440_400));
    });

    it('mirrors every bank and card movement with a bank transaction in the account currency', async () => {
      const banks = await db().selectFrom('bank_accounts').selectAll().execute();
      assert.equal(banks.length, 10);
      const ledgerBanks = await db().selectFrom('acct_accounts').select(['id', 'type']).where('type', 'in', ['Bank', 'Credit Card']).execute();
      assert.deepEqual(new Set(banks.map((b) => b.ledger_account_id)), new Set(ledgerBanks.map((a) => a.id)));
      const foreign = banks.filter((b) => b.currency === 'USD' && b.organisation_id === org('Northwind Studio Ltd').id);
      assert.equal(foreign.length, 1);
      for (const bank of banks) {
        const lines = await db()
          .selectFrom('acct_lines')
          .select([sql<number>`count(*)`.as('n'), sql<number>`sum(amount)`.as('home'), sql<number>`sum(amount_in_currency)`.as('cur')])
          .where('organisation_id', '=', bank.organisation_id)
          .where('account_id', '=', bank.ledger_account_id!)
          .executeTakeFirstOrThrow();
        const mirrored = await db()
          .selectFrom('bank_transactions')
          .select([sql<number>`count(*)`.as('n'), sql<number>`sum(home_amount)`.as('home'), sql<number>`sum(amount)`.as('amount')])
          .where('bank_account_id', '=', bank.id)
          .executeTakeFirstOrThrow();
        assert.equal(Number(mirrored.n), Number(lines.n), bank.name);
        assert.equal(Number(mirrored.home), Number(lines.home), bank.name);
        if (bank.currency === 'USD' && bank === foreign[0]) assert.equal(Number(mirrored.amount), Number(lines.cur));
      }
      // money out is negative: card charges
      const charges = await db()
        .selectFrom('bank_transactions as b')
        .innerJoin('bank_accounts as a', 'a.id', 'b.bank_account_id')
        .select(sql<number>`max(b.amount)`.as('max'))
        .where('a.type', '=', 'credit_card')
        .where('b.description', 'not like', 'PAYMENT%')
        .where('b.description', 'not like', 'REFUND%')
        .where('b.description', 'not like', 'CREDIT %')
        .where('b.description', 'not like', 'BALANCE%')
        .executeTakeFirstOrThrow();
      assert.ok(Number(charges.max) < 0);
    });

    it('has bank transactions in every status and origin, with no origin exactly while to reconcile', async () => {
      const rows = await db()
        .selectFrom('bank_transactions')
        .select(['status', 'reconciled_in', 'suggested_match', sql<number>`count(*)`.as('n')])
        .groupBy(['status', 'reconciled_in', 'suggested_match'])
        .execute();
      const combos = new Set(rows.map((r) => `${r.status}/${r.reconciled_in}`));
      assert.deepEqual(combos, new Set(['to_reconcile/null', 'reconciled/service', 'reconciled/accounting_system', 'reconciled/outside_service']));
      assert.ok(rows.some((r) => r.status === 'to_reconcile' && r.suggested_match === 1));
      const serviceWithoutDocument = await db()
        .selectFrom('bank_transactions as b')
        .leftJoin('documents as d', 'd.id', 'b.document_id')
        .select(sql<number>`count(*)`.as('n'))
        .where((eb) =>
          eb.or([
            eb.and([eb('b.reconciled_in', '=', 'service'), eb('d.id', 'is', null)]),
            eb.and([eb('b.reconciled_in', '<>', 'service'), eb('b.document_id', 'is not', null)]),
          ]),
        )
        .executeTakeFirstOrThrow();
      assert.equal(Number(serviceWithoutDocument.n), 0);
      const byAge = async (from: string, to: string) => {
        const r = await db()
          .selectFrom('bank_transactions')
          .select([sql<number>`count(*)`.as('n'), sql<number>`sum(case when status = 'to_reconcile' then 1 else 0 end)`.as('open')])
          .where('date', '>=', from)
          .where('date', '<=', to)
          .executeTakeFirstOrThrow();
        return Number(r.open) / Number(r.n);
      };
      assert.ok((await byAge(addDays(DATE, -14), DATE)) > 0.6, 'recent ones mostly to reconcile');
      assert.ok((await byAge('2024-09-01', addDays(DATE, -60))) < 0.05, 'old ones mostly reconciled');
    });

    it('keeps documents consistent with their lines and their published ledger transactions', async () => {
      const docs = await db().selectFrom('documents').selectAll().execute();
      assert.deepEqual(new Set(docs.map((d) => d.type)), new Set(['bill', 'receipt', 'expense_claim', 'supplier_credit']));
      const coded = await sql<{ document_id: string; subtotal: number; tax: number; total: number }>`
        select document_id, sum(subtotal) as subtotal, sum(tax) as tax, sum(total) as total from document_coded_lines group by document_id`.execute(db());
      const invoice = await sql<{ document_id: string; amount: number; tax: number }>`
        select document_id, sum(amount) as amount, sum(tax) as tax from document_invoice_lines group by document_id`.execute(db());
      const codedBy = new Map(coded.rows.map((r) => [r.document_id, r]));
      const invoiceBy = new Map(invoice.rows.map((r) => [r.document_id, r]));
      for (const d of docs) {
        assert.equal(Number(d.subtotal) + Number(d.tax), Number(d.total));
        assert.equal(Number(codedBy.get(d.id)!.subtotal), Number(d.subtotal));
        assert.equal(Number(codedBy.get(d.id)!.total), Number(d.total));
        assert.equal(Number(invoiceBy.get(d.id)!.amount), Number(d.subtotal));
        assert.equal(Number(invoiceBy.get(d.id)!.tax), Number(d.tax));
        assert.equal(d.accounting_transaction_id === null, d.published_at === null);
      }
      // a published home-currency bill put exactly its total into payables
      const payables = await sql<{ id: string; total: number; payable: number }>`
        select d.id, d.total, sum(l.amount) as payable
        from documents d
        join organisations o on o.id = d.organisation_id
        join acct_transactions t on t.id = d.accounting_transaction_id and t.organisation_id = d.organisation_id
        join acct_lines l on l.transaction_id = t.id
        join acct_accounts a on a.id = l.account_id and a.type = 'Accounts Payable'
        where d.type in ('bill', 'expense_claim') and d.currency = o.home_currency
        group by d.id, d.total`.execute(db());
      assert.ok(payables.rows.length > 100);
      for (const r of payables.rows) assert.equal(Number(r.payable), -Number(r.total), r.id);
      const unpublished = docs.filter((d) => d.accounting_transaction_id === null);
      assert.ok(unpublished.every((d) => d.type === 'receipt' && d.date >= addDays(DATE, -14)));
    });

    it('stores a valid PDF or PNG original for every document', async () => {
      const files = await db()
        .selectFrom('document_files as f')
        .innerJoin('documents as d', 'd.id', 'f.document_id')
        .select(['f.document_id', 'f.file_name', 'f.content_type', 'f.size', 'f.data', 'd.type', 'd.number', 'd.supplier'])
        .execute();
      const documents = await db()
        .selectFrom('documents')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(files.length, Number(documents.n));
      let pdfs = 0;
      let pngs = 0;
      for (const f of files) {
        const data = Buffer.from(f.data);
        assert.equal(Number(f.size), data.length);
        if (f.content_type === 'application/pdf') {
          assert.notEqual(f.type, 'receipt');
          const page = checkPdf(data);
          assert.ok(page.includes(`(${f.number.replace(/[()\\]/g, '\\$&')}) Tj`), `${f.file_name} shows its number`);
          assert.match(page, /\(Total [A-Z]{3}\) Tj/);
          pdfs++;
        } else {
          assert.equal(f.content_type, 'image/png');
          assert.equal(f.type, 'receipt');
          const { width, height } = checkPng(data);
          assert.ok(width > 300 && height > 300);
          pngs++;
        }
      }
      assert.ok(pdfs > 100 && pngs > 100, `${pdfs} PDFs, ${pngs} PNGs`);
    });

    it('owes exactly the outstanding bills and expense claims in payables', async () => {
      for (const o of summary().organisations) {
        const bills = await db().selectFrom('bills').selectAll().where('organisation_id', '=', o.id).execute();
        const payable = await db()
          .selectFrom('acct_lines as l')
          .innerJoin('acct_accounts as a', 'a.id', 'l.account_id')
          .select(sql<number>`sum(l.amount)`.as('balance'))
          .where('l.organisation_id', '=', o.id)
          .where('a.type', '=', 'Accounts Payable')
          .executeTakeFirstOrThrow();
        assert.equal(
          -Number(payable.balance),
          bills.reduce((s, b) => s + Number(b.amount_due), 0),
          o.name,
        );
        assert.deepEqual(new Set(bills.map((b) => b.kind)), new Set(['bill', 'expense_claim']), o.name);
        assert.ok(bills.every((b) => b.tags !== '' && b.document_id !== null && b.date <= DATE));
        assert.ok(bills.filter((b) => b.kind === 'expense_claim').every((b) => / — /.test(b.supplier)));
        assert.ok(
          bills.some((b) => b.due_date < DATE),
          `${o.name} has an overdue bill`,
        );
        assert.ok(
          bills.some((b) => b.due_date >= DATE && b.due_date <= addDays(DATE, 7)),
          `${o.name} has a bill due this week`,
        );
        assert.ok(bills.some((b) => b.scheduled_date !== null && b.scheduled_date > DATE));
        assert.ok(bills.some((b) => b.latest_note !== null));
        const foreign = bills.filter((b) => b.currency !== o.homeCurrency);
        assert.ok(foreign.length > 0, `${o.name} has a foreign-currency bill`);
        for (const b of foreign) {
          const doc = await db()
            .selectFrom('documents as d')
            .innerJoin('acct_transactions as t', 't.id', 'd.accounting_transaction_id')
            .select(['d.total', 'd.currency', 't.exchange_rate', 't.currency as txn_currency'])
            .where('d.id', '=', b.document_id!)
            .executeTakeFirstOrThrow();
          assert.equal(doc.currency, b.currency);
          assert.equal(doc.txn_currency, b.currency);
          assert.equal(Number(b.original_amount), Number(doc.total));
          assert.equal(Number(b.amount_due), convert(Number(b.original_amount), b.currency, doc.exchange_rate, o.homeCurrency));
          assert.notEqual(Number(b.amount_due), Number(b.original_amount));
        }
      }
    });

    it('saves filters whose criteria parse, and each matches some outstanding bills', async () => {
      const nw = org('Northwind Studio Ltd');
      const rows = await db().selectFrom('bill_filters').selectAll().where('organisation_id', '=', nw.id).orderBy('position').execute();
      for (const r of rows) parseBillCriteria(r.criteria);
      assert.deepEqual(rows.map((r) => r.name).slice(0, 6), [
        'Due this week',
        'Overdue',
        'Utilities',
        'Foreign currency bills',
        'Expense claims',
        'Scheduled for payment',
      ]);
      const result = await call(store(), billsListSavedFilters, nw.id, {}, { today: DATE });
      for (const f of result.filters) assert.ok(f.count > 0, `${f.name} matches something`);
      const bills = await db().selectFrom('bills').select(['amount_due']).where('organisation_id', '=', nw.id).execute();
      const overdue = result.filters.find((f: { name: string }) => f.name === 'Overdue');
      assert.ok(fromMajor(overdue.total, 'GBP')! <= bills.reduce((s, b) => s + Number(b.amount_due), 0));
    });

    it('creates users in every role, one of them in all three organisations, all with the demo password', async () => {
      const memberships = await db()
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .innerJoin('organisations as o', 'o.id', 'm.organisation_id')
        .select(['u.email', 'o.name', 'm.role'])
        .execute();
      assert.deepEqual(new Set(memberships.map((m) => m.role)), new Set(['super_admin', 'admin', 'submitter', 'custom']));
      assert.deepEqual(
        memberships.filter((m) => m.email === 'alice@demo.ledgerline.test').map((m) => m.role),
        ['super_admin', 'super_admin', 'super_admin'],
      );
      assert.deepEqual(
        summary()
          .users.map((u) => u.email)
          .sort(),
        [...new Set(memberships.map((m) => m.email))].sort(),
      );
      assert.equal(summary().password, 'ledgerline-demo');
      const users = await db().selectFrom('users').select(['email', 'password_hash']).execute();
      assert.equal(new Set(users.map((u) => u.password_hash)).size, 1);
      assert.ok(await verify(users[0]!.password_hash!, 'ledgerline-demo'));
      assert.ok(!(await verify(users[0]!.password_hash!, 'wrong password')));
      assert.match(users[0]!.password_hash!, /^\$argon2id\$/);
      const holders = await db()
        .selectFrom('bank_account_holders as h')
        .innerJoin('users as u', 'u.id', 'h.user_id')
        .innerJoin('bank_accounts as b', 'b.id', 'h.bank_account_id')
        .select(['u.email', 'b.type', 'b.organisation_id'])
        .execute();
      assert.ok(
        holders.some((h) => h.email === 'carol@demo.ledgerline.test' && h.type === 'credit_card' && h.organisation_id === org('Northwind Studio Ltd').id),
      );
    });

    it('dates nothing after the demo date', async () => {
      const end = `${DATE}T23:59:59.999Z`;
      const latest = async (table: 'acct_transactions' | 'acct_lines' | 'bank_transactions' | 'documents' | 'bills', column: string) =>
        (await sql<{ m: string }>`select max(${sql.ref(column)}) as m from ${sql.table(table)}`.execute(db())).rows[0]!.m;
      for (const table of ['acct_transactions', 'acct_lines', 'bank_transactions', 'documents', 'bills'] as const)
        assert.ok((await latest(table, 'date')) <= DATE, table);
      for (const table of ['bank_transactions', 'documents', 'bills'] as const) assert.ok((await latest(table, 'created_at')) <= end, table);
      assert.ok((await latest('documents', 'published_at')) <= end);
      assert.equal(await latest('acct_lines', 'date'), DATE);
    });
  },
  async (s) => {
    summaries.set(s, await generateDemo(s, { date: DATE, seed: 1, scale: 1 }));
  },
);

describe('demo determinism', () => {
  const stores: Store[] = [];
  before(async () => {
    for (const seed of [1, 1, 2]) {
      const s = await openTestStore('sqlite');
      await generateDemo(s, { date: DATE, seed, scale: 1 });
      stores.push(s);
    }
  });
  after(async () => {
    for (const s of stores) await s.close();
  });

  const TABLES: [string, string, string?][] = [
    // data_version is a random number by design (migration 006): every other column
    ['organisations', 'id', 'id, name, home_currency, time_zone, fy_start_month, accounting_system, accounting_config, created_at'],
    ['users', 'id'],
    ['memberships', 'organisation_id, user_id'],
    ['acct_accounts', 'id'],
    ['acct_contacts', 'id'],
    ['acct_transactions', 'id'],
    ['acct_lines', 'id'],
    ['acct_month_totals', 'organisation_id, account_id, month'],
    ['bank_accounts', 'id'],
    ['bank_transactions', 'id'],
    ['documents', 'id'],
    ['document_coded_lines', 'id'],
    ['document_invoice_lines', 'id'],
    ['document_files', 'document_id'],
    ['bills', 'id'],
    ['bill_filters', 'id'],
  ];
  const rowsOf = async (s: Store, table: string, order: string, columns = '*') =>
    (await sql.raw<Record<string, unknown>>(`select ${columns} from ${table} order by ${order}`).execute(s.db)).rows;

  it('writes identical rows for the same date, seed and scale', async () => {
    for (const [table, order, columns] of TABLES) {
      const a = await rowsOf(stores[0]!, table, order, columns);
      const b = await rowsOf(stores[1]!, table, order, columns);
      assert.ok(a.length > 0, table);
      assert.deepEqual(b, a, table);
    }
  });

  it('writes different books for another seed', async () => {
    const a = await rowsOf(stores[0]!, 'acct_lines', 'id', 'id, amount');
    const c = await rowsOf(stores[2]!, 'acct_lines', 'id', 'id, amount');
    assert.notDeepEqual(c, a);
    const names = async (s: Store) => (await rowsOf(s, 'organisations', 'name', 'name')).map((r) => r.name);
    assert.deepEqual(await names(stores[2]!), await names(stores[0]!));
  });
});
