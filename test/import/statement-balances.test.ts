/**
 * Bank accounts that agree with the bank and with the books (issue 40), on both databases: the
 * balance counts from the statements' own opening balance, so after a month's statement it is the
 * bank's closing balance; a month missing between two statements is said, with the amount and from
 * when; the same month as OFX and then as CSV adds nothing the second time (matched by date,
 * amount and narration), while two identical lines in one file stay two; an import is a batch that
 * is listed and removed whole, every bank operation answering exactly as before it; and an
 * organisation whose books were loaded from a journal shows one balance for one account at the
 * statement's date in banking.accounts, the linked ledger account and the cash summary.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { LISTED_TYPES, OTHER_TYPES } from '../../src/accounting/types.js';
import { importStatement, type ImportOptions, type ImportRequest } from '../../src/import/importer.js';
import { importJournal } from '../../src/import/journal/load.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import { removeStatementImport } from '../../src/import/remove-import.js';
import { bankingAccounts } from '../../src/operations/banking-accounts.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsCashSummary } from '../../src/operations/reports-cash-summary.js';
import { provisionOrganisation } from '../../src/provision.js';
import { writeAudit } from '../../src/store/audit-log.js';
import { listBankImports } from '../../src/store/bank-imports.js';
import type { BankAccountRow, OrganisationRow } from '../../src/store/schema.js';
import { ofxStatement, type OfxLine } from '../helpers/bank-statements.js';
import { call, rejection } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

const TODAY = '2026-07-15';

// the statements of the bank's current account (40404040, GBP), whose downloads carry an available balance beside the ledger balance
const CURRENT_ACCOUNT = { account: '40404040', availableBalance: true } as const;

const csv = (rows: string[]) => Buffer.from(['Date,Description,Amount,Balance', ...rows].join('\n'));

// March 2026 as the bank's OFX gives it (NAME and MEMO) and as its CSV export gives it (one narration, a running balance)
const MARCH_OFX = ofxStatement(
  [
    ['M1', '20260302', '-1200.00', 'HARBOUR PROPERTIES', 'RENT MARCH'],
    ['M2', '20260305', '-3.50', 'COFFEE SHOP'],
    ['M3', '20260312', '2500.00', 'NORTHWIND TRADING', 'INV-101'],
    ['M4', '20260320', '-14.49', 'SOFTWARE CO'],
  ],
  { ...CURRENT_ACCOUNT, period: ['20260301', '20260331'], ledgerBalance: '14548.52' },
);
const MARCH_CSV = csv([
  '02/03/2026,HARBOUR PROPERTIES,-1200.00,12066.51',
  '05/03/2026,Coffee Shop,-3.50,12063.01',
  '12/03/2026,NORTHWIND TRADING INV-101,2500.00,14563.01',
  '20/03/2026,SOFTWARE CO,-14.49,14548.52',
]);
const CSV_OPTIONS: ImportOptions = { csv: { dateFormat: 'dd/MM/yyyy' } };

describeEachDialect('statement balances, duplicates across formats, import batches', (store) => {
  let n = 0;
  const newOrg = () =>
    provisionOrganisation(store().db, { id: `org_sb_${++n}`, name: `Balances ${n}`, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  async function newAccount(org: OrganisationRow, number = '40404040'): Promise<BankAccountRow> {
    const row: BankAccountRow = {
      id: `bac_sb_${n}`,
      organisation_id: org.id,
      name: 'Current',
      number,
      type: 'bank',
      bank: 'Test Bank',
      currency: 'GBP',
      is_default: 1,
      ledger_account_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    await store().db.insertInto('bank_accounts').values(row).execute();
    return row;
  }
  const load = (org: OrganisationRow, account: ImportRequest['account'], fileName: string, bytes: Buffer, options: ImportOptions = {}) =>
    importStatement(store(), { organisation: org, account, fileName, bytes, options });
  const accountsOf = async (org: OrganisationRow) => (await call(store(), bankingAccounts, org.id, {}, { today: TODAY })).accounts;

  it("after a month's OFX the balance is its LEDGERBAL; the same month as CSV adds nothing, each line matched by date, amount and narration", async () => {
    const org = await newOrg();
    const account = await newAccount(org);
    const first = await load(org, account, 'march.ofx', MARCH_OFX);
    assert.deepEqual([first.new, first.accountBalance], [4, 1_454_852]);
    const [listed] = await accountsOf(org);
    assert.deepEqual(
      [listed.balance, listed.balanceDate, listed.balanceBasis, listed.balanceIncompleteFrom, listed.bankStatementBalance.amount],
      [14_548.52, '2026-03-31', 'statements', null, 14_548.52],
    );
    assert.match(
      listed.note,
      new RegExp(
        String.raw`^Bank balance 14,548\.52 GBP at 2026-03-31, counted from the bank's own balance:` +
          String.raw` 13,266\.51 GBP before 2026-03-01 \(OFX statement 2026-03-01\.\.2026-03-31, its ` +
          String.raw`closing balance less its lines\)\.`,
      ),
    );

    const second = await load(org, account, 'march.csv', MARCH_CSV, CSV_OPTIONS);
    assert.deepEqual([second.new, second.alreadyPresent], [0, 4]);
    assert.deepEqual(
      second.matched.map((m) => m.reason.split(':')[0]),
      Array(4).fill('already present (matched by date, amount and narration)'),
    );
    assert.match(second.matched[2]!.reason, /2026-03-12, "NORTHWIND TRADING \/ INV-101" from OFX statement 2026-03-01\.\.2026-03-31/);
    assert.equal(second.statements[0]!.matchedByContent, 4);
    assert.equal(second.accountBalance, 1_454_852);
    const [after] = await accountsOf(org);
    assert.deepEqual([after.transactions, after.balance, after.balanceIncompleteFrom], [4, 14_548.52, null]);
    // and back the other way round: the OFX after the CSV also adds nothing
    const other = await newAccount(await newOrg());
    const otherOrg = { ...org, id: other.organisation_id };
    assert.equal((await load(otherOrg, other, 'march.csv', MARCH_CSV, CSV_OPTIONS)).new, 4);
    assert.deepEqual([(await load(otherOrg, other, 'march.ofx', MARCH_OFX)).new, (await accountsOf(otherOrg))[0].balance], [0, 14_548.52]);
  });

  it('two identical lines in one file stay two, and the same two in another format add nothing', async () => {
    const org = await newOrg();
    const account = await newAccount(org);
    const coffees = ofxStatement(
      [
        ['C1', '20260403', '-3.50', 'COFFEE SHOP'],
        ['C2', '20260403', '-3.50', 'COFFEE SHOP'],
      ],
      {
        ...CURRENT_ACCOUNT,
        period: ['20260401', '20260430'],
        ledgerBalance: '-7.00',
      },
    );
    assert.equal((await load(org, account, 'april.ofx', coffees)).new, 2);
    const again = await load(org, account, 'april.csv', csv(['03/04/2026,COFFEE SHOP,-3.50,-3.50', '03/04/2026,COFFEE SHOP,-3.50,-7.00']), CSV_OPTIONS);
    assert.deepEqual([again.new, again.alreadyPresent], [0, 2]);
    // a third coffee that day, in a file that has all three: one new
    const three = await load(
      org,
      account,
      'april-3.csv',
      csv(['03/04/2026,COFFEE SHOP,-3.50,-3.50', '03/04/2026,COFFEE SHOP,-3.50,-7.00', '03/04/2026,COFFEE SHOP,-3.50,-10.50']),
      CSV_OPTIONS,
    );
    assert.deepEqual([three.new, three.alreadyPresent], [1, 2]);
  });

  it(
    'a month missing between two statements marks the balance incomplete from the day after the first, with the amount; importing it completes ' + 'it',
    async () => {
      const org = await newOrg();
      const account = await newAccount(org);
      await load(org, account, 'jan.csv', csv(['05/01/2026,SALARY,1000.00,1500.00', '20/01/2026,RENT,-400.00,1100.00']), CSV_OPTIONS);
      await load(org, account, 'mar.csv', csv(['05/03/2026,SALARY,1000.00,1850.00']), CSV_OPTIONS);
      const [gap] = await accountsOf(org);
      // February's -250.00 is not there: 1,100.00 + 1,000.00 by the lines, 1,850.00 by the bank
      assert.deepEqual(
        [gap.balance, gap.balanceIncompleteFrom, gap.balanceUnexplained, gap.bankStatementBalance],
        [2_100, '2026-01-21', -250, { amount: 1_850, date: '2026-03-05', source: 'CSV statement 2026-03-05..2026-03-05' }],
      );
      assert.match(
        gap.note,
        new RegExp(
          String.raw`The balance is incomplete from 2026-01-21: transactions are missing between two ` +
            String.raw`statements \(CSV statement 2026-03-05\.\.2026-03-05, -250\.00 GBP\); in all the ` +
            String.raw`bank's latest balance is 250\.00 GBP less than the transactions give\.`,
        ),
      );
      const page = await call(
        store(),
        bankingTransactions,
        org.id,
        { account: account.id, period: 'custom', from: '2026-01-01', to: '2026-03-31' },
        { today: TODAY },
      );
      assert.equal(page.totals.openingBalance, 500);
      assert.match(page.balanceNote, /incomplete from 2026-01-21/);
      await load(org, account, 'feb.csv', csv(['10/02/2026,INSURANCE,-250.00,850.00']), CSV_OPTIONS);
      const [complete] = await accountsOf(org);
      assert.deepEqual([complete.balance, complete.balanceIncompleteFrom, complete.balanceUnexplained], [1_850, null, 0]);
    },
  );

  it('an opening balance entered when the account is created is what the balance counts from', async () => {
    const org = await newOrg();
    const report = await load(
      org,
      { create: { name: 'Savings', type: 'bank', currency: 'GBP', openingBalance: { amount: 50_000, date: '2026-01-01' } } },
      'jan.csv',
      Buffer.from('Date,Description,Amount\n2026-01-05,INTEREST,1.25\n'),
    );
    assert.equal(report.accountBalance, 50_125);
    const [listed] = await accountsOf(org);
    assert.deepEqual([listed.balance, listed.balanceBasis], [501.25, 'opening_balance']);
    const refused = await rejection(() =>
      load(
        org,
        { create: { name: 'Bad', type: 'bank', currency: 'GBP', openingBalance: { amount: 1, date: '2026-02-30' } } },
        'x.csv',
        Buffer.from('Date,Description,Amount\n2026-01-05,X,1.00\n'),
      ),
    );
    assert.equal(refused.code, 'bad_options');
  });

  it('an import is a batch: listed with its file, format, lines, balances and who; removed whole, every bank answer is as before it', async () => {
    const org = await newOrg();
    const account = await newAccount(org);
    await load(org, account, 'march.ofx', MARCH_OFX, { importedBy: { userId: null, via: 'command line' } });
    const everything = async () => ({
      accounts: await call(store(), bankingAccounts, org.id, {}, { today: TODAY }),
      pages: await Promise.all(
        [
          {},
          { account: account.id, period: 'custom', from: '2026-01-01', to: '2026-06-30' },
          { account: account.id, period: 'custom', from: '2026-04-01', to: '2026-04-30', order: 'oldest' },
          { status: 'to_reconcile', period: 'ytd' },
          { account: account.id, period: 'ytd', limit: 2, page: 2 },
        ].map((input) => call(store(), bankingTransactions, org.id, input, { today: TODAY })),
      ),
    });
    const before = await everything();
    const april = await load(
      org,
      account,
      'april.csv',
      csv(['01/04/2026,DIRECT DEBIT,-48.52,14500.00', '15/04/2026,SALES,1000.00,15500.00', '15/04/2026,SALES,1000.00,16500.00']),
      { ...CSV_OPTIONS, importedBy: { userId: null, via: 'command line' } },
    );
    assert.equal(april.new, 3);
    assert.notDeepEqual(await everything(), before);
    const batches = await listBankImports(store().db, org.id, account.id);
    assert.deepEqual(
      batches.map((b) => [
        b.id === april.importId,
        b.file_name,
        b.format.split(' ')[0],
        b.lines,
        b.already_present,
        b.created_via,
        b.reconciled,
        b.statements.map((s) => [s.start_date, s.end_date, Number(s.opening_amount), Number(s.closing_amount)]),
      ]),
      [
        [true, 'april.csv', 'CSV', 3, 0, 'command line', 0, [['2026-04-01', '2026-04-15', 1_454_852, 1_650_000]]],
        [false, 'march.ofx', 'OFX', 4, 0, 'command line', 0, [['2026-03-01', '2026-03-31', 1_326_651, 1_454_852]]],
      ],
    );

    // while a line of it is reconciled it stays, whole
    const line = await store().db.selectFrom('bank_transactions').select('id').where('import_id', '=', april.importId).executeTakeFirstOrThrow();
    await store().db.updateTable('bank_transactions').set({ status: 'reconciled', reconciled_in: 'outside_service' }).where('id', '=', line.id).execute();
    const refused = await rejection(() =>
      removeStatementImport(store(), org.id, april.importId!, { audit: async () => assert.fail('no audit for a refusal') }),
    );
    assert.ok(refused instanceof ImportRefusal);
    assert.equal(refused.code, 'reconciled');
    assert.match(refused.message, /1 of its lines is reconciled or matched to a document/);
    assert.equal(batches.length, (await listBankImports(store().db, org.id, account.id)).length);
    await store().db.updateTable('bank_transactions').set({ status: 'to_reconcile', reconciled_in: null }).where('id', '=', line.id).execute();

    const removed = await removeStatementImport(store(), org.id, april.importId!, {
      audit: (trx, r) =>
        writeAudit(trx, {
          organisationId: org.id,
          actorUserId: null,
          action: 'bank_import.removed',
          target: r.row.bank_account_id,
          detail: { file: r.row.file_name, lines: r.lines },
        }),
    });
    assert.deepEqual([removed.lines, removed.statements], [3, 1]);
    assert.deepEqual(await everything(), before);
    assert.deepEqual(
      (await listBankImports(store().db, org.id, account.id)).map((b) => b.file_name),
      ['march.ofx'],
    );
    const audit = await store()
      .db.selectFrom('audit_log' as any)
      .select(['action'])
      .where('organisation_id', '=', org.id)
      .execute();
    assert.deepEqual(
      audit.map((a: any) => a.action),
      ['bank_import.removed'],
    );
    assert.equal((await rejection(() => removeStatementImport(store(), org.id, april.importId!, { audit: async () => {} }))).code, 'not_found');
    // the same file again comes back as it was
    assert.equal((await load(org, account, 'april.csv', csv(['01/04/2026,DIRECT DEBIT,-48.52,14500.00']), CSV_OPTIONS)).new, 1);
  });

  it(
    'books loaded from a journal and the same bank lines imported: banking.accounts, the linked ledger account and the cash summary agree at the ' +
      'statement date',
    async () => {
      const org = await newOrg();
      const journal = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'journal', 'small-business.journal'));
      await importJournal(store(), { organisation: org, fileName: 'small-business.journal', bytes: journal, allowNewAccounts: true });
      const books = new BuiltinAccounting(store().db, org.id);
      const ledgerAccount = (await books.chartOfAccounts()).find((a) => a.fullName === 'Assets:Bank:Current Account')!;
      // March's lines of the current account as the bank would list them, closing on the books' balance at 31 March
      const lines = await books.lines({ accountIds: [ledgerAccount.id], from: '2026-03-01', to: '2026-03-31', types: [...LISTED_TYPES, ...OTHER_TYPES] }, 1000);
      assert.ok(lines.length >= 2, 'the journal has March lines on the current account');
      const atEnd = (await books.accountTotals([{ to: '2026-03-31' }], [ledgerAccount.id])).get(ledgerAccount.id)![0]!;
      const major = (minor: number) => (minor / 100).toFixed(2);
      const statement = ofxStatement(
        lines.map((l, i): OfxLine => [`J${i}`, l.date.replaceAll('-', ''), major(l.amount), l.description || l.contactName || 'LINE']),
        { ...CURRENT_ACCOUNT, period: ['20260301', '20260331'], ledgerBalance: major(atEnd) },
      );
      const report = await load(org, { create: { name: 'Current Account', type: 'bank', currency: 'GBP' } }, 'march.ofx', statement);
      assert.equal(report.accountBalance, atEnd);

      const [bank] = await accountsOf(org);
      // linked by name to the books' account it mirrors; the bank's balance, the book's and nothing to reconcile
      assert.deepEqual(bank.ledgerAccount, { id: ledgerAccount.id, name: 'Current Account', fullName: 'Assets:Bank:Current Account' });
      assert.deepEqual([bank.balance, bank.balanceDate, bank.bookBalance, bank.differenceToReconcile], [atEnd / 100, '2026-03-31', atEnd / 100, 0]);
      assert.match(
        bank.note,
        /Book balance [\d,.]+ GBP at 2026-03-31 in the books' account Assets:Bank:Current Account; the two agree, nothing to reconcile\./,
      );

      const cash = await call(store(), reportsCashSummary, org.id, { period: 'custom', from: '2026-03-01', to: '2026-03-31' }, { today: TODAY });
      const row = cash.accounts.find((a: any) => a.id === ledgerAccount.id);
      assert.equal(row.end, bank.balance);
      assert.match(cash.figures, /^Balances in the books \(builtin\): each account's ledger balance, not the bank's\./);
      const sheet = await call(store(), reportsBalanceSheet, org.id, { asAt: '2026-03-31' }, { today: TODAY });
      const onSheet = sheet.sections
        .flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts))
        .find((a: any) => a.name === 'Current Account' || a.name === 'Assets:Bank:Current Account');
      assert.equal(onSheet.amounts[0], bank.balance);
      const page = await call(
        store(),
        bankingTransactions,
        org.id,
        { account: bank.id, period: 'custom', from: '2026-03-01', to: '2026-03-31' },
        { today: TODAY },
      );
      assert.equal(page.totals.closingBalance, bank.balance);
    },
  );
});
