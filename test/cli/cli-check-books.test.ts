/**
 * `ledgerline check-books` on a SQLite file: a Xero and a QuickBooks organisation whose mirrors agree
 * with the vendors' own BalanceSheet reports (exit 0, every total the same); a change in Xero the
 * mirror has not seen yet (its age not reached) shows as a difference (exit 1) naming the amount;
 * the builtin ledger is refused with why.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NO_BUDGET, useCallBudget } from '../../src/accounting/call-budget.js';
import { checkBooksCommand } from '../../src/cli/check-books.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { captureStdout } from '../helpers/cli.js';
import { addSpendNow } from '../helpers/fake-xero-book.js';
import { startFakeQuickBooks, type FakeQuickBooks } from '../helpers/fake-quickbooks.js';
import { startFakeXero, type FakeXero } from '../helpers/fake-xero.js';

useCallBudget(NO_BUDGET);

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-check-books-'));
const saved = { sqlite: process.env.LEDGERLINE_SQLITE_PATH, url: process.env.DATABASE_URL };
const run = (args: string[]) => captureStdout(() => checkBooksCommand(args));
let xero: FakeXero;
let qb: FakeQuickBooks;

describe('ledgerline check-books', () => {
  before(async () => {
    xero = await startFakeXero({ limits: false, today: '2026-06-15' });
    qb = await startFakeQuickBooks({ limits: false, today: '2026-06-15' });
    process.env.LEDGERLINE_SQLITE_PATH = path.join(dir, 'books.sqlite');
    process.env.DATABASE_URL = '';
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH });
    await migrate(store);
    const connect = async (id: string, name: string, system: 'xero' | 'quickbooks', config: object) => {
      await provisionOrganisation(store.db, {
        id,
        name,
        homeCurrency: system === 'xero' ? 'GBP' : 'USD',
        timeZone: 'Europe/London',
        fyStartMonth: 1,
        accountingSystem: system,
      });
      await store.db
        .updateTable('organisations')
        .set({ accounting_config: JSON.stringify(config) })
        .where('id', '=', id)
        .execute();
    };
    // the mirror may be an hour old: a change in Xero is not seen until then
    await connect('org_x', 'Harbour Roasters', 'xero', { tenantId: xero.tenantId, accessToken: xero.token, baseUrl: xero.baseUrl, mirrorMaxAgeMs: 3_600_000 });
    await connect('org_q', 'Maple Street Bakery', 'quickbooks', { realmId: qb.realmId, accessToken: qb.token, baseUrl: qb.baseUrl });
    await provisionOrganisation(store.db, { id: 'org_b', name: 'Own Books', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    await store.close();
  });
  after(async () => {
    process.env.LEDGERLINE_SQLITE_PATH = saved.sqlite;
    process.env.DATABASE_URL = saved.url;
    await xero?.close();
    await qb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds every total of a Xero and a QuickBooks organisation the same as the vendor's own report", async () => {
    for (const org of ['org_x', 'Maple Street Bakery']) {
      const checked = await run(['--org', org, '--date', '2026-06-15']);
      assert.equal(checked.code, 0, checked.out);
      assert.match(checked.out, /Every total is the same\./);
      assert.equal(checked.out.match(/ same$/gm)?.length, 4, checked.out);
    }
    const json = await run(['--org', 'org_q', '--date', '2026-06-15', '--json']);
    const answer = JSON.parse(json.out);
    assert.deepEqual(
      answer.totals.map((t: any) => t.label),
      ['Total Assets', 'Total Liabilities', 'Total Equity', 'Total Liabilities and Equity'],
    );
    assert.ok(answer.same && answer.totals[0].system > 0);
  });

  it('shows a change the mirror has not seen yet as a difference, exit 1', async () => {
    addSpendNow(xero.book, { key: 'check-books spend', reference: 'CHECK-1', description: 'Paper', amount: 5_000, date: '2026-06-10' });
    try {
      const checked = await run(['--org', 'org_x', '--date', '2026-06-15']);
      assert.equal(checked.code, 1, checked.out);
      assert.match(checked.out, /Total Assets .* differs by 50\.00 GBP/);
    } finally {
      xero.book.bankTransactions.pop();
    }
  });

  it('refuses the builtin ledger, which has no report of its own', async () => {
    await assert.rejects(run(['--org', 'org_b']), /keeps its books in builtin, which has no report of its own/);
    await assert.rejects(run(['--org', 'org_x', '--date', '15/06/2026']), /--date must be a date written yyyy-MM-dd/);
  });

  it('made only requests the vendors allow', () => {
    assert.deepEqual([...xero.violations, ...qb.violations], []);
  });
});
