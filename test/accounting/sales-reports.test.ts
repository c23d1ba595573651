/**
 * The issue 15 reads on the builtin book of helpers/books.ts (amounts chosen by hand, pence), with a
 * few customers and bills added here: trial balance, cash summary, contacts search, aged
 * receivables (FIFO allocation) and aged payables (FIFO from the books, with the service's bills), exact figures, on both
 * dialects; every parameter checked.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { bucketOf, daysPastDue } from '../../src/operations/aging.js';
import { contactsSearch } from '../../src/operations/contacts-search.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsAgedPayables } from '../../src/operations/reports-aged-payables.js';
import { reportsAgedReceivables } from '../../src/operations/reports-aged-receivables.js';
import { reportsCashSummary } from '../../src/operations/reports-cash-summary.js';
import { reportsTrialBalance } from '../../src/operations/reports-trial-balance.js';
import { billRow } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks, TODAY } from '../helpers/books.js';
import { salesListInvoices } from '../../src/operations/sales-list-invoices.js';
import { asUser, call, rejection } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

type Books = Awaited<ReturnType<typeof buildBooks>>;
let books: Books;

async function setup(store: Store): Promise<void> {
  books = await buildBooks(store);
  const org = books.org.id;
  const w = new LedgerWriter(store.db, store.dialect, org, 'GBP');
  const chart = await store.db.selectFrom('acct_accounts').select(['id', 'name']).where('organisation_id', '=', org).execute();
  const id = (name: string) => chart.find((a) => a.name === name)!.id;
  const [bank, receivable, sales, vat] = [id('Current Account'), id('Accounts Receivable'), id('Sales'), id('VAT')];
  const shop = (await w.createContact('Corner Shop', 'customer')).id;
  const early = (await w.createContact('Early Payer Ltd', 'customer')).id;
  await w.createContact('Sam Staff', 'employee');
  const invoice = (date: string, number: string, contactId: string, net: number) =>
    w.post({
      type: 'invoice',
      date,
      number,
      contactId,
      description: 'Goods',
      lines: [
        { accountId: receivable, amount: net * 1.2 },
        { accountId: sales, amount: -net },
        { accountId: vat, amount: -net * 0.2 },
      ],
    });
  await invoice('2026-07-01', 'CS-1', shop, 50_000); // 600.00
  await invoice('2026-09-15', 'CS-2', shop, 20_000); // 240.00
  await w.post({
    type: 'payment',
    date: '2026-10-01',
    contactId: shop,
    description: 'CS part paid',
    lines: [
      { accountId: bank, amount: 66_000 },
      { accountId: receivable, amount: -66_000 },
    ],
  });
  // a payment before any invoice: prepaid
  await w.post({
    type: 'payment',
    date: '2026-11-02',
    contactId: early,
    description: 'On account',
    lines: [
      { accountId: bank, amount: 2_500 },
      { accountId: receivable, amount: -2_500 },
    ],
  });
  // the service's own bills to pay (bills.list_to_pay): one per bucket, and an expense claim
  const bill = (bid: string, kind: string, supplier: string, number: string, date: string, due: string, amount: number) =>
    billRow({
      id: bid,
      organisation_id: org,
      document_id: null,
      kind,
      supplier,
      invoice_number: number,
      date,
      due_date: due,
      scheduled_date: null,
      tags: '',
      currency: 'GBP',
      original_amount: amount,
      amount_due: amount,
      latest_note: null,
      created_at: '2026-11-01T09:00:00.000Z',
    });
  await store.db
    .insertInto('bills')
    .values([
      bill('b1', 'bill', 'Landlord Ltd', 'L-26-10', '2026-10-31', '2026-11-30', 200_000), // current
      bill('b2', 'bill', 'Paper Co', 'P-1', '2026-11-20', '2026-11-21', 120_000), // due today: 1 day past due
      bill('b3', 'bill', 'Paper Co', 'P-0', '2026-09-01', '2026-09-21', 10_000), // 62 days
      bill('b4', 'bill', 'Landlord Ltd', 'L-26-02', '2026-02-28', '2026-03-30', 5_000), // 237 days
      bill('b5', 'expense_claim', 'Sam Staff — EC-4', 'EC-4', '2026-10-10', '2026-10-20', 4_321), // 33 days
      bill('b6', 'bill', 'Acme Software', 'AS-0', '2026-11-01', '2026-11-15', 0), // paid: not outstanding
    ])
    .execute();
}

describeEachDialect(
  'sales and aging reads',
  (store) => {
    const run = (op: OrganisationOperation<any, any>, input: Record<string, unknown> = {}, text = false) =>
      call(store(), op, books.org.id, input, { today: TODAY, text });

    it('aging buckets: days past due counted to the end of the date, as GnuCash ages', () => {
      assert.equal(daysPastDue('2026-11-22', '2026-11-21'), 0);
      assert.equal(bucketOf('2026-11-22', '2026-11-21'), 'current');
      assert.equal(bucketOf('2026-11-21', '2026-11-21'), 'days1to30');
      assert.equal(bucketOf('2026-10-23', '2026-11-21'), 'days1to30'); // 30
      assert.equal(bucketOf('2026-10-22', '2026-11-21'), 'days31to60'); // 31
      assert.equal(bucketOf('2026-09-22', '2026-11-21'), 'days61to90'); // 61
      assert.equal(bucketOf('2026-08-24', '2026-11-21'), 'days61to90'); // 90
      assert.equal(bucketOf('2026-08-23', '2026-11-21'), 'days91plus'); // 91
    });

    it("trial balance at today: every account, debits equal credits, earlier years' profit in retained earnings", async () => {
      const r = await run(reportsTrialBalance);
      assert.equal(r.date, TODAY);
      assert.equal(r.financialYearStart, '2026-04-01');
      const rows = Object.fromEntries(r.accounts.map((a: any) => [a.fullName, [a.debit, a.credit]]));
      assert.deepEqual(rows, {
        'Accounts Payable': [0, 5276],
        'Accounts Receivable': [3755, 0], // INV-2 3,600.00 + CS-1 and CS-2 840.00 - 660.00 paid - 25.00 paid on account
        'Bank Fees': [2, 0],
        'Company Card': [0, 20],
        'Cost of Sales': [1200, 0],
        'Current Account': [59617.65, 0],
        'Equipment:Accumulated Depreciation': [0, 500],
        'Interest Income': [0, 5.25],
        Office: [15, 0],
        'Office:Software': [100, 0],
        'Office:Stationery': [41.5, 0],
        Rent: [2000, 0],
        'Retained Earnings': [0, 4499],
        Sales: [0, 3700],
        'Share Capital': [0, 50000],
        VAT: [0, 2730.9],
      });
      assert.deepEqual(r.totals, { debit: 66731.15, credit: 66731.15 });
      assert.equal(r.balanced, true);
      assert.deepEqual(r.notes, []);
    });

    it('trial balance at an earlier date, and includeZero lists the active accounts without a balance', async () => {
      const r = await run(reportsTrialBalance, { date: '2026-03-31' });
      assert.equal(r.financialYearStart, '2025-04-01');
      const rows = Object.fromEntries(r.accounts.map((a: any) => [a.fullName, [a.debit, a.credit]]));
      // FY 2025-26: sales 10,000.00, wages 3,000.00, rent 2,000.00, depreciation 500.00; earlier: the 1.00 leap day fee
      assert.deepEqual(
        [rows.Sales, rows.Wages, rows.Rent, rows.Depreciation, rows['Retained Earnings'], rows['Bank Fees']],
        [[0, 10000], [3000, 0], [2000, 0], [500, 0], [1, 0], undefined],
      );
      assert.equal(r.totals.debit, r.totals.credit);
      const all = await run(reportsTrialBalance, { date: '2026-03-31', includeZero: true });
      assert.ok(all.accounts.some((a: any) => a.fullName === 'Equipment' && a.debit === 0 && a.credit === 0));
      assert.ok(!all.accounts.some((a: any) => a.name === 'Old Expenses'), 'inactive accounts without a balance stay out');
    });

    it('cash summary: start, in, out and end per bank and card account, exact', async () => {
      const r = await run(reportsCashSummary, { from: '2026-11-01', to: '2026-11-21' });
      assert.deepEqual([r.period.from, r.period.to], ['2026-11-01', '2026-11-21']);
      assert.deepEqual(
        r.accounts.map((a: any) => [a.name, a.type, a.start, a.in, a.out, a.end]),
        [
          // chart order; a card's balance owed is negative
          ['Company Card', 'Credit Card', -20, 0, 0, -20],
          // in: interest 5.25 and Early Payer's 25.00; out: the cheque 15.00 and the fee 2.00
          ['Current Account', 'Bank', 59604.4, 30.25, 17, 59617.65],
        ],
      );
      assert.deepEqual(r.totals, { start: 59584.4, in: 30.25, out: 17, end: 59597.65 });
      const sept = await run(reportsCashSummary, { from: '2026-09-01', to: '2026-09-30' });
      assert.deepEqual(
        sept.accounts.find((a: any) => a.name === 'Company Card'),
        {
          id: sept.accounts.find((a: any) => a.name === 'Company Card').id,
          name: 'Company Card',
          fullName: 'Company Card',
          number: '2100',
          type: 'Credit Card',
          start: 0,
          in: 10,
          out: 30,
          end: -20,
        },
      );
      const month = await run(reportsCashSummary);
      assert.deepEqual([month.period.from, month.period.to], ['2026-11-01', '2026-11-30']);
    });

    it('contacts search: name words, kind, spend and sales over the period, pages with a total', async () => {
      const all = await run(contactsSearch);
      assert.equal(all.total, 7);
      assert.deepEqual(
        all.contacts.map((c: any) => [c.name, c.kind, c.spend, c.sales]),
        [
          ['Acme Software', 'supplier', 96, 0],
          ['Big Client plc', 'customer', 0, 3000],
          ['Corner Shop', 'customer', 0, 700],
          ['Early Payer Ltd', 'customer', 0, 0],
          ['Landlord Ltd', 'supplier', 2000, 0],
          ['Paper Co', 'supplier', 1260.5, 0],
          ['Sam Staff', 'employee', 0, 0],
        ],
      );
      assert.deepEqual(all.totals, { spend: 3356.5, sales: 3700 });
      const customers = await run(contactsSearch, { kind: 'customer', limit: 2, page: 2 });
      assert.deepEqual([customers.total, customers.hasMore, customers.contacts.map((c: any) => c.name)], [3, false, ['Early Payer Ltd']]);
      assert.deepEqual(customers.totals, { spend: 0, sales: 3700 });
      const lastYear = await run(contactsSearch, { search: 'client', period: 'last_year' });
      assert.deepEqual(
        lastYear.contacts.map((c: any) => [c.name, c.sales]),
        [['Big Client plc', 10000]],
      );
      assert.deepEqual(lastYear.period, { from: '2025-04-01', to: '2026-03-31', label: lastYear.period.label });
      const none = await run(contactsSearch, { search: 'nobody here' });
      assert.deepEqual([none.total, none.contacts, none.totals], [0, [], { spend: 0, sales: 0 }]);
    });

    it('aged receivables on the builtin ledger: payments applied oldest invoice first, prepaid shown, equal to the ledger', async () => {
      const r = await run(reportsAgedReceivables, { detail: true });
      assert.deepEqual(
        r.contacts.map((c: any) => [c.contact, c.prepaid, c.current, c.days1to30, c.days31to60, c.days61to90, c.days91plus, c.total]),
        [
          ['Big Client plc', 0, 0, 3600, 0, 0, 0, 3600],
          ['Corner Shop', 0, 0, 0, 0, 180, 0, 180], // CS-1 600.00 paid, 60.00 of CS-2 240.00 paid
          ['Early Payer Ltd', -25, 0, 0, 0, 0, 0, -25],
        ],
      );
      assert.deepEqual(r.contacts[1].items, [
        { number: 'CS-2', date: '2026-09-15', dueDate: '2026-09-15', daysPastDue: 68, bucket: 'days61to90', amount: 180 },
      ]);
      assert.deepEqual(r.totals, { prepaid: -25, current: 0, days1to30: 3600, days31to60: 0, days61to90: 180, days91plus: 0, total: 3755 });
      assert.equal(r.ledgerBalance, 3755);
      assert.deepEqual(r.notes, []);
      assert.equal(r.count, 3);
      // before the payments: CS-1 is 92 days old at 30 September
      const sept = await run(reportsAgedReceivables, { date: '2026-09-30', contact: 'corner' });
      assert.deepEqual(
        sept.contacts.map((c: any) => [c.contact, c.days1to30, c.days91plus, c.total]),
        [['Corner Shop', 240, 600, 840]],
      );
      assert.equal(sept.contacts[0].items, null);
      const page = await run(reportsAgedReceivables, { limit: 1, page: 2 });
      assert.deepEqual([page.count, page.hasMore, page.contacts.map((c: any) => c.contact), page.totals.total], [3, true, ['Corner Shop'], 3755]);
    });

    it('sales.list_invoices: each invoice with what is still owed, agreeing with aged receivables; status, customer and pages', async () => {
      const all = await run(salesListInvoices, { period: 'custom', from: '2025-01-01', to: TODAY, limit: 500 });
      const aged = await run(reportsAgedReceivables, { detail: true });
      const openItems = aged.contacts.flatMap((c: any) => (c.items ?? []).map((i: any) => [c.contact, i.number, i.amount]));
      assert.deepEqual(
        all.invoices
          .filter((i: any) => i.amountDue > 0)
          .map((i: any) => [i.customer, i.number, i.amountDue])
          .sort(),
        openItems.sort(),
        "what each invoice still owes is the aged report's open item",
      );
      const corner = Object.fromEntries(
        all.invoices.filter((i: any) => i.customer === 'Corner Shop').map((i: any) => [i.number, [i.total, i.amountDue, i.status]]),
      );
      assert.deepEqual(corner, { 'CS-1': [600, 0, 'paid'], 'CS-2': [240, 180, 'part_paid'] });
      assert.equal(all.totals.count, all.invoices.length);
      const open = await run(salesListInvoices, { period: 'custom', from: '2025-01-01', to: TODAY, status: 'open' });
      assert.ok(open.invoices.length > 0 && open.invoices.every((i: any) => i.status !== 'paid'));
      assert.equal(open.totals.amountDue, all.totals.amountDue, 'paid invoices owe nothing');
      const one = await run(salesListInvoices, { period: 'custom', from: '2025-01-01', to: TODAY, customer: 'corner', limit: 1, page: 2 });
      assert.deepEqual([one.totals.count, one.hasMore, one.invoices.map((i: any) => i.number)], [2, false, ['CS-1']]);
      const bad = await rejection(() => run(salesListInvoices, { status: 'overdue', limit: 0 }));
      assert.deepEqual(bad.errors.map((e: any) => e.parameter).sort(), ['limit', 'status']);
    });

    it("aged payables: the books' bills by supplier and bucket (first in first out), merged with the service's bills to pay, each bill once", async () => {
      // the books owe 5,276.00: Landlord Ltd L-26-02 and L-26-10 (2,000.00 each), Paper Co P-1 1,200.00,
      // Acme Software AS-2026-08 96.00 less CN-5 20.00; the service's L-26-10, P-1 and L-26-02 are those
      // bills (same supplier and number: their due dates are the service's), its P-0 and EC-4 are not in the books
      const r = await run(reportsAgedPayables);
      assert.deepEqual(
        r.contacts.map((c: any) => [c.contact, c.current, c.days1to30, c.days31to60, c.days61to90, c.days91plus, c.total]),
        [
          ['Acme Software', 0, 0, 0, 0, 76, 76],
          ['Landlord Ltd', 2000, 0, 0, 0, 2000, 4000],
          ['Paper Co', 0, 1200, 0, 100, 0, 1300],
          ['Sam Staff', 0, 0, 43.21, 0, 0, 43.21],
        ],
      );
      assert.deepEqual(r.totals, { prepaid: 0, current: 2000, days1to30: 1200, days31to60: 43.21, days61to90: 100, days91plus: 2076, total: 5419.21 });
      assert.equal(r.ledgerBalance, 5276);
      assert.deepEqual(r.notes, ["2 of the service's bill(s), 143.21 GBP, are not in the books yet and are aged as they stand."]);
      const past = await run(reportsAgedPayables, { date: '2026-10-31', detail: true });
      assert.deepEqual(past.totals.total, 2000 + 2000 + 76 + 100 + 43.21, 'P-1 (2026-11-20) is after the date, in the books and in the service');
      assert.deepEqual(
        past.contacts.find((c: any) => c.contact === 'Landlord Ltd').items.map((i: any) => [i.number, i.dueDate, i.bucket, i.amount]),
        [
          ['L-26-02', '2026-03-30', 'days91plus', 2000],
          ['L-26-10', '2026-11-30', 'current', 2000],
        ],
      );
      assert.equal(past.ledgerBalance, 4076);
      assert.match(past.notes.join(' '), /what is due on each today, 2026-11-21/);
    });

    it('every parameter checked, with the reason', async () => {
      const bad = async (op: OrganisationOperation<any, any>, input: Record<string, unknown>, text = false) => {
        const e = await rejection(() => run(op, input, text));
        assert.equal(e.code, 'invalid_request');
        return Object.fromEntries(e.errors.map((d: any) => [d.parameter, d.message]));
      };
      assert.deepEqual(await bad(reportsTrialBalance, { date: '2026-02-30', colour: 'red' }), {
        date: 'must be a calendar date written yyyy-MM-dd',
        colour: 'unknown parameter',
      });
      assert.deepEqual(await bad(reportsTrialBalance, { includeZero: 'maybe' }, true), { includeZero: 'must be true or false' });
      assert.deepEqual(await bad(reportsCashSummary, { from: '2026-11-30', to: '2026-11-01' }), { to: 'must not be before from (2026-11-30)' });
      assert.deepEqual(await bad(reportsCashSummary, { period: 'this_month', from: '2026-11-01' }), { from: 'applies only with period custom' });
      assert.deepEqual(await bad(reportsCashSummary, { period: 'fortnight' }), {
        period: 'must be one of this_month, last_month, this_quarter, last_quarter, ytd, last_year, custom',
      });
      assert.deepEqual(await bad(contactsSearch, { kind: 'vendor', limit: 0, page: 'two' }, true), {
        kind: 'must be supplier, customer or employee',
        limit: 'must be a whole number from 1 to 500',
        page: 'must be a whole number from 1 to 1000000',
      });
      assert.deepEqual(await bad(reportsAgedReceivables, { date: 'yesterday', limit: 501 }), {
        date: 'must be a calendar date written yyyy-MM-dd',
        limit: 'must be a whole number from 1 to 500',
      });
      assert.deepEqual(await bad(reportsAgedPayables, { detail: 'yes', contact: 'x'.repeat(201) }), {
        detail: 'must be true or false',
        contact: 'must be at most 200 characters',
      });
    });

    it('admin roles only: a submitter is refused', async () => {
      for (const op of [reportsTrialBalance, reportsCashSummary, contactsSearch, reportsAgedPayables, reportsAgedReceivables]) {
        const e = await rejection(() => call(store(), op, books.org.id, {}, { today: TODAY, principal: asUser(books.users.submitter.id) }));
        assert.equal(e.code, 'role_not_allowed', op.name);
        await call(store(), op, books.org.id, {}, { today: TODAY, principal: asUser(books.users.admin.id) });
      }
    });
  },
  setup,
);
