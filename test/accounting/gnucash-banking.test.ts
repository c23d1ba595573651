/**
 * A GnuCash book's bank and card accounts in banking.accounts, with their balances in the book; a
 * statement imported into one of them links the service's account to the book's (listed once), and
 * lines GnuCash has reconciled come in reconciled in the accounting system.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { bookAccountChoices } from '../../src/accounting/bank-links.js';
import { importStatement } from '../../src/import/importer.js';
import { bankingAccounts } from '../../src/operations/banking-accounts.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { reportsTrialBalance } from '../../src/operations/reports-trial-balance.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { getOrganisation } from '../../src/store/organisations.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { asUser, call, rejection } from '../helpers/call.js';
import { GNUCASH_FIXTURES } from '../helpers/gnucash-reports.js';
import { describeEachDialect } from '../helpers/store.js';

const TODAY = '2026-06-30';
const BOOK = join(GNUCASH_FIXTURES, 'payables.gnucash');
const ORG = 'org_gnc_banking';
const IMPORTED = 'org_gnc_banking_import';
const BROKEN = 'org_gnc_banking_missing';

function accountGuids(): Map<string, string> {
  const db = new SqliteDatabase(BOOK, { readonly: true });
  try {
    return new Map((db.prepare(`SELECT name, guid FROM accounts`).all() as { name: string; guid: string }[]).map((r) => [r.name, r.guid]));
  } finally {
    db.close();
  }
}
const GUID = accountGuids();

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
  await gnucashOrganisation(store, IMPORTED, BOOK);
  await gnucashOrganisation(store, BROKEN, join(GNUCASH_FIXTURES, 'no-such-book.gnucash'));
  // a submitter may call banking.accounts here, and holds no account
  await createUser(store.db, { id: 'usr_sub', email: 'sub@example.test', name: 'Sub' });
  await setMembership(store.db, ORG, 'usr_sub', 'submitter');
  await setRoleAllowed(store.db, ORG, 'banking.accounts', 'submitter', true);
}

// the current account's statement: three lines GnuCash has reconciled, one it has not
const STATEMENT = Buffer.from(
  [
    'Date,Description,Amount',
    '2026-02-28,BANK CHARGES,-6.50',
    '2026-03-20,CHQ 1001 NORTHWIND,-500.00',
    '2026-03-31,BANK CHARGES,-6.50',
    '2026-04-25,CARD REPAYMENT,-100.00',
  ].join('\n'),
);

describeEachDialect(
  'GnuCash bank accounts',
  (store) => {
    const run = <T = any>(op: OrganisationOperation<any, any>, org: string, input: Record<string, unknown> = {}) =>
      call<T>(store(), op, org, input, { today: TODAY });

    it("banking.accounts lists the book's bank and card accounts with their balances in the book", async () => {
      const full = await run(bankingAccounts, ORG);
      const SPEC_FIELDS = ['id', 'name', 'number', 'type', 'bank', 'currency', 'isDefault', 'toReconcile', 'transactions', 'lastTransactionDate', 'balance'];
      const answer = { count: full.count, accounts: full.accounts.map((a: any) => Object.fromEntries(SPEC_FIELDS.map((f) => [f, a[f]]))) };
      // nothing imported: the balance is the book's, and says so
      assert.deepEqual(
        full.accounts.map((a: any) => [a.balanceBasis, a.balanceDate, a.bookBalance, a.ledgerAccount.id]),
        full.accounts.map((a: any) => ['books', TODAY, a.balance, a.id.slice('gnucash:'.length)]),
      );
      assert.match(
        full.accounts[0].note,
        new RegExp(
          String.raw`^No statement has been imported into this account: -46\.50 GBP is its balance in` +
            String.raw` the books \(gnucash\) at 2026-06-30 \(today, nothing dated later counted\), not` +
            String.raw` the bank's\.$`,
        ),
      );
      assert.deepEqual(answer, {
        count: 3,
        accounts: [
          // 100.00 paid to Paper & Ink and 46.50 of train tickets, 100.00 repaid
          {
            id: `gnucash:${GUID.get('Business Credit Card')}`,
            name: 'Business Credit Card',
            number: '2200',
            type: 'credit_card',
            bank: '',
            currency: 'GBP',
            isDefault: false,
            toReconcile: 0,
            transactions: 0,
            lastTransactionDate: null,
            balance: -46.5,
          },
          // 20,000.00 capital less 5,000.00 saved, 1,994.60 paid to suppliers, 13.00 charges, 100.00 to the card
          {
            id: `gnucash:${GUID.get('Business Current Account')}`,
            name: 'Business Current Account',
            number: '1110',
            type: 'bank',
            bank: '',
            currency: 'GBP',
            isDefault: false,
            toReconcile: 0,
            transactions: 0,
            lastTransactionDate: null,
            balance: 12_917.4,
          },
          {
            id: `gnucash:${GUID.get('Savings Account')}`,
            name: 'Savings Account',
            number: '1120',
            type: 'bank',
            bank: '',
            currency: 'GBP',
            isDefault: false,
            toReconcile: 0,
            transactions: 0,
            lastTransactionDate: null,
            balance: 5_012.34,
          },
        ],
      });
      const searched = await run(bankingAccounts, ORG, { search: 'card' });
      assert.deepEqual(
        searched.accounts.map((a: any) => a.name),
        ['Business Credit Card'],
      );
      // bank transactions belong to the people who hold the accounts: a submitter holding none sees none
      const submitter = await call(store(), bankingAccounts, ORG, {}, { today: TODAY, principal: asUser('usr_sub') });
      assert.deepEqual(submitter, { count: 0, accounts: [] });
    });

    it("a books account's balance is at today: splits dated later are not in it; its ledger account has the chart's full name", async () => {
      const listed = async (today: string) =>
        (await call<any>(store(), bankingAccounts, ORG, {}, { today })).accounts.map((a: any) => [
          a.name,
          a.balanceDate,
          a.balance,
          a.bookBalance,
          a.ledgerAccount.fullName,
        ]);
      // the current account's splits of 28 June (25.00) and 26 June (84.60, stored as local midnight) come after the 25th;
      // the 26th counts on the 26th (post-dates.ts), the 28th does not
      assert.deepEqual(await listed('2026-06-26'), [
        ['Business Credit Card', '2026-06-26', -46.5, -46.5, 'Liabilities:Business Credit Card'],
        ['Business Current Account', '2026-06-26', 12_942.4, 12_942.4, 'Assets:Business Current Account'],
        ['Savings Account', '2026-06-26', 5_012.34, 5_012.34, 'Assets:Savings Account'],
      ]);
      // at 30 April: 20,000.00 less 5,000.00 saved, 60.00 and 500.00 paid, 13.00 of charges and 100.00 to the card; the card repaid; no interest yet
      assert.deepEqual(await listed('2026-04-30'), [
        ['Business Credit Card', '2026-04-30', 0, 0, 'Liabilities:Business Credit Card'],
        ['Business Current Account', '2026-04-30', 14_327, 14_327, 'Assets:Business Current Account'],
        ['Savings Account', '2026-04-30', 5_000, 5_000, 'Assets:Savings Account'],
      ]);
      // the same figure the ledger gives at that date
      const trial = await call<any>(store(), reportsTrialBalance, ORG, { date: '2026-04-30', includeZero: true }, { today: '2026-04-30' });
      const current = trial.accounts.find((r: any) => r.id === GUID.get('Business Current Account'));
      assert.equal(current.debit - current.credit, 14_327);
      // the accounts an import may link to carry the chart's full name too
      const choices = await bookAccountChoices(store().db, (await getOrganisation(store().db, ORG))!);
      assert.deepEqual(
        choices.map((c) => c.fullName),
        ['Liabilities:Business Credit Card', 'Assets:Business Current Account', 'Assets:Savings Account'],
      );
    });

    it(
      "a statement imported into an account named as the book's is linked to it, listed once, and GnuCash's reconciled lines come in reconciled in " +
        'the accounting system',
      async () => {
        const organisation = (await getOrganisation(store().db, IMPORTED))!;
        const report = await importStatement(store(), {
          organisation,
          account: { create: { name: 'Business Current Account', type: 'bank', currency: 'GBP', bank: 'Barclays' } },
          fileName: 'statement.csv',
          bytes: STATEMENT,
        });
        assert.equal(report.new, 4);
        const row = await store().db.selectFrom('bank_accounts').selectAll().where('organisation_id', '=', IMPORTED).executeTakeFirstOrThrow();
        assert.equal(row.ledger_account_id, GUID.get('Business Current Account'));

        const accounts = await run(bankingAccounts, IMPORTED);
        assert.deepEqual(
          accounts.accounts.map((a: any) => [a.id, a.name, a.transactions, a.toReconcile, a.balance]),
          [
            [`gnucash:${GUID.get('Business Credit Card')}`, 'Business Credit Card', 0, 0, -46.5],
            [row.id, 'Business Current Account', 4, 1, -613],
            [`gnucash:${GUID.get('Savings Account')}`, 'Savings Account', 0, 0, 5_012.34],
          ],
        );
        // linked to GnuCash's own account: its balance in the book at the statement's last day beside the bank's, and what is left to reconcile
        const current = accounts.accounts.find((a: any) => a.id === row.id);
        assert.deepEqual(current.ledgerAccount, {
          id: GUID.get('Business Current Account'),
          name: 'Business Current Account',
          fullName: current.ledgerAccount.fullName,
        });
        assert.equal(current.balanceDate, '2026-04-25');
        assert.equal(typeof current.bookBalance, 'number');
        assert.equal(current.differenceToReconcile, Math.round((current.balance - current.bookBalance) * 100) / 100);
        assert.match(current.note, /Book balance [\d,.-]+ GBP at 2026-04-25 in the books' account .*Business Current Account/);
        const lines = await run(bankingTransactions, IMPORTED, { account: row.id, period: 'custom', from: '2026-01-01', to: '2026-06-30', order: 'oldest' });
        assert.deepEqual(
          lines.transactions.map((t: any) => [t.date, t.amount, t.status, t.reconciledIn]),
          [
            ['2026-02-28', -6.5, 'reconciled', 'accounting_system'],
            ['2026-03-20', -500, 'to_reconcile', null],
            ['2026-03-31', -6.5, 'reconciled', 'accounting_system'],
            ['2026-04-25', -100, 'reconciled', 'accounting_system'],
          ],
        );
        assert.deepEqual([lines.totals.reconciled, lines.totals.toReconcile], [3, 1]);
      },
    );

    it('a book that cannot be read fails banking.accounts with accounting_unavailable; statements still import, to reconcile', async () => {
      const error = await rejection(() => run(bankingAccounts, BROKEN));
      assert.equal(error.code, 'accounting_unavailable');
      const organisation = (await getOrganisation(store().db, BROKEN))!;
      const report = await importStatement(store(), {
        organisation,
        account: { create: { name: 'Business Current Account', type: 'bank', currency: 'GBP' } },
        fileName: 'statement.csv',
        bytes: STATEMENT,
      });
      assert.equal(report.new, 4);
      const rows = await store().db.selectFrom('bank_transactions').select(['status', 'reconciled_in']).where('organisation_id', '=', BROKEN).execute();
      assert.deepEqual(new Set(rows.map((r) => `${r.status}/${r.reconciled_in}`)), new Set(['to_reconcile/null']));
    });
  },
  setup,
);
