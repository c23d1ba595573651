/**
 * Books from a journal as an accountant reads them (issue 41), on both databases: a plain hledger
 * journal (test/fixtures/journal/joinery.hledger: no `type:` tags, payees as descriptions) gets
 * the transaction types QuickBooks, Xero or GnuCash would have recorded, so the ledger lists its
 * lines; payables are aged from the books supplier by supplier; tax and cost-of-sales names are
 * classified; posting dates, `=*` assertions, declared accounts, binary files and closing entries
 * are handled as hledger handles them.
 *
 * The expected figures are hledger 1.25's (Debian's package), written in here so the tests need no
 * hledger; each says the command it came from, run in test/fixtures/journal.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { importJournal, type JournalImportRequest } from '../../src/import/journal/load.js';
import { accountsList } from '../../src/operations/accounts-list.js';
import { ledgerAccountTransactions } from '../../src/operations/ledger-account-transactions.js';
import { reportsAgedPayables } from '../../src/operations/reports-aged-payables.js';
import { reportsBalanceSheet } from '../../src/operations/reports-balance-sheet.js';
import { reportsProfitAndLoss } from '../../src/operations/reports-profit-and-loss.js';
import { provisionOrganisation } from '../../src/provision.js';
import { billRow } from '../../src/store/bills.js';
import { ImportRefusal } from '../../src/import/refusal.js';
import type { Store } from '../../src/store/db.js';
import type { OrganisationRow } from '../../src/store/schema.js';
import { call } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'journal');
const TODAY = '2024-06-30';
const joinery = () => readFileSync(join(FIXTURES, 'joinery.hledger'));
const section = (r: any, title: string) => r.sections.find((s: any) => s.title === title)?.total[0];
const summary = (r: any, label: string) => r.summary.find((l: any) => l.label === label)?.amounts[0];
/** every account's amount in a report: full name -> amount of the first period or date */
const accountAmounts = (r: any): Record<string, number> =>
  Object.fromEntries(r.sections.flatMap((s: any) => s.groups.flatMap((g: any) => g.accounts.map((a: any) => [a.name, a.amounts[0]]))));
/** the refusal a load ends in */
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('imported'),
    (e: unknown) => {
      assert.ok(e instanceof ImportRefusal, String(e));
      return e;
    },
  );

