import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import { provisionOrganisation } from '../../src/provision.js';
import { describeEachDialect } from '../helpers/store.js';

describeEachDialect('store and builtin ledger', (store) => {
  it('migrates, provisions an organisation with its default role policy', async () => {
    const org = await provisionOrganisation(store().db, { name: 'Acme', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
    const roles = await store().db.selectFrom('operation_roles').select(['operation', 'role']).where('organisation_id', '=', org.id).execute();
    assert.equal(roles.filter((r) => r.operation === 'reports.profit_and_loss').length, 4);
    assert.deepEqual(
      roles
        .filter((r) => r.operation === 'documents.file')
        .map((r) => r.role)
        .sort(),
      ['admin', 'super_admin'],
    );
  });

  it('refuses an unbalanced transaction and keeps monthly totals equal to the lines', async () => {
    const org = await provisionOrganisation(store().db, { name: 'Books', homeCurrency: 'USD', timeZone: 'America/New_York', fyStartMonth: 1 });
    const w = new LedgerWriter(store().db, store().dialect, org.id, 'USD');
    const bank = await w.createAccount({ name: 'Checking', type: 'Bank' });
    const rent = await w.createAccount({ name: 'Rent', type: 'Expense' });
    await assert.rejects(
      w.post({
        type: 'expense',
        date: '2026-01-10',
        description: 'x',
        lines: [
          { accountId: rent.id, amount: 100 },
          { accountId: bank.id, amount: -99 },
        ],
      }),
      /does not balance/,
    );
    await w.post({
      type: 'expense',
      date: '2026-01-10',
      description: 'Jan rent',
      lines: [
        { accountId: rent.id, amount: 150_000 },
        { accountId: bank.id, amount: -150_000 },
      ],
    });
    await w.post({
      type: 'expense',
      date: '2026-01-31',
      description: 'fee',
      lines: [
        { accountId: rent.id, amount: 1 },
        { accountId: bank.id, amount: -1 },
      ],
    });
    await w.post({
      type: 'expense',
      date: '2026-02-03',
      description: 'Feb rent',
      lines: [
        { accountId: rent.id, amount: 150_000 },
        { accountId: bank.id, amount: -150_000 },
      ],
    });
    const months = await store().db.selectFrom('acct_month_totals').selectAll().where('account_id', '=', rent.id).orderBy('month').execute();
    assert.deepEqual(
      months.map((m) => [m.month, Number(m.amount)]),
      [
        ['2026-01', 150_001],
        ['2026-02', 150_000],
      ],
    );
    const books = new BuiltinAccounting(store().db, org.id);
    const totals = await books.accountTotals([
      { from: '2026-01-01', to: '2026-01-31' },
      { from: '2026-01-11', to: '2026-02-10' },
      { to: '2026-01-30' },
      { from: '2026-01-31', to: '2026-01-31' },
    ]);
    assert.deepEqual(totals.get(rent.id), [150_001, 150_001, 150_000, 1]);
    assert.deepEqual(totals.get(bank.id), [-150_001, -150_001, -150_000, -1]);
    // "up to any date", as a connector asks for an account's whole balance, alone and beside a shorter range
    const always = await books.accountTotals([{ to: '9999-12-31' }, { to: '2026-01-31' }]);
    assert.deepEqual(always.get(rent.id), [300_001, 150_001]);
    assert.deepEqual((await books.accountTotals([{ to: '9999-12-31' }])).get(bank.id), [-300_001]);
  });
});
