/**
 * The server reads SQLite through reader threads (`ledgerline serve`), the tests mostly through the
 * main connection: every operation the benchmark calls answers the same both ways, on the demo's
 * books in a file. The readers send most rows as JSON that SQLite builds (store/sqlite-json-rows.ts),
 * the reports' and ledger's totals included; an answer that differed by a digit, an order or a
 * type would show here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { generateDemo } from '../../src/demo/generate.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { call } from '../helpers/call.js';

const TODAY = '2026-11-21';
const ACCOUNT = 'Travel:Transport';

/** the bench's cases (scripts/bench/cases.ts), on the demo's first organisation */
const CASES: [string, Record<string, unknown>][] = [
  ['ledger.account_transactions', { account: ACCOUNT }],
  ['ledger.account_transactions', { account: ACCOUNT, period: 'last_year', groupBy: 'supplier', detailForTop: 3, limit: 20 }],
  ['ledger.account_transactions', { account: ACCOUNT, period: 'last_year', groupBy: 'month' }],
  ['reports.profit_and_loss', { period: 'last_month', compareBy: 'month', comparePeriods: 12 }],
  ['reports.profit_and_loss', { period: 'custom', from: '2026-11-01', to: TODAY, compareBy: 'month', comparePeriods: 12 }],
  ['reports.profit_and_loss', { period: 'ytd', compareBy: 'year', comparePeriods: 1 }],
  ['reports.balance_sheet', { comparePeriods: 12 }],
  ['accounts.list', {}],
  ['banking.accounts', {}],
  ['banking.transactions', {}],
  ['banking.transactions', { account: 'Company Credit Card', period: 'last_year', page: 2, limit: 100 }],
  ['banking.transactions', { search: 'pret', status: 'to_reconcile', limit: 50 }],
  ['bills.list_to_pay', {}],
  ['bills.list_saved_filters', {}],
];

let dir: string;
let main: Store;
let readers: Store;
let organisationId: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-read-pool-answers-'));
  const path = join(dir, 'books.sqlite');
  main = openStore({ sqlitePath: path });
  await migrate(main);
  const demo = await generateDemo(main, { date: TODAY, seed: 1, scale: 1 });
  organisationId = demo.organisations[0]!.id;
  readers = openStore({ sqlitePath: path, sqliteReadWorkers: 2 });
});
after(async () => {
  await readers.close();
  await main.close();
  rmSync(dir, { recursive: true, force: true });
});

it('every benchmarked operation answers the same through the readers as on the main connection', async () => {
  for (const [name, input] of CASES) {
    const op = OPERATIONS.find((o) => o.name === name) as OrganisationOperation<any, any>;
    const direct = await call(main, op, organisationId, input, { today: TODAY });
    const pooled = await call(readers, op, organisationId, input, { today: TODAY });
    assert.deepEqual(pooled, direct, `${name} ${JSON.stringify(input)}`);
  }
  // the cases are not empty: the ledger has lines, the reports amounts, the bank pages transactions
  const ledger = await call(
    readers,
    OPERATIONS.find((o) => o.name === 'ledger.account_transactions') as OrganisationOperation<any, any>,
    organisationId,
    { account: ACCOUNT },
    { today: TODAY },
  );
  assert.ok(ledger.transactions.length > 0, 'the ledger page has lines');
  const bank = await call(
    readers,
    OPERATIONS.find((o) => o.name === 'banking.transactions') as OrganisationOperation<any, any>,
    organisationId,
    {},
    { today: TODAY },
  );
  assert.ok(bank.transactions.length > 0, 'the bank page has transactions');
});
