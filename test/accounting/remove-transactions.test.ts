/**
 * Taking transactions out of the builtin ledger (a vendor's mirror pass, banking.unmatch) takes what
 * they added to the stored aggregates with them, and leaves no row of nothing behind: an account
 * nothing is posted to any more has no movement rather than a movement of zero, while a row that
 * still sums other lines (even to zero) stays.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { removeTransactions } from '../../src/accounting/builtin/remove-transactions.js';
import { LedgerWriter } from '../../src/accounting/builtin/writer.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { describeEachDialect } from '../helpers/store.js';

const ORG = 'org_remove';
const TABLES = ['acct_month_totals', 'acct_day_totals', 'acct_month_line_totals', 'acct_day_line_totals'] as const;

/** Per aggregate table, its rows for the account as `key:amount` (count where the table has one), sorted. */
async function aggregates(store: Store, accountId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = (await store.db
      .selectFrom(table)
      .selectAll()
      .where('organisation_id', '=', ORG)
      .where('account_id', '=', accountId)
      .execute()) as unknown as Record<string, unknown>[];
    out[table] = rows.map((r) => `${r.month ?? r.date}:${Number(r.amount)}${'count' in r ? `/${Number(r.count)}` : ''}`).sort();
  }
  return out;
}

describeEachDialect('removing transactions from the builtin ledger', (store) => {
  it('takes their amounts off the aggregates and drops the rows left with nothing, keeping rows that still sum other lines', async () => {
    const s = store();
    await provisionOrganisation(s.db, { id: ORG, name: 'Remove Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    const w = new LedgerWriter(s.db, s.dialect, ORG, 'GBP');
    const bank = (await w.createAccount({ name: 'Bank', type: 'Bank' })).id;
    const rent = (await w.createAccount({ name: 'Rent', type: 'Expense' })).id;
    const post = (date: string, amount: number) =>
      w.post({
        type: 'journal',
        date,
        description: `rent ${date}`,
        lines: [
          { accountId: rent, amount },
          { accountId: bank, amount: -amount },
        ],
      });
    const march = await post('2026-03-10', 50_000);
    // two lines of April whose sum is zero: their rows sum to nothing and must stay
    await post('2026-04-02', 20_000);
    await post('2026-04-02', -20_000);
    const lateApril = await post('2026-04-20', 7_500);

    const before = await aggregates(s, rent);
    assert.deepEqual(before.acct_month_totals, ['2026-03:50000', '2026-04:7500']);
    assert.deepEqual(before.acct_day_totals, ['2026-03-10:50000', '2026-04-02:0', '2026-04-20:7500']);

    await s.db.transaction().execute((trx) => removeTransactions(trx, s.dialect, ORG, [march, lateApril]));
    const after = await aggregates(s, rent);
    assert.deepEqual(after.acct_month_totals, ['2026-04:0'], 'March is gone; April still sums its two lines');
    assert.deepEqual(after.acct_day_totals, ['2026-04-02:0'], 'the emptied days are gone; the day of the two lines stays');
    for (const table of ['acct_month_line_totals', 'acct_day_line_totals'] as const) {
      assert.ok(
        after[table]!.every((row) => !row.endsWith('/0')),
        `${table}: no row counting no line (${after[table]!.join(', ')})`,
      );
      assert.ok(after[table]!.length > 0, `${table}: the April lines' rows stay`);
    }
    // the lines and transactions themselves are gone, and only theirs
    const lines = await s.db.selectFrom('acct_lines').select('transaction_id').where('organisation_id', '=', ORG).execute();
    assert.equal(lines.length, 4);
    assert.ok(lines.every((l) => l.transaction_id !== march && l.transaction_id !== lateApril));
  });
});
