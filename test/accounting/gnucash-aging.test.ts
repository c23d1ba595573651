/**
 * Aging on GnuCash books. reports.aged_payables against GnuCash's own Payable Aging report of
 * payables.gnucash at 2026-06-30, and reports.aged_receivables against its Receivable Aging reports
 * of book.gnucash at 2026-06-30 and 2026-12-31 (made by GnuCash: scripts/gnucash/make-aging-reports.sh),
 * supplier by supplier and bucket by bucket, to the penny; reports.aged_receivables on book.gnucash
 * from its customer invoices' lots at a date, equal to the receivable account's balance at every
 * month end; the other issue 15 reads on the same book balance and agree with the reports.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { contactsSearch } from '../../src/operations/contacts-search.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsAgedPayables } from '../../src/operations/reports-aged-payables.js';
import { reportsAgedReceivables } from '../../src/operations/reports-aged-receivables.js';
import { salesListInvoices } from '../../src/operations/sales-list-invoices.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsCashSummary } from '../../src/operations/reports-cash-summary.js';
import { reportsTrialBalance } from '../../src/operations/reports-trial-balance.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { call } from '../helpers/call.js';
import { AGING_COLUMNS, readAgingReport, type AgingColumn } from '../helpers/gnucash-aging.js';
import { GNUCASH_FIXTURES } from '../helpers/gnucash-reports.js';
import { describeEachDialect } from '../helpers/store.js';

const PAYABLES = 'org_gnc_aging_payables';
const BOOK = 'org_gnc_aging_book';

/** GnuCash's column for each of the operation's buckets */
const COLUMN: Record<string, AgingColumn> = {
  prepaid: 'Pre-Payment',
  current: 'Current',
  days1to30: '0-30 days',
  days31to60: '31-60 days',
  days61to90: '61-90 days',
  days91plus: '91+ days',
  total: 'Total',
};

async function gnucashOrganisation(store: Store, id: string, book: string): Promise<void> {
  await provisionOrganisation(store.db, { id, name: id, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1, accountingSystem: 'gnucash' });
  await store.db
    .updateTable('organisations')
    .set({ accounting_config: JSON.stringify({ bookPath: join(GNUCASH_FIXTURES, book) }) })
    .where('id', '=', id)
    .execute();
}

const pence = (major: number) => Math.round(major * 100);

