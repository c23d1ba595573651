/**
 * A GnuCash book's payables through the service: bills.list_to_pay against GnuCash's own Payable
 * Aging report of the same book and date (both made by GnuCash: scripts/gnucash/make-payables.py
 * and make-aging-reports.sh), bill by bill and supplier by supplier; the service's own bills and
 * documents merged without counting one it published twice; the book's documents in documents.get
 * and documents.file.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { billsListSavedFilters } from '../../src/operations/bills-list-saved-filters.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { reportsAgedPayables } from '../../src/operations/reports-aged-payables.js';
import { documentsFile } from '../../src/operations/documents-file.js';
import { documentsGet } from '../../src/operations/documents-get.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { provisionOrganisation } from '../../src/provision.js';
import { billRow } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import { call, rejection } from '../helpers/call.js';
import { agingColumn, AGING_COLUMNS, readAgingReport, type AgingColumn } from '../helpers/gnucash-aging.js';
import { GNUCASH_FIXTURES } from '../helpers/gnucash-reports.js';
import { describeEachDialect } from '../helpers/store.js';

const REPORT_DATE = '2026-06-30';
const BOOK = join(GNUCASH_FIXTURES, 'payables.gnucash');
const ORG = 'org_gnc_payables';
const MERGED = 'org_gnc_merged';
const BUILTIN = 'org_builtin_payables';
const BROKEN = 'org_gnc_missing_book';
const FOREIGN = 'org_gnc_foreign_bills';

/** GnuCash's ids of the book's documents, by their GnuCash document id (B-NW-2, EV-1, …). */
function bookDocuments(): Map<string, { guid: string; postTxn: string }> {
  const db = new SqliteDatabase(BOOK, { readonly: true });
  try {
    const rows = db.prepare(`SELECT id, guid, post_txn FROM invoices`).all() as { id: string; guid: string; post_txn: string }[];
    return new Map(rows.map((r) => [r.id, { guid: r.guid, postTxn: r.post_txn }]));
  } finally {
    db.close();
  }
}
const DOCS = bookDocuments();
const doc = (id: string) => DOCS.get(id)!;

async function gnucashOrganisation(store: Store, id: string, bookPath: string): Promise<void> {
  await provisionOrganisation(store.db, { id, name: id, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'gnucash' });
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify({ bookPath }) })
    .where('id', '=', id)
    .execute();
}