describeEachDialect('journal books as an accountant reads them', (store) => {
  let n = 0;
  const newOrg = () =>
    provisionOrganisation(store().db, {
      name: `Cedar & Pine ${++n}`,
      homeCurrency: 'CAD',
      timeZone: 'America/Toronto',
      fyStartMonth: 1,
      accountingSystem: 'builtin',
    });
  const load = (org: OrganisationRow, fileName: string, bytes: Uint8Array, options: Partial<JournalImportRequest> = {}) =>
    importJournal(store(), { organisation: org, fileName, bytes, allowNewAccounts: true, ...options });
  const read = (org: OrganisationRow, op: Parameters<typeof call>[1], input: Record<string, unknown>) =>
    call(store() as Store, op, org.id, input, { today: TODAY });
  /** every transaction as [date, description, type, contact] in date order */
  const transactions = async (org: OrganisationRow) =>
    (
      await store()
        .db.selectFrom('acct_transactions as t')
        .leftJoin('acct_contacts as c', 'c.id', 't.contact_id')
        .select(['t.date', 't.description', 't.type', 't.number', 'c.name'])
        .where('t.organisation_id', '=', org.id)
        .orderBy('t.date')
        .orderBy('t.description')
        .execute()
    ).map((t) => [t.date, t.description, t.type, t.name]);

  it('point 0: a plain journal gets the types the systems would have recorded, with payees as contacts; `type:` still wins', async () => {
    const org = await newOrg();
    await load(org, 'joinery.hledger', joinery());
    assert.deepEqual(await transactions(org), [
      ['2024-01-01', 'Opening balances', 'journal', null],
      ['2024-01-05', 'Maple Timber', 'bill', 'Maple Timber'],
      ['2024-01-10', 'Maple Timber', 'bill', 'Maple Timber'],
      ['2024-01-12', 'Brass & Co', 'bill', 'Brass & Co'],
      ['2024-01-15', 'Harbour Properties', 'cheque', 'Harbour Properties'],
      ['2024-01-20', 'Tool Depot', 'card_charge', 'Tool Depot'],
      ['2024-01-25', 'Tool Depot', 'card_refund', 'Tool Depot'],
      ['2024-01-31', 'Monthly fee', 'expense', 'RBC'],
      ['2024-02-01', 'Oakridge Homes', 'invoice', 'Oakridge Homes'],
      ['2024-02-05', 'Maple Timber', 'payment', 'Maple Timber'],
      ['2024-02-08', 'Maple Timber', 'supplier_credit', 'Maple Timber'],
      ['2024-02-15', 'Oakridge Homes', 'payment', 'Oakridge Homes'],
      ['2024-02-20', 'Walk-in customer', 'deposit', 'Walk-in customer'],
      ['2024-02-28', 'Maple Timber', 'bill', 'Maple Timber'],
      ['2024-03-05', 'Brass & Co', 'payment', 'Brass & Co'],
      ['2024-03-10', 'Statement paid', 'transfer', 'Visa'],
      ['2024-03-30', 'Transfer to savings', 'transfer', null],
      ['2024-03-31', 'Monthly fee', 'expense', 'RBC'],
    ]);
    const kinds = await store().db.selectFrom('acct_contacts').select(['name', 'kind']).where('organisation_id', '=', org.id).orderBy('name').execute();
    assert.deepEqual(
      kinds.filter((k) => ['Oakridge Homes', 'Walk-in customer', 'Maple Timber'].includes(k.name)).map((k) => [k.name, k.kind]),
      [
        ['Maple Timber', 'supplier'],
        ['Oakridge Homes', 'customer'],
        ['Walk-in customer', 'customer'],
      ],
    );

    // the ledger lists them: a year of rent is the cheque, not "count 0, total 0"
    const q1 = { period: 'custom', from: '2024-01-01', to: '2024-03-31' };
    const rent = await read(org, ledgerAccountTransactions, { account: 'Expenses:Rent', ...q1 });
    assert.deepEqual([rent.count, rent.total, rent.notes], [1, 1800, []]);
    assert.deepEqual(
      rent.transactions.map((t: any) => [t.date, t.type, t.number, t.supplier, t.amount]),
      [['2024-01-15', 'cheque', '1001', 'Harbour Properties', 1800]],
    );
    // hledger -f joinery.hledger bal 'Expenses:Cost of Sales' --pivot payee -e 2024-04-01: Brass & Co $500.00, Maple Timber $8,800.00
    const bySupplier = await read(org, ledgerAccountTransactions, { account: 'Expenses:Cost of Sales', groupBy: 'supplier', ...q1 });
    assert.deepEqual(
      bySupplier.groups.map((g: any) => [g.name, g.total, g.count]),
      [
        ['Maple Timber', 8800, 4],
        ['Brass & Co', 500, 1],
      ],
    );
    assert.equal(bySupplier.total, 9300);

    // a `type:` tag is still the override, and a CSV's Type column
    const tagged = await newOrg();
    const text = [
      '2024-01-15 (1001) Harbour Properties  ; type: journal',
      '    Expenses:Rent  $1,800.00',
      '    Assets:Bank:Chequing',
      '',
      '2024-01-16 Harbour Properties',
      '    Expenses:Rent  $100.00',
      '    Assets:Bank:Chequing',
    ].join('\n');
    await load(tagged, 'tagged.journal', Buffer.from(text));
    assert.deepEqual(await transactions(tagged), [
      ['2024-01-15', 'Harbour Properties', 'journal', null],
      ['2024-01-16', 'Harbour Properties', 'expense', 'Harbour Properties'],
    ]);
    const csv = await newOrg();
    await load(
      csv,
      'books.csv',
      Buffer.from(
        'Date,Number,Type,Account,Contact,Description,Debit,Credit\n2024-01-15,1,Journal ' +
          'Entry,Expenses:Rent,,Rent,10.00,\n2024-01-15,1,,Assets:Bank:Chequing,,,,10.00\n2024-01-16,2,,Expenses:Rent,Harbour,Rent,10.00,\n2024-01-16,2' +
          ',,Assets:Bank:Chequing,,,,10.00\n',
      ),
    );
    assert.deepEqual(await transactions(csv), [
      ['2024-01-15', 'Rent', 'journal', null],
      ['2024-01-16', 'Rent', 'expense', 'Harbour'],
    ]);
  });

  it('point 2: tax accounts are tax liabilities and assets, never payables or receivables, before the "payable/receivable" name rule', async () => {
    const org = await newOrg();
    await load(org, 'joinery.hledger', joinery());
    const chart = await read(org, accountsList, {});
    const type = (name: string) => chart.accounts.find((a: any) => a.fullName === name)?.type;
    assert.equal(type('Liabilities:GST/HST Payable'), 'Other Current Liability', 'declared type: L, named …Payable: tax, not Accounts Payable');
    assert.equal(type('Assets:GST Receivable'), 'Other Current Asset', 'declared type: A, named …Receivable: tax, not Accounts Receivable');
    assert.equal(type('Liabilities:Accounts Payable'), 'Accounts Payable');
    assert.equal(type('Assets:Accounts Receivable'), 'Accounts Receivable');
    // names alone, with no account directive
    const undeclared = await newOrg();
    const names = [
      'Liabilities:VAT Payable',
      'Liabilities:Sales Tax Payable',
      'Liabilities:PAYE and NI',
      'Liabilities:Payroll:Withholding Payable',
      'Assets:HST Receivable',
      'Liabilities:Trade Creditors',
      'Assets:Trade Debtors',
      'Assets:Bank:Tax Savings',
    ];
    await load(
      undeclared,
      'names.journal',
      Buffer.from(names.map((name, i) => `2024-01-0${i + 1} Entry ${i}\n    ${name}  $1.00\n    Equity:Owner Capital\n`).join('\n')),
    );
    const chart2 = await read(undeclared, accountsList, {});
    assert.deepEqual(
      names.map((name) => chart2.accounts.find((a: any) => a.fullName === name)?.type),
      [
        'Other Current Liability',
        'Other Current Liability',
        'Other Current Liability',
        'Other Current Liability',
        'Other Current Asset',
        'Accounts Payable',
        'Accounts Receivable',
        'Bank',
      ],
    );
    // hledger -f joinery.hledger bal 'Liabilities:Accounts Payable' -e 2024-04-01: $-5,689.00 (the tax account's $-1,365.00 is not in it)
    const aged = await read(org, reportsAgedPayables, { date: '2024-03-31' });
    assert.equal(aged.ledgerBalance, 5689);
  });

  it('point 3: cost-of-sales names refine a declared expense type: gross profit is income less cost of sales', async () => {
    const org = await newOrg();
    await load(org, 'joinery.hledger', joinery());
    const chart = await read(org, accountsList, {});
    const type = (name: string) => chart.accounts.find((a: any) => a.fullName === name)?.type;
    assert.equal(type('Expenses:Cost of Sales:Timber'), 'Cost of Goods Sold', 'declared type: X, named Cost of Sales');
    assert.equal(type('Expenses:Cost of Sales'), 'Cost of Goods Sold');
    assert.equal(type('Expenses:Rent'), 'Expense');
    const pl = await read(org, reportsProfitAndLoss, { period: 'custom', from: '2024-01-01', to: '2024-03-31' });
    // hledger -f joinery.hledger is -e 2024-04-01: revenues $10,500.00, expenses $11,430.00, net $-930.00;
    // hledger -f joinery.hledger bal 'Expenses:Cost of Sales' -e 2024-04-01: $9,300.00
    assert.deepEqual(
      [section(pl, 'Income'), section(pl, 'Cost of Sales'), summary(pl, 'Gross Profit'), section(pl, 'Operating Expenses'), summary(pl, 'Net Profit')],
      [10500, 9300, 1200, 2130, -930],
    );
    for (const [name, t] of [
      ['Expenses:Direct Costs:Labour', 'Cost of Goods Sold'],
      ['Expenses:Purchases', 'Cost of Goods Sold'],
      ['Cost of Goods Sold:Freight', 'Cost of Goods Sold'],
      ['Expenses:Office', 'Expense'],
    ]) {
      const o = await newOrg();
      await load(o, 'x.journal', Buffer.from(`account ${name}  ; type: X\n\n2024-01-01 Entry\n    ${name}  $1.00\n    Assets:Bank:Chequing\n`));
      assert.equal((await read(o, accountsList, {})).accounts.find((a: any) => a.fullName === name)?.type, t, name);
    }
  });

  it('point 1: payables aged from the books per supplier, first in first out; the total is the payables account at each date', async () => {
    const org = await newOrg();
    await load(org, 'joinery.hledger', joinery());
    const aged = async (date: string, detail = false) => read(org, reportsAgedPayables, { date, detail });
    // hledger -f joinery.hledger bal 'Liabilities:Accounts Payable' --pivot payee -e 2024-03-01: Brass & Co $-565.00, Maple Timber $-5,424.00, total $-5,989.00
    const feb = await aged('2024-02-29');
    assert.deepEqual(
      feb.contacts.map((c: any) => [c.contact, c.total]),
      [
        ['Brass & Co', 565],
        ['Maple Timber', 5424],
      ],
    );
    assert.deepEqual([feb.totals.total, feb.ledgerBalance, feb.notes], [5989, 5989, []]);
    // hledger -f joinery.hledger bal 'Liabilities:Accounts Payable' --pivot payee -e 2024-04-01: Brass & Co $-265.00, Maple Timber $-5,424.00, total $-5,689.00
    const mar = await aged('2024-03-31', true);
    assert.deepEqual(
      mar.contacts.map((c: any) => [c.contact, c.days31to60, c.days61to90, c.total, c.items.map((i: any) => [i.number, i.dueDate, i.amount])]),
      [
        ['Brass & Co', 0, 265, 265, [['H-17', '2024-01-12', 265]]],
        // MT-881 paid on 2024-02-05, CN-12's 226.00 taken off MT-890, the oldest still open
        [
          'Maple Timber',
          3390,
          2034,
          5424,
          [
            ['MT-890', '2024-01-10', 2034],
            ['MT-902', '2024-02-28', 3390],
          ],
        ],
      ],
    );
    assert.deepEqual([mar.totals.total, mar.ledgerBalance, mar.notes], [5689, 5689, []]);
    const before = await aged('2024-01-04');
    assert.deepEqual([before.count, before.totals.total, before.ledgerBalance], [0, 0, 0]);

    // the service's own bills merged without counting a bill twice: one published to MT-881's
    // transaction (which the service knows is still open: the payments settle the others first),
    // one with H-17's supplier and number, and one not in the books
    const mt881 = await store()
      .db.selectFrom('acct_transactions')
      .select('id')
      .where('organisation_id', '=', org.id)
      .where('number', '=', 'MT-881')
      .executeTakeFirstOrThrow();
    await store()
      .db.insertInto('documents')
      .values({
        id: 'doc_mt881',
        organisation_id: org.id,
        number: 'MT-881',
        type: 'bill',
        supplier: 'Maple Timber',
        date: '2024-01-05',
        due_date: '2024-02-04',
        currency: 'CAD',
        subtotal: 400_000,
        tax: 52_000,
        total: 452_000,
        accounting_transaction_id: mt881.id,
        published_at: '2024-01-06T09:00:00.000Z',
        created_at: '2024-01-06T09:00:00.000Z',
        created_by: null,
        updated_at: null,
      })
      .execute();
    const bill = (id: string, documentId: string | null, supplier: string, number: string, date: string, due: string, amount: number) =>
      billRow({
        id,
        organisation_id: org.id,
        document_id: documentId,
        kind: 'bill',
        supplier,
        invoice_number: number,
        date,
        due_date: due,
        scheduled_date: null,
        tags: '',
        currency: 'CAD',
        original_amount: amount,
        amount_due: amount,
        latest_note: null,
        created_at: '2024-03-01T09:00:00.000Z',
      });
    await store()
      .db.insertInto('bills')
      .values([
        bill('bill_mt881', 'doc_mt881', 'Maple Timber', 'MT-881', '2024-01-05', '2024-02-04', 452_000),
        bill('bill_h17', null, 'brass & co', 'H-17', '2024-01-12', '2024-02-11', 56_500),
        bill('bill_nova', null, 'Nova Paints', 'NP-3', '2024-03-20', '2024-04-19', 11_300),
      ])
      .execute();
    const merged = await read(org, reportsAgedPayables, { date: '2024-03-31', detail: true });
    assert.deepEqual(
      merged.contacts.map((c: any) => [c.contact, c.total, c.items.map((i: any) => [i.number, i.dueDate, i.bucket, i.amount])]),
      [
        ['Brass & Co', 265, [['H-17', '2024-02-11', 'days31to60', 265]]],
        // 4,520.00 paid and 226.00 credited settle MT-890 and 2,486.00 of MT-902 before MT-881
        [
          'Maple Timber',
          5424,
          [
            ['MT-881', '2024-02-04', 'days31to60', 4520],
            ['MT-902', '2024-02-28', 'days31to60', 904],
          ],
        ],
        ['Nova Paints', 113, [['NP-3', '2024-04-19', 'current', 113]]],
      ],
    );
    assert.deepEqual([merged.totals.total, merged.ledgerBalance], [5802, 5689], 'the books, and the one bill not in them');
    assert.deepEqual(merged.notes, [
      "1 of the service's bill(s), 113.00 CAD, are not in the books yet and are aged as they stand (what is due on each today, 2024-06-30).",
    ]);
    const feb2 = await aged('2024-02-29');
    assert.deepEqual([feb2.totals.total, feb2.ledgerBalance], [5989, 5989], 'the bill dated after the date is left out');
  });

  it('point 4: each posting on its own date (a date: tag, a [DATE], a date without its year): the bank equals hledger day by day', async () => {
    const org = await newOrg();
    const report = await load(org, 'joinery.hledger', joinery());
    assert.deepEqual(report.period, { from: '2024-01-01', to: '2024-04-02' }, 'the savings posting is on 2024-04-02');
    assert.match(report.notes.join(' '), /1 transaction\(s\) have postings dated apart from the transaction \(line 94\)/);
    // hledger -f joinery.hledger bal Assets:Bank --flat -e DAY+1 (balances at the end of DAY):
    // 03-29 Chequing $18,630.00; 03-30 Chequing $17,630.00; 03-31 and 04-01 Chequing $17,615.00;
    // 04-02 Chequing $17,615.00, Savings $1,000.00
    const hledger: Array<[string, number, number | undefined]> = [
      ['2024-03-29', 18630, undefined],
      ['2024-03-30', 17630, undefined],
      ['2024-03-31', 17615, undefined],
      ['2024-04-01', 17615, undefined],
      ['2024-04-02', 17615, 1000],
      ['2024-04-03', 17615, 1000],
    ];
    for (const [day, chequing, savings] of hledger) {
      const bs = accountAmounts(await read(org, reportsBalanceSheet, { asAt: day }));
      assert.deepEqual([bs['Assets:Bank:Chequing'], bs['Assets:Bank:Savings']], [chequing, savings], day);
    }
    const march = await read(org, ledgerAccountTransactions, { account: 'Assets:Bank:Savings', period: 'custom', from: '2024-03-01', to: '2024-03-31' });
    const april = await read(org, ledgerAccountTransactions, {
      account: 'Assets:Bank:Savings',
      period: 'custom',
      from: '2024-04-01',
      to: '2024-04-30',
      reconcile: true,
    });
    assert.deepEqual([march.movement, april.movement], [0, 1000]);
    assert.deepEqual(
      april.reconciliation.entries.map((e: any) => [e.date, e.type, e.amount]),
      [['2024-04-02', 'transfer', 1000]],
    );
    const again = await load(org, 'joinery.hledger', joinery());
    assert.deepEqual([again.new, again.alreadyPresent], [0, 18], 'loading again adds nothing');

    // Ledger's [DATE] and a date without its year (the transaction's year), as hledger reads them
    const other = await newOrg();
    const text = ['2024-03-31 Fees', '    Assets:Bank:Chequing  $-20.00  ; [2024/04/05]', '    Expenses:Bank Fees  $20.00  ; date: 4/6', ''].join('\n');
    await load(other, 'ledger.journal', Buffer.from(text));
    const lines = await store().db.selectFrom('acct_lines').select(['date', 'amount']).where('organisation_id', '=', other.id).orderBy('line_no').execute();
    // hledger -f ledger.journal reg: 2024-04-05 Assets:Bank:Chequing $-20.00, 2024-04-06 Expenses:Bank Fees $20.00
    assert.deepEqual(
      lines.map((l) => [l.date, Number(l.amount)]),
      [
        ['2024-04-05', -2000],
        ['2024-04-06', 2000],
      ],
    );

    // a posting date that is not a date is refused, naming its line, never moved to the transaction's date
    const bad = await refusalOf(
      load(await newOrg(), 'bad.journal', Buffer.from('2024-03-31 Fees\n    Assets:Bank:Chequing  $-20.00  ; date: 2024-02-30\n    Expenses:Bank Fees\n')),
    );
    assert.equal(bad.code, 'malformed');
    assert.match(bad.message, /line 2: posting date "2024-02-30" is not a date/);
  });

  it('point 5: balance assertions as hledger checks them: =* and ==* with sub-accounts, == with no other currency, in posting-date order', async () => {
    const opening = [
      '2024-01-01 Opening balances',
      '    Assets:Bank:A          $100.00',
      '    Assets:Bank:B           $50.00',
      '    Assets:Bank:B        10.00 USD @ $1.35',
      '    Equity:Owner Capital',
      '',
    ].join('\n');
    const fee = (account: string, amount: string, assertion: string) =>
      `${opening}\n2024-01-02 RBC | Fee\n    Expenses:Bank Fees  ${amount.replace('-', '')}\n    ${account}  ${amount}  ${assertion}\n`;
    // each as hledger 1.25 answers `hledger -f FILE bal` for the same file: accepted, or its assertion error (calculated / asserted)
    const accepted: Array<[string, string, string]> = [
      ['Assets:Bank', '$-5.00', '=* $145.00'],
      ['Assets:Bank', '$-5.00', '= $-5.00'],
      ['Assets:Bank', '$-5.00', '==* $145.00'],
      ['Assets:Bank:B', '$-1.00', '= $49.00'],
      ['Assets:Bank:B', '$-1.00', '= 10.00 USD'],
    ];
    for (const [account, amount, assertion] of accepted) {
      const report = await load(await newOrg(), 'a.journal', Buffer.from(fee(account, amount, assertion)));
      assert.equal(report.new, 2, `${account} ${assertion}`);
    }
    const refused: Array<[string, string, string, RegExp]> = [
      ['Assets:Bank', '$-5.00', '=* $150.00', /line 9: Assets:Bank with its sub-accounts should be 150\.00 CAD here but is 145\.00 CAD/],
      ['Assets:Bank', '$-5.00', '==* $150.00', /line 9: Assets:Bank with its sub-accounts should be 150\.00 CAD here but is 145\.00 CAD/],
      ['Assets:Bank', '$-5.00', '= $145.00', /line 9: Assets:Bank should be 145\.00 CAD here but is -5\.00 CAD/],
      ['Assets:Bank:B', '$-1.00', '== $49.00', /line 9: Assets:Bank:B should hold only CAD here \(==\) but also holds 10\.00 USD/],
      ['Assets:Bank:B', '$-1.00', '==* $49.00', /line 9: Assets:Bank:B with its sub-accounts should hold only CAD here \(==\) but also holds 10\.00 USD/],
    ];
    for (const [account, amount, assertion, message] of refused) {
      const org = await newOrg();
      const refusal = await refusalOf(load(org, 'r.journal', Buffer.from(fee(account, amount, assertion))));
      assert.equal(refusal.code, 'assertion_failed', assertion);
      assert.match(refusal.message, message);
      assert.equal((await transactions(org)).length, 0, 'nothing written');
    }
    // in the order of the postings' own dates: hledger accepts the first and refuses the second (calculated -105, asserted -5)
    const posted = '2024-03-30 Transfer\n    Assets:Bank:Chequing  $-100.00  ; date: 2024-04-02\n    Equity:Owner Capital\n';
    await load(
      await newOrg(),
      'e.journal',
      Buffer.from(`${posted}\n2024-03-31 Check\n    Assets:Bank:Chequing  $0.00 = $0.00\n    Equity:Owner Capital  $0.00\n`),
    );
    const late = await refusalOf(
      load(await newOrg(), 'f.journal', Buffer.from(`2024-04-05 Fee\n    Assets:Bank:Chequing  $-5.00 = $-5.00\n    Expenses:Bank Fees\n\n${posted}`)),
    );
    assert.match(late.message, /line 2: Assets:Bank:Chequing should be -5\.00 CAD here but is -105\.00 CAD/);
  });

  it('point 8: groups is an array whatever the grouping: [] with groupBy none, as the spec types it', async () => {
    const org = await newOrg();
    await load(org, 'joinery.hledger', joinery());
    const q1 = { account: 'Expenses:Cost of Sales', period: 'custom', from: '2024-01-01', to: '2024-03-31' };
    for (const input of [q1, { ...q1, groupBy: 'none' }, { ...q1, groupBy: 'none', page: 9 }]) {
      const r = await read(org, ledgerAccountTransactions, input);
      assert.deepEqual(r.groups, [], JSON.stringify(input));
      assert.ok(Array.isArray(r.transactions));
    }
    const byMonth = await read(org, ledgerAccountTransactions, { ...q1, groupBy: 'month' });
    assert.deepEqual(
      byMonth.groups.map((g: any) => [g.key, g.total]),
      [
        ['2024-01', 6500],
        ['2024-02', 2800],
      ],
    );
  });

  it('point 6: accounts the file declares are kept in the chart, postings or not', async () => {
    const org = await newOrg();
    const report = await load(org, 'joinery.hledger', joinery());
    assert.ok(report.accountsCreated.includes('Assets:Bank:Term Deposit'));
    const chart = await read(org, accountsList, {});
    // hledger -f joinery.hledger accounts --declared lists it too
    assert.equal(chart.accounts.find((a: any) => a.fullName === 'Assets:Bank:Term Deposit')?.type, 'Bank', 'account Assets:Bank:Term Deposit  ; type: C');
    const again = await load(org, 'joinery.hledger', joinery());
    assert.deepEqual(again.accountsCreated, []);

    // without new accounts allowed, a declared account the chart has not is named in a note, not created
    const text = 'account Assets:Bank:Westpac Savings  ; type: C\n\n2024-01-02 Fee\n    Expenses:Bank Fees  $1.00\n    Assets:Bank:Chequing\n';
    const notAllowed = await load(org, 'declared.journal', Buffer.from(text), { allowNewAccounts: false });
    assert.deepEqual([notAllowed.new, notAllowed.accountsCreated], [1, []]);
    assert.match(
      notAllowed.notes.join(' '),
      /1 account\(s\) the file declares with no postings are not in the chart and were not created \(new accounts not allowed\): Assets:Bank:Westpac Savings\./,
    );
    const allowed = await load(org, 'declared.journal', Buffer.from(text));
    assert.deepEqual([allowed.new, allowed.accountsCreated], [0, ['Assets:Bank:Westpac Savings']]);
    // one whose kind cannot be told is refused, as a used one is
    const unknown = await refusalOf(load(await newOrg(), 'u.journal', Buffer.from('account Projects:Kitchen\n')));
    assert.match(unknown.message, /line 1: cannot tell what kind of account "Projects" is/);
  });

  it('point 7: a file that is not text is refused once, as not a text journal, not line by line', async () => {
    const org = await newOrg();
    // a PNG's signature and header, then bytes with line breaks and NULs, as a scan's
    const noise = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 37 + 11) % 256));
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), noise]);
    const refused = await refusalOf(load(org, 'scan.png', png));
    assert.deepEqual([refused.code, refused.problems], ['unsupported_format', []]);
    assert.equal(refused.message, 'scan.png is not a text journal: it looks like a PNG image. Load an hledger or Ledger journal, or a general-journal CSV.');
    const workbook = await refusalOf(load(org, 'books.csv', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), noise])));
    assert.match(workbook.message, /^books\.csv is not a text journal: it looks like a ZIP archive \(an Excel or OpenDocument workbook is one\)/);
    const binary = await refusalOf(load(org, 'books.journal', Buffer.concat([Buffer.from('2024-01-01 x\n'), noise])));
    assert.match(binary.message, /^books\.journal is not a text journal: it looks like binary data\./);
    assert.equal((await transactions(org)).length, 0);
    // text in UTF-16 (with its byte order mark) is text: read, not refused
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('2024-01-02 RBC | Fee\n    Expenses:Bank Fees  $1.00\n    Assets:Bank:Chequing\n', 'utf16le'),
    ]);
    assert.equal((await load(org, 'books.journal', utf16)).new, 1);
    const csv16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Date,Account,Debit,Credit\n2024-01-03,Expenses:Bank Fees,2.00,\n2024-01-03,Assets:Bank:Chequing,,2.00\n', 'utf16le'),
    ]);
    assert.equal((await load(org, 'books.csv', csv16)).new, 1);
  });

  it('point 9: closing entries (hledger close) are left out, so the year closed to retained earnings keeps its profit', async () => {
    const year = [
      'account Assets:Bank:Chequing              ; type: C',
      'account Equity:Owner Capital              ; type: E',
      'account Equity:Retained Earnings          ; type: E',
      'account Income:Cabinetry                  ; type: R',
      'account Expenses:Cost of Sales:Timber     ; type: X',
      'account Expenses:Rent                     ; type: X',
      '',
      '2023-01-01 Opening balances',
      '    Assets:Bank:Chequing        $1,000.00',
      '    Equity:Owner Capital',
      '',
      '2023-03-10 Oakridge Homes',
      '    Assets:Bank:Chequing        $5,000.00',
      '    Income:Cabinetry',
      '',
      '2023-04-10 Maple Timber',
      '    Expenses:Cost of Sales:Timber   $2,000.00',
      '    Assets:Bank:Chequing',
      '',
      '2023-06-01 Harbour Properties',
      '    Expenses:Rent                $600.00',
      '    Assets:Bank:Chequing',
      '',
      '2024-01-15 Oakridge Homes',
      '    Assets:Bank:Chequing        $1,000.00',
      '    Income:Cabinetry',
      '',
      // as `hledger -f FILE close --close -e 2024-01-01 --close-acct 'Equity:Retained Earnings' Income Expenses` writes it
      '2023-12-31 closing balances',
      '    Expenses:Rent                        $-600.00 = $0.00',
      '    Expenses:Cost of Sales:Timber      $-2,000.00 = $0.00',
      '    Income:Cabinetry                    $5,000.00 = $0.00',
      '    Equity:Retained Earnings',
      '',
    ].join('\n');
    const org = await newOrg();
    const report = await load(org, 'closed.journal', Buffer.from(year));
    assert.deepEqual([report.transactions, report.new, report.closingLeftOut], [6, 5, 1]);
    assert.match(report.notes.join(' '), /1 closing entry left out \(line 28, 2023-12-31 "closing balances"\): Ledgerline closes each financial year itself/);
    // hledger -f FILE is -b 2023-01-01 -e 2024-01-01 not:desc:'closing balances': Net $2,400.00 (with the closing entry, 0)
    const pl = await read(org, reportsProfitAndLoss, { period: 'custom', from: '2023-01-01', to: '2023-12-31' });
    assert.deepEqual([section(pl, 'Income'), summary(pl, 'Gross Profit'), summary(pl, 'Net Profit')], [5000, 3000, 2400]);
    // hledger -f FILE bal -e 2024-04-01 --flat Assets Equity: Chequing $4,400.00, Owner Capital $-1,000.00, Retained Earnings $-2,400.00;
    // hledger -f FILE is -b 2024-01-01 -e 2024-04-01: Net $1,000.00
    const bs = await read(org, reportsBalanceSheet, { asAt: '2024-03-31' });
    assert.deepEqual(accountAmounts(bs), {
      'Assets:Bank:Chequing': 4400,
      'Equity:Owner Capital': 1000,
      'Equity:Retained Earnings': 2400,
      'Current Year Earnings': 1000,
    });
    assert.equal(summary(bs, 'Total Assets'), summary(bs, 'Total Liabilities and Equity'));
    const again = await load(org, 'closed.journal', Buffer.from(year));
    assert.deepEqual([again.new, again.alreadyPresent, again.closingLeftOut], [0, 5, 1]);

    // `closing: no` keeps one; a transaction with other accounts, or that does not say it closes, is no closing entry
    const kept = await newOrg();
    const keep = year.replace('2023-12-31 closing balances', '2023-12-31 closing balances  ; closing: no');
    assert.deepEqual([(await load(kept, 'kept.journal', Buffer.from(keep))).closingLeftOut], [0]);
    const keptPl = await read(kept, reportsProfitAndLoss, { period: 'custom', from: '2023-01-01', to: '2023-12-31' });
    assert.equal(summary(keptPl, 'Net Profit'), 0, 'as hledger is shows it with the closing entry');
    const other = await newOrg();
    const transfer =
      '2023-12-31 Year end bonus\n    Expenses:Rent  $10.00\n    Assets:Bank:Chequing\n\n2023-12-31 Owner pays rent\n    Expenses:Rent  $10.00\n    ' +
      'Equity:Owner Capital\n';
    assert.equal((await load(other, 'o.journal', Buffer.from(transfer))).closingLeftOut, 0);
    const tagged = await newOrg();
    assert.equal(
      (await load(tagged, 't.journal', Buffer.from('2023-12-31 Profit to reserves  ; closing:\n    Income:Cabinetry  $10.00\n    Equity:Retained Earnings\n')))
        .closingLeftOut,
      1,
    );
  });
});
