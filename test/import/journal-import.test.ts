/**
 * Books into the builtin ledger from a journal (issue 14 item 4): an hledger journal and the same
 * books as a general-journal CSV, each into a fresh organisation with no demo data. Reports equal
 * hledger's own (made by scripts/journal/make-hledger-reports.sh) account by account; importing
 * again adds nothing; a refused file leaves every report exactly as it was.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { importJournal, type JournalImportRequest } from '../../src/import/journal/load.js';
import { readAmount } from '../../src/import/journal/hledger.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import type { OrganisationRow } from '../../src/store/schema.js';
import { call } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'journal');
const TODAY = '2026-07-15';
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** hledger's flat balances (converted to cost): full account name → pence. */
function hledgerBalances(): Map<string, number> {
  const rows = readFileSync(join(FIXTURES, 'small-business.balances.csv'), 'utf8').trim().split('\n').slice(1);
  const balances = new Map<string, number>();
  for (const row of rows) {
    const [name, amount] = row.split('","').map((c) => c.replace(/"/g, ''));
    if (name === 'total') continue;
    const m = /^(-?)£(\d+)\.(\d\d)$/.exec(amount!.replace('£-', '-£'));
    assert.ok(m, `hledger amount ${amount}`);
    balances.set(name!, (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3])));
  }
  return balances;
}

const accountLines = (r: any): Array<{ name: string; amount: number }> =>
  r.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts.map((a: any) => ({ name: a.name, amount: Math.round(a.amounts[0] * 100) }))));
const summary = (r: any, label: string) => r.summary.find((l: any) => l.label === label)?.amounts[0];