async function setup(store: Store): Promise<void> {
  await gnucashOrganisation(store, ORG, BOOK);
  await gnucashOrganisation(store, MERGED, BOOK);
  await gnucashOrganisation(store, BROKEN, join(GNUCASH_FIXTURES, 'no-such-book.gnucash'));
  await gnucashOrganisation(store, FOREIGN, join(GNUCASH_FIXTURES, 'payables-foreign.gnucash'));
  await provisionOrganisation(store.db, { id: BUILTIN, name: 'Builtin Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  const { db } = store;
  // MERGED: the service published Northwind's NW-1290 to the book (its document carries the posted
  // transaction's guid) and holds the bill with its own schedule and tags; plus a bill of its own
  await db
    .insertInto('documents')
    .values({
      id: 'doc_nw1290',
      organisation_id: MERGED,
      number: 'NW-1290',
      type: 'bill',
      supplier: 'Northwind Software Ltd',
      date: '2026-05-11',
      due_date: '2026-06-10',
      currency: 'GBP',
      subtotal: 24_690,
      tax: 2_469,
      total: 27_159,
      accounting_transaction_id: doc('B-NW-2').postTxn,
      published_at: '2026-05-12T09:00:00.000Z',
      created_at: '2026-05-11T09:00:00.000Z',
    })
    .execute();
  const bill = (id: string, documentId: string | null, supplier: string, number: string, due: string, amount: number, tags: string) =>
    billRow({
      id,
      organisation_id: MERGED,
      document_id: documentId,
      kind: 'bill',
      supplier,
      invoice_number: number,
      date: '2026-05-11',
      due_date: due,
      scheduled_date: '2026-07-01',
      tags,
      currency: 'GBP',
      original_amount: amount,
      amount_due: amount,
      latest_note: 'Approved by Sam',
      created_at: '2026-05-11T09:00:00.000Z',
    });
  await db
    .insertInto('bills')
    .values(bill('bill_nw1290', 'doc_nw1290', 'Northwind Software Ltd', 'NW-1290', '2026-06-10', 27_159, 'software'))
    .execute();
  await db
    .insertInto('bills')
    .values(bill('bill_own', null, 'Acme Cleaning', 'AC-77', '2026-07-05', 9_000, 'office'))
    .execute();
  await db
    .insertInto('bill_filters')
    .values([
      {
        id: 'flt_claims',
        organisation_id: MERGED,
        name: 'Expense claims',
        description: 'Staff claims',
        criteria: JSON.stringify({ kinds: ['expense_claim'] }),
        position: 1,
      },
      {
        id: 'flt_nw',
        organisation_id: MERGED,
        name: 'Northwind',
        description: 'One supplier',
        criteria: JSON.stringify({ suppliers: ['Northwind Software Ltd'] }),
        position: 2,
      },
    ])
    .execute();
}

const pence = (major: number) => Math.round(major * 100);

describeEachDialect(
  'GnuCash payables',
  (store) => {
    const run = <T = any>(op: OrganisationOperation<any, any>, org: string, input: Record<string, unknown> = {}) =>
      call<T>(store(), op, org, input, { today: REPORT_DATE });

    it("bills.list_to_pay equals GnuCash's Payable Aging report at 2026-06-30, bill by bill and supplier by supplier, to the penny", async (t) => {
      const report = readAgingReport('payable-aging-2026-06-30');
      const listed = await run(billsListToPay, ORG);
      assert.equal(listed.filter, null);
      assert.equal(listed.note, null);
      // the company is the supplier; for an expense claim the employee before the claim
      const companyOf = (supplier: string) => supplier.split(' — ')[0]!;
      const ours = new Map<string, Map<AgingColumn, { bills: any[]; amount: number }>>();
      for (const b of listed.bills) {
        const company = ours.get(companyOf(b.supplier)) ?? new Map();
        ours.set(companyOf(b.supplier), company);
        for (const column of [agingColumn(b.dueDate, REPORT_DATE), 'Total'] as AgingColumn[]) {
          const cell = company.get(column) ?? { bills: [], amount: 0 };
          cell.bills.push(b);
          cell.amount += pence(b.amountDue);
          company.set(column, cell);
        }
      }
      assert.deepEqual([...ours.keys()].sort(), [...report.companies.keys()].sort(), 'the same suppliers');
      for (const [company, columns] of report.companies) {
        for (const column of AGING_COLUMNS) {
          const theirs = columns.get(column)!;
          const cell = ours.get(company)!.get(column);
          assert.equal(cell?.amount ?? 0, theirs, `${company}, ${column}`);
          // every supplier's open bills are in different columns: a column is one bill
          if (column !== 'Total' && theirs !== 0) assert.equal(cell!.bills.length, 1, `${company}, ${column}: one bill`);
          t.diagnostic(
            `${company.padEnd(24)} ${column.padEnd(11)} GnuCash ${(theirs / 100).toFixed(2).padStart(9)}  ` +
              `Ledgerline ${((cell?.amount ?? 0) / 100).toFixed(2).padStart(9)}${
                cell && column !== 'Total' ? `  (${cell.bills.map((b) => b.invoiceNumber).join(', ')})` : ''
              }`,
          );
        }
      }
      assert.equal(pence(listed.total), report.total.get('Total'));
      assert.equal(report.total.get('Total'), 324_866);
      assert.equal(listed.count, 7);
      t.diagnostic(`total: GnuCash ${(report.total.get('Total')! / 100).toFixed(2)}, Ledgerline ${listed.total.toFixed(2)} over ${listed.count} bills`);
    });

    it("lists each bill with the book's own facts: number, dates, original amount, kind and notes", async () => {
      const listed = await run(billsListToPay, ORG);
      const rent = listed.bills.find((b: any) => b.invoiceNumber === 'CP-2026-Q2');
      assert.deepEqual(rent, {
        supplier: 'City Properties Ltd',
        invoiceNumber: 'CP-2026-Q2',
        type: 'bill',
        date: '2026-04-15',
        dueDate: '2026-05-15',
        scheduledDate: null,
        // 3,024.00 less the 300.00 credit note applied to it and the 1,000.00 paid
        tags: '',
        currency: 'GBP',
        originalAmount: null,
        amountDue: 1724,
        latestNote: 'Quarterly rent, standing agreement',
      });
      const claim = listed.bills.find((b: any) => b.type === 'expense_claim');
      assert.equal(claim.supplier, 'Jane Smith — EV-1');
      assert.equal(claim.amountDue, 119);
      // paid in full and credit notes are not bills to pay
      assert.ok(!listed.bills.some((b: any) => b.invoiceNumber === 'NW-1150' || b.invoiceNumber === 'CP-CN-7'));
      // payment order: due date, then supplier
      assert.deepEqual(
        listed.bills.map((b: any) => b.dueDate),
        [...listed.bills.map((b: any) => b.dueDate)].sort(),
      );
    });

    it("a bill the service published to the book is listed once, as the service holds it; the service's own bills join the book's", async () => {
      const listed = await run(billsListToPay, MERGED);
      const nw1290 = listed.bills.filter((b: any) => b.invoiceNumber === 'NW-1290');
      assert.equal(nw1290.length, 1);
      assert.equal(nw1290[0].tags, 'software');
      assert.equal(nw1290[0].scheduledDate, '2026-07-01');
      assert.ok(listed.bills.some((b: any) => b.invoiceNumber === 'AC-77'));
      assert.equal(listed.count, 8);
      assert.equal(pence(listed.total), 324_866 + 9_000);
      const filters = await run(billsListSavedFilters, MERGED);
      assert.deepEqual(
        filters.filters.map((f: any) => [f.name, f.count, f.total]),
        [
          ['Expense claims', 1, 119],
          ['Northwind', 3, 1150.58],
        ],
      );
      const northwind = await run(billsListToPay, MERGED, { filter: 'Northwind' });
      assert.equal(northwind.count, 3);
      assert.equal(northwind.total, 1150.58);
    });

    it("documents.get returns the book's documents: header, posted splits as coded lines, entries as invoice lines", async () => {
      const id = `gnucash:${doc('B-NW-2').guid}`;
      const credit = `gnucash:${doc('CN-CP-1').guid}`;
      const answer = await run(documentsGet, ORG, { ids: `${id},${credit},gnucash:0000,doc_nowhere` });
      assert.deepEqual(answer.notFound, ['gnucash:0000', 'doc_nowhere']);
      const [bill, note] = answer.documents;
      assert.equal(bill.id, id);
      assert.equal(bill.number, 'NW-1290');
      assert.equal(bill.type, 'bill');
      assert.equal(bill.supplier, 'Northwind Software Ltd');
      assert.equal(bill.accountingId, doc('B-NW-2').postTxn);
      assert.deepEqual([bill.date, bill.dueDate, bill.currency, bill.link], ['2026-05-11', '2026-06-10', 'GBP', null]);
      // 3 seats at 41.15 with 20% VAT, and an untaxed session at 123.45
      assert.deepEqual([bill.subtotal, bill.tax, bill.total], [246.9, 24.69, 271.59]);
      assert.deepEqual(
        bill.invoiceLines.map((l: any) => [l.description, l.quantity, l.unitPrice, l.tax, l.amount]),
        [
          ['Extra seats', 3, 41.15, 24.69, 123.45],
          ['Onboarding session', 1, 123.45, 0, 123.45],
        ],
      );
      assert.deepEqual(bill.codedLines.map((l: any) => [l.account, l.subtotal, l.tax, l.total]).sort(), [
        ['Expenses:Software', 246.9, 0, 246.9],
        ['Liabilities:VAT', 0, 24.69, 24.69],
      ]);
      assert.equal(note.type, 'supplier_credit');
      assert.equal(note.number, 'CP-CN-7');
      assert.deepEqual([note.subtotal, note.tax, note.total], [250, 50, 300]);
      assert.deepEqual(
        note.invoiceLines.map((l: any) => [l.quantity, l.amount]),
        [[1, 250]],
      );
    });

    it(
      "the service's document and the book's are each found by their own id, naming the same transaction; a builtin organisation has no gnucash: " +
        'documents',
      async () => {
        const own = await run(documentsGet, MERGED, { ids: `doc_nw1290,gnucash:${doc('B-NW-2').guid}` });
        assert.deepEqual(
          own.documents.map((d: any) => [d.id, d.accountingId]),
          [
            ['doc_nw1290', doc('B-NW-2').postTxn],
            [`gnucash:${doc('B-NW-2').guid}`, doc('B-NW-2').postTxn],
          ],
        );
        const builtin = await run(documentsGet, BUILTIN, { ids: `gnucash:${doc('B-NW-2').guid}` });
        assert.deepEqual(builtin.notFound, [`gnucash:${doc('B-NW-2').guid}`]);
      },
    );

    it("ledger lines of a book's bill carry its document (gnucash:<guid>); the service's document where it published the bill", async () => {
      const ledger = (org: string) => run(ledgerAccountTransactions, org, { account: 'Software', from: '2026-05-01', to: '2026-05-31' });
      const fromBook = (await ledger(ORG)).transactions.find((t: any) => t.number === 'NW-1290');
      assert.equal(fromBook.document.id, `gnucash:${doc('B-NW-2').guid}`);
      assert.deepEqual([fromBook.document.type, fromBook.document.total, fromBook.document.lines.length], ['bill', 271.59, 2]);
      assert.equal(fromBook.link, `https://ledgerline.test/v1/operations/documents.get?ids=gnucash%3A${doc('B-NW-2').guid}`);
      const published = (await ledger(MERGED)).transactions.find((t: any) => t.number === 'NW-1290');
      assert.equal(published.document.id, 'doc_nw1290');
    });

    it('documents.file for a book document: 404 not_found saying GnuCash keeps no file', async () => {
      const withLink = await rejection(() => run(documentsFile, ORG, { id: `gnucash:${doc('B-NW-3').guid}` }));
      assert.equal(withLink.code, 'not_found');
      assert.match(
        withLink.message,
        /is kept in the accounting system \(gnucash\), which holds no file for it; the document link recorded with it is not fetched$/,
      );
      assert.doesNotMatch(withLink.message, /srv\/scans/);
      const plain = await rejection(() => run(documentsFile, ORG, { id: `gnucash:${doc('EV-1').guid}` }));
      assert.equal(plain.code, 'not_found');
      const unknown = await rejection(() => run(documentsFile, ORG, { id: 'gnucash:0000' }));
      assert.equal(unknown.message, 'no document gnucash:0000 in this organisation');
    });

    it('a dollar bill in a pound book: its own currency and amount, and what is due in pounds at the rate it was booked at', async () => {
      const listed = await run(billsListToPay, FOREIGN);
      // $100.00 at 1.25 dollars to the pound is £80.00; $70.00 is left after $30.00 paid: £56.00
      assert.deepEqual(listed.bills, [
        {
          supplier: 'Acme Inc',
          invoiceNumber: 'AC-2026-17',
          type: 'bill',
          date: '2026-02-01',
          dueDate: '2026-03-03',
          scheduledDate: null,
          tags: '',
          currency: 'USD',
          originalAmount: 100,
          amountDue: 56,
          latestNote: null,
        },
      ]);
      assert.equal(listed.total, 56);
      const ledger = await run(ledgerAccountTransactions, FOREIGN, { account: 'Software', from: '2026-02-01', to: '2026-02-28' });
      const document = ledger.transactions[0].document;
      assert.deepEqual([document.currency, document.total, ledger.transactions[0].amount], ['USD', 100, 80]);
      const got = await run(documentsGet, FOREIGN, { ids: document.id });
      assert.deepEqual([got.documents[0].currency, got.documents[0].total, got.documents[0].invoiceLines[0].unitPrice], ['USD', 100, 100]);
    });

    it("a book that cannot be read: bills to pay fail naming why, never a list without the book's bills (issue 38, item 6)", async () => {
      const listed = await rejection(() => run(billsListToPay, BROKEN));
      assert.equal(listed.code, 'accounting_unavailable');
      assert.match(listed.message, /The GnuCash book "no-such-book.gnucash" does not exist\./);
      const aged = await rejection(() => run(reportsAgedPayables, BROKEN));
      assert.equal(aged.code, 'accounting_unavailable');
      const error = await rejection(() => run(documentsGet, BROKEN, { ids: 'gnucash:abc' }));
      assert.equal(error.code, 'accounting_unavailable');
      // the filters' counts would be wrong without the book's bills, and that answer cannot say so
      const filters = await rejection(() => run(billsListSavedFilters, BROKEN));
      assert.equal(filters.code, 'accounting_unavailable');
      assert.match(filters.message, /"no-such-book.gnucash" does not exist/);
    });
  },
  setup,
);