describeEachDialect(
  'GnuCash aging',
  (store) => {
    const run = <T = any>(op: OrganisationOperation<any, any>, org: string, today: string, input: Record<string, unknown> = {}) =>
      call<T>(store(), op, org, input, { today });

    it("reports.aged_payables equals GnuCash's Payable Aging report at 2026-06-30, supplier by supplier and bucket by bucket, to the penny", async (t) => {
      const report = readAgingReport('payable-aging-2026-06-30');
      const aged = await run(reportsAgedPayables, PAYABLES, '2026-06-30');
      assert.deepEqual(aged.contacts.map((c: any) => c.contact).sort(), [...report.companies.keys()].sort(), 'the same suppliers');
      for (const c of aged.contacts) {
        const theirs = report.companies.get(c.contact)!;
        for (const [bucket, column] of Object.entries(COLUMN)) {
          assert.equal(pence(c[bucket]), theirs.get(column), `${c.contact}, ${column}`);
          t.diagnostic(
            `${c.contact.padEnd(24)} ${column.padEnd(11)} GnuCash ${(theirs.get(column)! / 100).toFixed(2).padStart(9)}  ` +
              `Ledgerline ${c[bucket].toFixed(2).padStart(9)}`,
          );
        }
      }
      for (const [bucket, column] of Object.entries(COLUMN)) assert.equal(pence(aged.totals[bucket]), report.total.get(column), `Total, ${column}`);
      assert.equal(AGING_COLUMNS.length, Object.keys(COLUMN).length);
      assert.equal(pence(aged.totals.total), 324_866);
      // the book's payable account holds exactly the open bills
      assert.equal(aged.ledgerBalance, aged.totals.total);
      assert.deepEqual(aged.notes, []);
    });

    for (const date of ['2026-06-30', '2026-12-31']) {
      it(`reports.aged_receivables equals GnuCash's Receivable Aging report at ${date}, customer by customer and bucket by bucket, to the penny`, async (t) => {
        const report = readAgingReport(`receivable-aging-${date}`);
        const aged = await run(reportsAgedReceivables, BOOK, date);
        // GnuCash lists every customer, also those who owe nothing at the date
        const owing = [...report.companies]
          .filter(([, columns]) => columns.get('Total') !== 0 || [...columns.values()].some((v) => v !== 0))
          .map(([name]) => name);
        assert.deepEqual(aged.contacts.map((c: any) => c.contact).sort(), owing.sort(), 'the same customers');
        for (const c of aged.contacts) {
          const theirs = report.companies.get(c.contact)!;
          for (const [bucket, column] of Object.entries(COLUMN)) {
            assert.equal(pence(c[bucket]), theirs.get(column), `${c.contact}, ${column}`);
            t.diagnostic(
              `${c.contact.padEnd(26)} ${column.padEnd(11)} GnuCash ${(theirs.get(column)! / 100).toFixed(2).padStart(9)}  ` +
                `Ledgerline ${c[bucket].toFixed(2).padStart(9)}`,
            );
          }
        }
        for (const [bucket, column] of Object.entries(COLUMN)) assert.equal(pence(aged.totals[bucket]), report.total.get(column), `Total, ${column}`);
      });
    }

    it("sales.list_invoices on a GnuCash book: the customer invoices with GnuCash's due dates and what its lots leave open", async () => {
      const year = await run(salesListInvoices, BOOK, '2026-12-31', { period: 'custom', from: '2026-01-01', to: '2026-12-31', status: 'open' });
      assert.deepEqual(year.invoices.map((i: any) => [i.customer, i.number, i.dueDate, i.amountDue, i.status]).sort(), [
        ['Acme Retail Ltd', 'INV-A023', '2026-12-20', 7560, 'open'],
        ['Acme Retail Ltd', 'INV-A024', '2027-01-19', 7740, 'open'],
        ['Brightside Consulting LLP', 'INV-B008', '2027-01-30', 5400, 'open'],
      ]);
      const everything = await run(salesListInvoices, BOOK, '2026-12-31', { period: 'custom', from: '2000-01-01', to: '2026-12-31', limit: 500 });
      const aged = await run(reportsAgedReceivables, BOOK, '2026-12-31');
      assert.equal(everything.totals.amountDue, aged.totals.total, 'what all invoices still owe is the aged total');
      assert.ok(
        everything.invoices.some((i: any) => i.status === 'paid'),
        'paid invoices are listed too',
      );
    });

    it('reports.aged_receivables on a GnuCash book: its customer invoices open at the date, by due date, equal to the receivable account', async (t) => {
      const r = await run(reportsAgedReceivables, BOOK, '2026-12-31', { detail: true });
      assert.deepEqual(
        r.contacts.map((c: any) => [c.contact, c.current, c.days1to30, c.total, c.items.map((i: any) => [i.number, i.dueDate, i.amount])]),
        [
          [
            'Acme Retail Ltd',
            7740,
            7560,
            15300,
            [
              ['INV-A023', '2026-12-20', 7560],
              ['INV-A024', '2027-01-19', 7740],
            ],
          ],
          ['Brightside Consulting LLP', 5400, 0, 5400, [['INV-B008', '2027-01-30', 5400]]],
        ],
      );
      assert.equal(r.totals.total, 20700);
      assert.equal(r.ledgerBalance, 20700);
      // at every month end the open invoices at that date add up to the receivable account's balance
      for (let month = 1; month <= 12; month++) {
        const date = new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10);
        const at = await run(reportsAgedReceivables, BOOK, '2026-12-31', { date });
        assert.equal(at.totals.total, at.ledgerBalance, date);
        assert.deepEqual(at.notes, [], date);
        t.diagnostic(`${date}: aged receivables ${at.totals.total.toFixed(2)} over ${at.count} customer(s), receivable account ${at.ledgerBalance.toFixed(2)}`);
      }
    });

    it('trial balance, cash summary and contacts on the GnuCash book agree with the balance sheet and balance', async () => {
      const date = '2026-11-30';
      const [trial, bs] = await Promise.all([
        run(reportsTrialBalance, BOOK, '2026-12-31', { date }),
        run(reportsBalanceSheet, BOOK, '2026-12-31', { asAt: date }),
      ]);
      assert.equal(trial.balanced, true);
      assert.ok(trial.totals.debit > 0);
      const assets = trial.accounts.filter((a: any) => a.classification === 'Asset').reduce((s: number, a: any) => s + pence(a.debit) - pence(a.credit), 0);
      assert.equal(assets, pence(bs.summary.find((l: any) => l.label === 'Total Assets').amounts[0]));
      const cash = await run(reportsCashSummary, BOOK, '2026-12-31', { period: 'ytd' });
      for (const a of cash.accounts) assert.equal(pence(a.start) + pence(a.in) - pence(a.out), pence(a.end), a.name);
      const bankRows = trial.accounts.filter((a: any) => a.type === 'Bank' || a.type === 'Credit Card');
      const atNov = await run(reportsCashSummary, BOOK, '2026-12-31', { from: '2026-11-01', to: date });
      assert.equal(
        pence(atNov.totals.end),
        bankRows.reduce((s: number, a: any) => s + pence(a.debit) - pence(a.credit), 0),
        'cash at the end is the bank and card rows of the trial balance',
      );
      const customers = await run(contactsSearch, BOOK, '2026-12-31', { kind: 'customer', period: 'ytd' });
      assert.ok(customers.total >= 2 && customers.totals.sales > 0);
    });
  },
  async (store) => {
    await gnucashOrganisation(store, PAYABLES, 'payables.gnucash');
    await gnucashOrganisation(store, BOOK, 'book.gnucash');
  },
);