describeEachDialect('journal import', (store) => {
  let n = 0;
  const newOrg = (accountingSystem = 'builtin') =>
    provisionOrganisation(store().db, {
      name: `Harbour Lane ${++n}`,
      homeCurrency: 'GBP',
      timeZone: 'Europe/London',
      fyStartMonth: 1,
      accountingSystem,
      ...(accountingSystem === 'gnucash' ? { accountingConfig: { path: '/nonexistent.gnucash' } } : {}),
    });
  const load = (org: OrganisationRow, fileName: string, bytes: Uint8Array, options: Partial<JournalImportRequest> = {}) =>
    importJournal(store(), { organisation: org, fileName, bytes, ...options });
  const reports = async (org: OrganisationRow) => {
    const s: Store = store();
    const bs = await call(s, reportsBalanceSheet, org.id, { asAt: '2026-06-30' }, { today: TODAY });
    const pl = await call(s, reportsProfitAndLoss, org.id, { from: '2026-01-01', to: '2026-06-30' }, { today: TODAY });
    return { bs, pl };
  };
  /** Everything a caller can read of the books, to compare before and after a refused import. */
  const everything = async (org: OrganisationRow) => {
    const s: Store = store();
    const { bs, pl } = await reports(org);
    const chart = await call(s, accountsList, org.id, {}, { today: TODAY });
    const ledgers = [];
    for (const account of chart.accounts ?? []) {
      ledgers.push(await call(s, ledgerAccountTransactions, org.id, { account: account.id, from: '2026-01-01', to: '2026-12-31' }, { today: TODAY }));
    }
    const counts = await Promise.all(
      (['acct_accounts', 'acct_contacts', 'acct_transactions', 'acct_lines', 'acct_month_totals'] as const).map(
        async (t) =>
          (
            await s.db
              .selectFrom(t)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('organisation_id', '=', org.id)
              .executeTakeFirstOrThrow()
          ).n,
      ),
    );
    return { bs, pl, chart, ledgers, counts: counts.map(Number) };
  };

  const assertEqualsHledger = async (org: OrganisationRow) => {
    const { bs, pl } = await reports(org);
    const expected = hledgerBalances();
    // hledger shows balances debit-positive; Ledgerline's reports show each section's natural sign
    const shown = new Map([...accountLines(bs), ...accountLines(pl)].map((l) => [l.name, l.amount]));
    for (const [fullName, amount] of expected) {
      const natural = /^(Assets|Expenses)/.test(fullName) ? amount : -amount;
      assert.equal(shown.get(fullName), natural, `${fullName}: hledger ${amount}, Ledgerline ${shown.get(fullName)}`);
    }
    assert.equal(Math.round(summary(pl, 'Net Profit') * 100), 563_612, 'hledger: Net £5636.12');
    assert.equal(Math.round(summary(bs, 'Total Assets') * 100), 1_822_612, 'hledger: assets total £18226.12');
    assert.equal(Math.round(summary(bs, 'Total Liabilities') * 100), 9_000, 'hledger: liabilities total £90.00');
    assert.equal(summary(bs, 'Total Assets'), summary(bs, 'Total Liabilities and Equity'));
  };

  it('an hledger journal into an empty builtin organisation: every account equals hledger, to the penny', async () => {
    const org = await newOrg();
    const report = await load(org, 'small-business.journal', fixture('small-business.journal'), { allowNewAccounts: true });
    assert.equal(report.format, 'journal');
    assert.equal(report.transactions, 16);
    assert.equal(report.new, 16);
    assert.equal(report.lines, 38);
    assert.deepEqual(report.period, { from: '2026-01-01', to: '2026-06-30' });
    assert.ok(report.accountsCreated.includes('Assets:Bank:Current Account'));
    assert.ok(report.accountsCreated.includes('Assets'), 'parents created too');
    await assertEqualsHledger(org);

    const chart = await call(store(), accountsList, org.id, {}, { today: TODAY });
    const type = (name: string) => chart.accounts.find((a: any) => a.fullName === name)?.type;
    assert.equal(type('Assets:Bank:Current Account'), 'Bank', 'from the account directive (type: C)');
    assert.equal(type('Liabilities:Credit Card'), 'Credit Card', 'type: L, made precise by its name');
    assert.equal(type('Assets:Accounts Receivable'), 'Accounts Receivable', 'type: A, made precise by its name');
    assert.equal(type('Liabilities:VAT'), 'Other Current Liability', 'type: L, where the name says nothing more');

    const again = await load(org, 'small-business.journal', fixture('small-business.journal'), { allowNewAccounts: true });
    assert.deepEqual([again.new, again.alreadyPresent, again.lines, again.accountsCreated.length], [0, 16, 0, 0], 'importing again adds nothing');
    await assertEqualsHledger(org);
  });

  it('the same books as a general-journal CSV: the same reports, and the same transactions (adds nothing to the journal org)', async () => {
    const org = await newOrg();
    const report = await load(org, 'small-business.csv', fixture('small-business.csv'), { allowNewAccounts: true });
    assert.equal(report.format, 'csv');
    assert.equal(report.transactions, 16, 'rows grouped by number, and by date while unbalanced');
    await assertEqualsHledger(org);

    const fromJournal = await newOrg();
    await load(fromJournal, 'books.journal', fixture('small-business.journal'), { allowNewAccounts: true });
    const csvAfter = await load(fromJournal, 'books.csv', fixture('small-business.csv'));
    assert.deepEqual([csvAfter.new, csvAfter.alreadyPresent], [0, 16], 'a transaction is the same whatever file says it');
  });

  it('a dry run reports what would be written and writes nothing', async () => {
    const org = await newOrg();
    const before = await everything(org);
    const report = await load(org, 'small-business.journal', fixture('small-business.journal'), { allowNewAccounts: true, dryRun: true });
    assert.equal(report.new, 16);
    assert.deepEqual(await everything(org), before);
  });

  const refusals: Array<[string, string, string, RegExp]> = [
    [
      'unbalanced',
      'unbalanced',
      '2026-07-01 Lunch\n    Expenses:Software  £10.00\n    Assets:Bank:Current Account  £-9.99\n',
      /line 1: the transaction does not balance: its postings sum to 0\.01 GBP/,
    ],
    [
      'unknown account',
      'unknown_account',
      '2026-07-01 Lunch\n    Expenses:Meals  £10.00\n    Assets:Bank:Current Account\n',
      /line 2: no account "Expenses:Meals"/,
    ],
    [
      'unknown currency',
      'unknown_currency',
      '2026-07-01 Lunch\n    Expenses:Software  10.00 XYZ @ £1\n    Assets:Bank:Current Account\n',
      /line 2: "XYZ" is not an ISO 4217/,
    ],
    [
      'failed assertion',
      'assertion_failed',
      '2026-07-01 Fee\n    Expenses:Bank Charges  £1.00\n    Assets:Bank:Current Account  £-1.00 = £5.00\n',
      /line 3: Assets:Bank:Current Account should be 5\.00 GBP here but is -4\.00 GBP \(this file's postings only, as hledger checks a file\)/,
    ],
    ['bad date', 'malformed', '2026-02-30 Fee\n    Expenses:Bank Charges  £1.00\n    Assets:Bank:Current Account\n', /line 1: "2026-02-30" is not a date/],
    [
      'foreign amount without a rate',
      'rate_required',
      '2026-07-01 Fee\n    Expenses:Bank Charges  1.00 USD\n    Assets:Bank:Current Account\n',
      /line 2: 1\.00 USD needs a rate/,
    ],
    [
      'too many decimals',
      'malformed',
      '2026-07-01 Fee\n    Expenses:Bank Charges  £1.001\n    Assets:Bank:Current Account\n',
      /line 2: 1\.001 has more decimals than GBP/,
    ],
    ['include', 'malformed', 'include other.journal\n', /line 1: "include" changes other lines' meaning/],
  ];
  for (const [what, code, text, message] of refusals) {
    it(`refused, with the line named and every report as before: ${what}`, async () => {
      const org = await newOrg();
      await load(org, 'small-business.journal', fixture('small-business.journal'), { allowNewAccounts: true });
      const before = await everything(org);
      // a good transaction first: nothing of the file is written, not even what could be
      const file = `2026-07-01 Coffee\n    Expenses:Travel  £3.00\n    Assets:Bank:Current Account\n\n${text}`;
      const refusal = await load(org, 'bad.journal', Buffer.from(file)).then(
        () => assert.fail('imported'),
        (e: unknown) => e,
      );
      assert.ok(refusal instanceof ImportRefusal, String(refusal));
      assert.equal(refusal.code, code);
      assert.match(
        refusal.message.replace(/line (\d+)/g, (_, l) => `line ${Number(l) - 4}`),
        message,
      );
      assert.deepEqual(await everything(org), before);
    });
  }

  it('only into the builtin ledger: a GnuCash organisation is refused', async () => {
    const org = await newOrg('gnucash');
    await assert.rejects(load(org, 'x.journal', fixture('small-business.journal')), /keeps its books in gnucash/);
  });

  it('CSV: a row with both debit and credit, no account, or a missing column is refused with its line', async () => {
    const org = await newOrg();
    const csv = (body: string) => load(org, 'x.csv', Buffer.from(`Date,Account,Debit,Credit\n${body}`));
    await assert.rejects(csv('2026-01-01,Assets:Bank,1.00,1.00\n2026-01-01,Equity,,1.00\n'), /line 2: both a debit and a credit/);
    await assert.rejects(csv('2026-01-01,,1.00,\n2026-01-01,Equity,,1.00\n'), /line 2: no account/);
    await assert.rejects(load(org, 'x.csv', Buffer.from('Date,Debit\n2026-01-01,1\n')), /names no account column/);
  });
});

it('hledger amounts: symbols and codes on either side, signs, thousands', () => {
  assert.deepEqual(readAmount('£-1,234.50'), { amount: '-1234.50', commodity: '£' });
  assert.deepEqual(readAmount('-£5'), { amount: '-5', commodity: '£' });
  assert.deepEqual(readAmount('1,000.00 USD'), { amount: '1000.00', commodity: 'USD' });
  assert.deepEqual(readAmount('EUR 7.5'), { amount: '7.5', commodity: 'EUR' });
  assert.deepEqual(readAmount('.5'), { amount: '0.5', commodity: null });
  assert.ok('error' in readAmount('12,50'), 'a decimal comma is refused, not read as 1250');
  assert.ok('error' in readAmount('£5 USD'));
});
