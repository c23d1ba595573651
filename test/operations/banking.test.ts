import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { fromMajor } from '../../src/domain/money.js';
import { bankingAccounts } from '../../src/operations/banking-accounts.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { OperationError } from '../../src/operations/errors.js';
import { provisionOrganisation } from '../../src/provision.js';
import { refreshBankDailyTotalsFor } from '../../src/store/bank-totals.js';
import { supplierMatchesPlanQuery, transactionPageQuery } from '../../src/store/banking.js';
import type { Store } from '../../src/store/db.js';
import { setRoleAllowed } from '../../src/store/role-policy.js';
import type { BankTransactionRow } from '../../src/store/schema.js';
import { createUser, setMembership } from '../../src/store/users.js';
import { BASE_URL, asUser, call, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

// Fixed ids: every dialect gets a fresh store, so the same ids serve both.
const ORG = 'org_bank';
const TWIN_ORG = 'org_twin';
const ADMIN = 'usr_admin';
const SAM = 'usr_sam'; // submitter holding the company card
const CARL = 'usr_carl'; // custom role holding nothing
const CURRENT = 'bac_current'; // GBP, default
const DOLLAR = 'bac_dollar'; // USD in a GBP organisation
const CARD = 'bac_card'; // GBP credit card held by Sam
const SAVINGS = 'bac_savings'; // GBP, no transactions
const TODAY = '2026-03-15'; // default period: 2025-12-16 .. 2026-03-15

type Tx = [id: string, account: string, date: string, description: string, amount: number, home: number, reconciledIn: string | null];

// status follows reconciledIn: null = to_reconcile. Amounts in minor units; USD at 0.80 GBP.
const TRANSACTIONS: Tx[] = [
  ['btx_a01', CURRENT, '2025-11-20', 'Opening deposit', 500_000, 500_000, 'accounting_system'],
  ['btx_a02', CURRENT, '2025-12-01', 'Rent December', -120_000, -120_000, 'service'],
  ['btx_a03', CURRENT, '2026-01-05', 'Client payment ACME', 250_050, 250_050, 'service'],
  ['btx_a04', CURRENT, '2026-01-05', 'Office supplies 100%_off', -4_599, -4_599, null],
  ['btx_a05', CURRENT, '2026-02-10', 'GWR 0203', -12_000, -12_000, 'service'],
  ['btx_a06', CURRENT, '2026-02-28', 'Refund from Staples', 4_599, 4_599, 'outside_service'],
  ['btx_a07', CURRENT, '2026-03-14', 'Coffee', -350, -350, null],
  ['btx_a08', CURRENT, '2026-03-20', 'Future dated', -1_000, -1_000, null],
  ['btx_b01', DOLLAR, '2025-12-15', 'Stripe payout', 100_000, 80_000, 'accounting_system'], // the day before the default period: opening
  ['btx_b02', DOLLAR, '2026-01-15', 'AWS', -25_000, -20_000, null],
  ['btx_b03', DOLLAR, '2026-02-20', 'Stripe payout', 50_000, 40_000, 'service'],
  ['btx_c01', CARD, '2025-12-10', 'Hotel Paris', -30_000, -30_000, 'accounting_system'],
  ['btx_c02', CARD, '2026-01-20', 'Taxi', -2_500, -2_500, null],
  ['btx_c03', CARD, '2026-03-01', 'Card refund', 1_500, 1_500, 'outside_service'],
];

async function setup(store: Store): Promise<void> {
  const db = store.db;
  await provisionOrganisation(db, { id: ORG, name: 'Bankside Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
  await provisionOrganisation(db, { id: TWIN_ORG, name: 'Twin Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  for (const [id, role] of [
    [ADMIN, 'admin'],
    [SAM, 'submitter'],
    [CARL, 'custom'],
  ] as const) {
    await createUser(db, { id, email: `${id}@example.test`, name: id });
    await setMembership(db, ORG, id, role);
  }
  // by default only admins may call the banking operations; narrowing is what is under test
  for (const op of ['banking.transactions', 'banking.accounts'])
    for (const role of ['submitter', 'custom'] as const) await setRoleAllowed(db, ORG, op, role, true);

  const account = (id: string, organisation: string, name: string, number: string, type: string, bank: string, currency: string, isDefault = 0) => ({
    id,
    organisation_id: organisation,
    name,
    number,
    type,
    bank,
    currency,
    is_default: isDefault,
    ledger_account_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
  });
  await db
    .insertInto('bank_accounts')
    .values([
      account(SAVINGS, ORG, 'Savings Reserve', '55501234', 'bank', 'NatWest', 'GBP'),
      account(DOLLAR, ORG, 'Dollar Account', '87654321', 'bank', 'HSBC', 'USD'),
      account(CARD, ORG, 'Company Card', '4242', 'credit_card', 'Amex', 'GBP'),
      account(CURRENT, ORG, 'Business Current', '12345678', 'bank', 'Barclays', 'GBP', 1),
      account('bac_twin1', TWIN_ORG, 'Savings', '111', 'bank', 'Lloyds', 'GBP'),
      account('bac_twin2', TWIN_ORG, 'savings', '222', 'bank', 'Monzo', 'GBP'),
    ])
    .execute();
  await db.insertInto('bank_account_holders').values({ bank_account_id: CARD, organisation_id: ORG, user_id: SAM }).execute();

  await db
    .insertInto('documents')
    .values({
      id: 'doc_gwr',
      organisation_id: ORG,
      number: 'INV-889',
      type: 'receipt',
      supplier: 'Great Western Railway',
      date: '2026-02-09',
      due_date: null,
      currency: 'GBP',
      subtotal: 10_000,
      tax: 2_000,
      total: 12_000,
      accounting_transaction_id: 'acct_txn_77',
      published_at: '2026-02-11T09:00:00.000Z',
      created_at: '2026-02-09T09:00:00.000Z',
    })
    .execute();
  const line = (id: string, lineNo: number, description: string, accountName: string, subtotal: number, tax: number) => ({
    id,
    document_id: 'doc_gwr',
    organisation_id: ORG,
    line_no: lineNo,
    description,
    account_id: null,
    account_name: accountName,
    tax_code_id: null,
    class: null,
    customer: null,
    quantity: '1',
    subtotal,
    tax,
    total: subtotal + tax,
  });
  await db
    .insertInto('document_coded_lines')
    .values([
      line('dcl_3', 3, 'Seat reservation', 'Travel', 500, 100),
      line('dcl_1', 1, 'Train London-Bristol', 'Travel', 7_500, 1_500),
      line('dcl_2', 2, 'Booking fee', 'Bank Charges', 2_000, 400),
    ])
    .execute();

  const rows: BankTransactionRow[] = TRANSACTIONS.map(([id, accountId, date, description, amount, home, reconciledIn]) => ({
    id,
    organisation_id: ORG,
    bank_account_id: accountId,
    date,
    description,
    amount,
    home_amount: home,
    status: reconciledIn ? 'reconciled' : 'to_reconcile',
    reconciled_in: reconciledIn,
    suggested_match: id === 'btx_a04' ? 1 : 0,
    document_id: id === 'btx_a05' ? 'doc_gwr' : null,
    source: `statement-${accountId}`,
    external_id: null,
    fingerprint: `fp-${id}`,
    created_at: '2026-03-15T00:00:00.000Z',
  }));
  // a transaction of another organisation on the same dates must never count
  rows.push({ ...rows[2]!, id: 'btx_twin', organisation_id: TWIN_ORG, bank_account_id: 'bac_twin1', fingerprint: 'fp-twin' });
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('bank_transactions').values(rows).execute();
    await refreshBankDailyTotalsFor(trx, rows);
  });
}

const txns = (store: Store, input: Record<string, unknown>, options: { today?: string; principal?: any; text?: boolean } = {}) =>
  call(store, bankingTransactions, ORG, input, { today: TODAY, ...options });
const ids = (result: any): string[] => result.transactions.map((t: any) => t.id);
const minor = (major: number) => fromMajor(major, 'GBP')!;

/** closing = opening + in - out, exactly, in minor units. */
function assertIdentity(totals: any): void {
  assert.equal(minor(totals.closingBalance), minor(totals.openingBalance) + minor(totals.moneyIn) - minor(totals.moneyOut));
}

async function expectParameterError(promise: Promise<unknown>, parameter: string): Promise<OperationError> {
  const error = await rejection(() => promise);
  assert.ok(error instanceof OperationError, String(error));
  assert.equal(error.status, 400);
  assert.equal(error.code, 'invalid_request');
  assert.deepEqual(
    error.errors.map((e) => e.parameter),
    [parameter],
  );
  return error;
}

describeEachDialect(
  'banking operations',
  (store) => {
    it('banking.accounts lists default first then by name, with counts, last date and balance', async () => {
      const result = await call(store(), bankingAccounts, ORG, {}, { today: TODAY });
      assert.equal(result.count, 4);
      const SPEC_FIELDS = ['id', 'name', 'number', 'type', 'bank', 'currency', 'isDefault', 'toReconcile', 'transactions', 'lastTransactionDate', 'balance'];
      // the spec's fields as they were; the fields issue 40 adds say what the balance is (no statement here: the lines' sum)
      assert.deepEqual(
        result.accounts.map((a: any) => [
          a.balanceBasis,
          a.balanceDate,
          a.balanceIncompleteFrom,
          a.bankStatementBalance,
          a.ledgerAccount,
          a.bookBalance,
          a.differenceToReconcile,
        ]),
        [
          ['transactions', '2026-03-20', null, null, null, null, null],
          ['transactions', '2026-03-01', null, null, null, null, null],
          ['transactions', '2026-02-20', null, null, null, null, null],
          ['transactions', null, null, null, null, null, null],
        ],
      );
      assert.match(result.accounts[0].note, /^Bank balance 6,167\.00 GBP at 2026-03-20, the sum of the imported transactions only/);
      assert.deepEqual(
        result.accounts.map((a: any) => Object.fromEntries(SPEC_FIELDS.map((f) => [f, a[f]]))),
        [
          {
            id: CURRENT,
            name: 'Business Current',
            number: '12345678',
            type: 'bank',
            bank: 'Barclays',
            currency: 'GBP',
            isDefault: true,
            toReconcile: 3,
            transactions: 8,
            lastTransactionDate: '2026-03-20',
            balance: 6167,
          },
          {
            id: CARD,
            name: 'Company Card',
            number: '4242',
            type: 'credit_card',
            bank: 'Amex',
            currency: 'GBP',
            isDefault: false,
            toReconcile: 1,
            transactions: 3,
            lastTransactionDate: '2026-03-01',
            balance: -310,
          },
          {
            id: DOLLAR,
            name: 'Dollar Account',
            number: '87654321',
            type: 'bank',
            bank: 'HSBC',
            currency: 'USD',
            isDefault: false,
            toReconcile: 1,
            transactions: 3,
            lastTransactionDate: '2026-02-20',
            balance: 1250,
          },
          {
            id: SAVINGS,
            name: 'Savings Reserve',
            number: '55501234',
            type: 'bank',
            bank: 'NatWest',
            currency: 'GBP',
            isDefault: false,
            toReconcile: 0,
            transactions: 0,
            lastTransactionDate: null,
            balance: 0,
          },
        ],
      );
    });

    it('banking.accounts search needs every word in the name, number or bank', async () => {
      const search = async (text: string) =>
        (await call(store(), bankingAccounts, ORG, { search: text }, { today: TODAY, text: true })).accounts.map((a: any) => a.id);
      assert.deepEqual(await search('dollar HSBC'), [DOLLAR]);
      assert.deepEqual(await search('barclays 1234'), [CURRENT]);
      assert.deepEqual(await search('AMEX'), [CARD]);
      assert.deepEqual(await search('card xyz'), []);
      const result = await call(store(), bankingAccounts, ORG, { search: '8765' }, { today: TODAY });
      assert.equal(result.accounts[0].balance, 1250);
    });

    it('banking.accounts narrows a submitter to held accounts and a custom role holding none to nothing', async () => {
      const sam = await call(store(), bankingAccounts, ORG, {}, { today: TODAY, principal: asUser(SAM) });
      assert.deepEqual(
        sam.accounts.map((a: any) => [a.id, a.balance, a.transactions]),
        [[CARD, -310, 3]],
      );
      const carl = await call(store(), bankingAccounts, ORG, {}, { today: TODAY, principal: asUser(CARL) });
      assert.deepEqual(carl, { count: 0, accounts: [] });
      const admin = await call(store(), bankingAccounts, ORG, {}, { today: TODAY, principal: asUser(ADMIN) });
      assert.equal(admin.count, 4);
      const error = await rejection(() => call(store(), bankingAccounts, ORG, { search: 'x', bank: 'y' }, { today: TODAY }));
      assert.deepEqual(error.errors, [{ parameter: 'bank', message: 'unknown parameter' }]);
    });

    it('totals of every account are in home currency and cover the default period of three months up to today', async () => {
      const result = await txns(store(), {});
      assert.equal(result.account, null);
      assert.deepEqual(result.period, { from: '2025-12-16', to: '2026-03-15' });
      assert.equal(result.status, 'all');
      // opening: 3800.00 current + 800.00 (USD 1000 at 0.80) - 300.00 card
      assert.deepEqual(result.totals, {
        openingBalance: 4300,
        moneyIn: 2961.49,
        moneyOut: 394.49,
        closingBalance: 6867,
        transactions: 9,
        toReconcile: 4,
        reconciled: 5,
      });
      assertIdentity(result.totals);
      assert.deepEqual(ids(result), ['btx_a07', 'btx_c03', 'btx_a06', 'btx_b03', 'btx_a05', 'btx_c02', 'btx_b02', 'btx_a04', 'btx_a03']);
      assert.deepEqual([result.count, result.page, result.pageSize, result.hasMore], [9, 1, 100, false]);
    });

    it('one account: totals and running balances in its own currency, the identity exact', async () => {
      const current = await txns(store(), { account: 'business current' });
      assert.deepEqual(current.account, { id: CURRENT, name: 'Business Current', number: '12345678', type: 'bank', bank: 'Barclays', currency: 'GBP' });
      assert.deepEqual(current.totals, {
        openingBalance: 3800,
        moneyIn: 2546.49,
        moneyOut: 169.49,
        closingBalance: 6177,
        transactions: 5,
        toReconcile: 2,
        reconciled: 3,
      });
      assertIdentity(current.totals);
      assert.deepEqual(
        current.transactions.map((t: any) => [t.id, t.amount, t.runningBalance]),
        [
          ['btx_a07', -3.5, 6177],
          ['btx_a06', 45.99, 6180.5],
          ['btx_a05', -120, 6134.51],
          ['btx_a04', -45.99, 6254.51],
          ['btx_a03', 2500.5, 6300.5],
        ],
      );
      const dollar = await txns(store(), { account: '87654321' });
      assert.deepEqual(dollar.totals, {
        openingBalance: 1000,
        moneyIn: 500,
        moneyOut: 250,
        closingBalance: 1250,
        transactions: 2,
        toReconcile: 1,
        reconciled: 1,
      });
      assert.deepEqual(
        dollar.transactions.map((t: any) => [t.id, t.amount, t.currency, t.runningBalance]),
        [
          ['btx_b03', 500, 'USD', 1250],
          ['btx_b02', -250, 'USD', 750],
        ],
      );
      const byId = await txns(store(), { account: DOLLAR.toUpperCase() });
      assert.equal(byId.account.id, DOLLAR);
    });

    it('shapes each transaction, with linked null unless matched to a document', async () => {
      const result = await txns(store(), { account: CURRENT, order: 'oldest' });
      const [a03, a04, a05] = result.transactions;
      assert.deepEqual(a04, {
        id: 'btx_a04',
        date: '2026-01-05',
        description: 'Office supplies 100%_off',
        amount: -45.99,
        direction: 'out',
        currency: 'GBP',
        account: { id: CURRENT, name: 'Business Current' },
        status: 'to_reconcile',
        reconciledIn: null,
        suggestedMatch: true,
        // flagged by the test's rows with no suggestion stored: none to show
        suggestion: null,
        report: `statement-${CURRENT}`,
        runningBalance: 6254.51,
        linked: null,
      });
      assert.equal(a03.direction, 'in');
      assert.equal(a03.reconciledIn, 'service');
      assert.equal(a03.suggestedMatch, false);
      assert.equal(a03.linked, null);
      assert.deepEqual(a05.linked, {
        documentId: 'doc_gwr',
        number: 'INV-889',
        type: 'receipt',
        supplier: 'Great Western Railway',
        date: '2026-02-09',
        currency: 'GBP',
        codedTo: 'Travel, Bank Charges',
        tax: '20.00',
        details: 'Train London-Bristol; Booking fee; Seat reservation',
        accountingId: 'acct_txn_77',
        link: `${BASE_URL}/v1/operations/documents.get?ids=doc_gwr`,
        total: 120,
      });
      assert.deepEqual(
        result.transactions.map((t: any) => t.reconciledIn),
        ['service', null, 'service', 'outside_service', null],
      );
    });

    it('pages with limit+1: hasMore, exact last page, and running balances on later pages of both orders', async () => {
      const page = (input: Record<string, unknown>) => txns(store(), input);
      const p1 = await page({ limit: 4 });
      assert.deepEqual([ids(p1), p1.count, p1.hasMore], [['btx_a07', 'btx_c03', 'btx_a06', 'btx_b03'], 4, true]);
      const p2 = await page({ limit: 4, page: 2 });
      assert.deepEqual(ids(p2), ['btx_a05', 'btx_c02', 'btx_b02', 'btx_a04']);
      assert.equal(p2.hasMore, true);
      // running balances are per account, in each account's currency
      assert.deepEqual(
        p2.transactions.map((t: any) => t.runningBalance),
        [6134.51, -325, 750, 6254.51],
      );
      const p3 = await page({ limit: 4, page: 3 });
      assert.deepEqual([ids(p3), p3.hasMore], [['btx_a03'], false]);
      const exact = await page({ limit: 3, page: 3 });
      assert.deepEqual([ids(exact), exact.hasMore], [['btx_b02', 'btx_a04', 'btx_a03'], false]);
      const beyond = await page({ limit: 3, page: 4 });
      assert.deepEqual([beyond.count, beyond.hasMore, beyond.transactions], [0, false, []]);
      assert.equal(beyond.totals.transactions, 9);
      for (const farPage of [1e13, 1e14]) {
        const far = await page({ limit: 500, page: farPage });
        assert.deepEqual([far.count, far.page, far.hasMore], [0, farPage, false]);
      }

      const oldest = await page({ order: 'oldest', limit: 3, page: 2 });
      assert.deepEqual(ids(oldest), ['btx_c02', 'btx_a05', 'btx_b03']);
      assert.deepEqual(
        oldest.transactions.map((t: any) => t.runningBalance),
        [-325, 6134.51, 1250],
      );
      assert.equal(oldest.hasMore, true);
      const oldestFirst = await page({ order: 'oldest', limit: 2 });
      assert.deepEqual(ids(oldestFirst), ['btx_a03', 'btx_a04']);
      assert.deepEqual(
        oldestFirst.transactions.map((t: any) => t.runningBalance),
        [6300.5, 6254.51],
      );
    });

    it('the page, its sums and its running balances are compiled once per shape (store/prepared.ts): the same call again builds none of them', async () => {
      const counted = countingQueries(store().db);
      const counting = { ...store(), db: counted.db };
      for (const input of [
        {},
        { account: CURRENT, limit: 2, page: 2 },
        { status: 'to_reconcile' },
        { search: 'rent', status: 'reconciled', amountMin: 10, order: 'oldest' },
        { account: CARD },
      ]) {
        const first = await txns(counting, input);
        const compiled = counted.compiled();
        assert.deepEqual(await txns(counting, input), first, JSON.stringify(input));
        assert.equal(counted.compiled() - compiled, 0, JSON.stringify(input));
      }
    });

    it('status filter keeps totals and running balances of the whole account', async () => {
      const open = await txns(store(), { status: 'to_reconcile' });
      assert.deepEqual(ids(open), ['btx_a07', 'btx_c02', 'btx_b02', 'btx_a04']);
      assert.equal(open.status, 'to_reconcile');
      assert.equal(open.totals.transactions, 9);
      assert.equal(open.totals.closingBalance, 6867);
      const current = await txns(store(), { account: CURRENT, status: 'to_reconcile' });
      assert.deepEqual(
        current.transactions.map((t: any) => [t.id, t.runningBalance]),
        [
          ['btx_a07', 6177],
          ['btx_a04', 6254.51],
        ],
      );
      const oldest = await txns(store(), { account: CURRENT, status: 'to_reconcile', order: 'oldest' });
      assert.deepEqual(
        oldest.transactions.map((t: any) => [t.id, t.runningBalance]),
        [
          ['btx_a04', 6254.51],
          ['btx_a07', 6177],
        ],
      );
      const done = await txns(store(), { status: 'reconciled' });
      assert.deepEqual(ids(done), ['btx_c03', 'btx_a06', 'btx_b03', 'btx_a05', 'btx_a03']);
    });

    it('search matches the narration or the linked supplier, case-insensitively and literally', async () => {
      assert.deepEqual(ids(await txns(store(), { search: 'STRIPE' })), ['btx_b03']);
      assert.deepEqual(ids(await txns(store(), { search: 'western' })), ['btx_a05']);
      assert.deepEqual(ids(await txns(store(), { search: 'gwr 02' })), ['btx_a05']);
      assert.deepEqual(ids(await txns(store(), { search: '100%_' })), ['btx_a04']);
      assert.deepEqual(ids(await txns(store(), { search: '%' })), ['btx_a04']);
      assert.deepEqual(ids(await txns(store(), { search: 'p_y' })), []);
      const searched = await txns(store(), { search: 'taxi' });
      assert.deepEqual(ids(searched), ['btx_c02']);
      assert.equal(searched.totals.moneyOut, 394.49);
    });

    it('PostgreSQL: the narration search has its trigram indexes (pg_trgm is on this machine) and uses them for a rare term', async (t) => {
      const s = store();
      if (s.dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = ${s.schema!} order by indexname`.execute(s.db);
      const names = indexes.rows.map((r) => r.indexname);
      for (const name of ['bank_transactions_description_trgm', 'bank_transactions_document', 'documents_supplier_trgm'])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      // the planner's choice over a realistic history (20,000 transactions, 5,000 documents, rolled back) shows whether the search's own form can use them
      const rollback = new Error('rollback');
      let plan = '';
      await s.db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into bank_transactions (id, organisation_id, bank_account_id, date, description, amount, home_amount, status,
            suggested_match, source, fingerprint, created_at)
            select 'btx_many_' || i, ${ORG}, ${CURRENT}, to_char(date '2026-01-01' + (i % 90), 'YYYY-MM-DD'), 'CARD PAYMENT TO SHOP ' || (i % 500),
              -100, -100, 'to_reconcile', 0, 'bulk', 'fp-many-' || i, '2026-03-15T00:00:00.000Z'
            from generate_series(1, 20000) as i`.execute(trx);
          await sql`insert into documents (id, organisation_id, number, type, supplier, date, due_date, currency, subtotal, tax, total,
            accounting_transaction_id, published_at, created_at, created_by, updated_at)
            select 'doc_many_' || i, organisation_id, number || i, type, 'Supplier ' || i, date, due_date, currency, subtotal, tax, total, null,
              published_at, created_at, created_by, updated_at
            from documents, generate_series(1, 5000) as i where id = 'doc_gwr'`.execute(trx);
          // as an index built over existing rows is (migration 013 on a database with history), not a pending list to scan
          await sql`select gin_clean_pending_list('bank_transactions_description_trgm'::regclass),
            gin_clean_pending_list('documents_supplier_trgm'::regclass)`.execute(trx);
          await sql`analyze bank_transactions`.execute(trx);
          await sql`analyze documents`.execute(trx);
          const filter = {
            organisationId: ORG,
            accountIds: null,
            from: '2026-01-01',
            to: '2026-03-31',
            status: null,
            search: 'zzqx',
            amountMin: null,
            amountMax: null,
            amountColumn: 'home_amount' as const,
          };
          // the matching documents are read first (their statement) and given to the page as an array value
          for (const compiled of [transactionPageQuery(trx, filter, 'newest', 51, 0).compile(), supplierMatchesPlanQuery(trx, ORG, 'zzqx')]) {
            const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
            plan += `${rows.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`;
          }
          throw rollback;
        })
        .catch((error) => {
          if (error !== rollback) throw error;
        });
      assert.match(plan, /bank_transactions_description_trgm/);
      assert.match(plan, /bank_transactions_document/);
      assert.match(plan, /documents_supplier_trgm/);
    });

    it("keeps the caller's accounts and their balance states while the data stands: a renamed account is named by the next call", async () => {
      const s = store();
      const counted = countingQueries(s.db);
      const page = async () => {
        const before = counted.count();
        const result = await txns({ ...s, db: counted.db }, { account: DOLLAR });
        return { account: result.account.name, statements: counted.count() - before };
      };
      const first = await page();
      const again = await page();
      assert.equal(again.account, first.account);
      // the accounts' list and their stored statements are not read again
      assert.equal(again.statements, first.statements - 2);
      await s.db.updateTable('bank_accounts').set({ name: 'Dollars renamed' }).where('id', '=', DOLLAR).execute();
      try {
        const renamed = await page();
        assert.equal(renamed.account, 'Dollars renamed');
        assert.equal(renamed.statements, first.statements);
      } finally {
        await s.db.updateTable('bank_accounts').set({ name: first.account }).where('id', '=', DOLLAR).execute();
      }
    });

    it("PostgreSQL: a search's matching suppliers are read once while the data stands, and again after a document is written", async (t) => {
      const s = store();
      if (s.dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      const counted = countingQueries(s.db);
      // btx_a05 matches by its document's supplier only (Great Western Railway)
      const searched = async () => {
        const before = counted.count();
        const result = await txns({ ...s, db: counted.db }, { search: 'great western' });
        return { ids: ids(result), statements: counted.count() - before };
      };
      const first = await searched();
      assert.deepEqual(first.ids, ['btx_a05']);
      const again = await searched();
      assert.deepEqual(again.ids, ['btx_a05']);
      // nor the accounts and their statements' balances, kept at the version as well (the test below)
      assert.equal(again.statements, first.statements - 3, 'the second search reads no supplier');
      // a write moves the data version: the suppliers are read again, and the renamed one no longer matches
      await s.db.updateTable('documents').set({ supplier: 'Northern Rail' }).where('id', '=', 'doc_gwr').execute();
      try {
        assert.deepEqual((await searched()).ids, []);
      } finally {
        await s.db.updateTable('documents').set({ supplier: 'Great Western Railway' }).where('id', '=', 'doc_gwr').execute();
      }
    });

    it('amount bounds apply to the size of the amount, in home currency across accounts and account currency for one', async () => {
      const between = await txns(store(), { amountMin: 40, amountMax: 120 });
      assert.deepEqual(ids(between), ['btx_a06', 'btx_a05', 'btx_a04']);
      assert.equal(between.totals.transactions, 9);
      assert.deepEqual(ids(await txns(store(), { amountMin: 45.99, amountMax: 45.99 })), ['btx_a06', 'btx_a04']);
      // USD 250.00 is GBP 200.00: across accounts it falls below 250, within its account it does not
      assert.deepEqual(ids(await txns(store(), { amountMin: 250 })), ['btx_b03', 'btx_a03']);
      assert.deepEqual(ids(await txns(store(), { account: DOLLAR, amountMin: 250 })), ['btx_b03', 'btx_b02']);
      assert.deepEqual(ids(await txns(store(), { amountMax: 3.5 })), ['btx_a07']);
      assert.deepEqual(ids(await txns(store(), { amountMax: 3.49 })), []);
      const text = await txns(store(), { amountMin: '45.99', amountMax: '120.00', limit: '1', page: '2', order: 'oldest' }, { text: true });
      assert.deepEqual([ids(text), text.pageSize, text.page, text.hasMore], [['btx_a05'], 1, 2, true]);
    });

    it('a custom period and a fixed today', async () => {
      const custom = await txns(store(), { account: CURRENT, from: '2026-01-05', to: '2026-01-05' });
      assert.deepEqual(custom.period, { from: '2026-01-05', to: '2026-01-05' });
      assert.deepEqual(custom.totals, {
        openingBalance: 3800,
        moneyIn: 2500.5,
        moneyOut: 45.99,
        closingBalance: 6254.51,
        transactions: 2,
        toReconcile: 1,
        reconciled: 1,
      });
      assert.deepEqual(
        custom.transactions.map((t: any) => t.runningBalance),
        [6254.51, 6300.5],
      );
      const january = await txns(store(), { account: CURRENT }, { today: '2026-01-31' });
      assert.deepEqual(january.period, { from: '2025-11-01', to: '2026-01-31' });
      assert.deepEqual(january.totals, {
        openingBalance: 0,
        moneyIn: 7500.5,
        moneyOut: 1245.99,
        closingBalance: 6254.51,
        transactions: 4,
        toReconcile: 1,
        reconciled: 3,
      });
      assertIdentity(january.totals);
      const lastMonth = await txns(store(), { period: 'last_month', account: CURRENT }, { text: true });
      assert.deepEqual(lastMonth.period, { from: '2026-02-01', to: '2026-02-28' });
      assert.deepEqual(ids(lastMonth), ['btx_a06', 'btx_a05']);
      assertIdentity(lastMonth.totals);
    });

    it('a submitter sees only the card they hold; other accounts are not found', async () => {
      const sam = asUser(SAM);
      const result = await txns(store(), {}, { principal: sam });
      assert.equal(result.account, null);
      assert.deepEqual(ids(result), ['btx_c03', 'btx_c02']);
      assert.deepEqual(result.totals, {
        openingBalance: -300,
        moneyIn: 15,
        moneyOut: 25,
        closingBalance: -310,
        transactions: 2,
        toReconcile: 1,
        reconciled: 1,
      });
      assertIdentity(result.totals);
      assert.deepEqual(
        result.transactions.map((t: any) => t.runningBalance),
        [-310, -325],
      );
      const card = await txns(store(), { account: 'company card' }, { principal: sam });
      assert.equal(card.account.id, CARD);
      const error = await rejection(() => txns(store(), { account: 'Business Current' }, { principal: sam }));
      assert.ok(error instanceof OperationError);
      assert.deepEqual([error.status, error.code], [404, 'account_not_found']);
      assert.deepEqual(error.extra, { candidates: [] });
      const byId = await rejection(() => txns(store(), { account: DOLLAR }, { principal: sam }));
      assert.equal(byId.code, 'account_not_found');
      const carl = await txns(store(), {}, { principal: asUser(CARL) });
      assert.deepEqual([carl.count, carl.totals.transactions, carl.totals.closingBalance], [0, 0, 0]);
      const admin = await txns(store(), {}, { principal: asUser(ADMIN) });
      assert.equal(admin.totals.transactions, 9);
    });

    it('an unknown account answers 404 with close matches; an ambiguous name asks for the id', async () => {
      const error = await rejection(() => txns(store(), { account: 'Dollar Acount' }));
      assert.ok(error instanceof OperationError);
      assert.deepEqual([error.status, error.code], [404, 'account_not_found']);
      assert.deepEqual(error.extra, {
        candidates: [{ id: DOLLAR, name: 'Dollar Account', number: '87654321', type: 'bank', bank: 'HSBC', currency: 'USD' }],
      });
      const ambiguous = await expectParameterError(call(store(), bankingTransactions, TWIN_ORG, { account: 'SAVINGS' }, { today: TODAY }), 'account');
      assert.match(ambiguous.errors[0]!.message, /bac_twin1.*bac_twin2/);
      const twin = await call(store(), bankingTransactions, TWIN_ORG, { account: '222' }, { today: TODAY });
      assert.equal(twin.account.id, 'bac_twin2');
      assert.equal(twin.totals.transactions, 0);
      const twinAll = await call(store(), bankingTransactions, TWIN_ORG, {}, { today: TODAY });
      assert.deepEqual(ids(twinAll), ['btx_twin']);
    });

    it('refuses each invalid input naming the parameter', async () => {
      await expectParameterError(txns(store(), { colour: 'red' }), 'colour');
      await expectParameterError(txns(store(), { limit: 0 }), 'limit');
      await expectParameterError(txns(store(), { limit: 501 }), 'limit');
      await expectParameterError(txns(store(), { limit: '501' }, { text: true }), 'limit');
      await expectParameterError(txns(store(), { limit: 'ten' }, { text: true }), 'limit');
      await expectParameterError(txns(store(), { page: 0 }), 'page');
      await expectParameterError(txns(store(), { page: 1.5 }), 'page');
      await expectParameterError(txns(store(), { amountMin: -1 }), 'amountMin');
      await expectParameterError(txns(store(), { amountMin: 1.001 }), 'amountMin');
      await expectParameterError(txns(store(), { account: DOLLAR, amountMax: '0.125' }, { text: true }), 'amountMax');
      await expectParameterError(txns(store(), { amountMin: 10, amountMax: 5 }), 'amountMax');
      await expectParameterError(txns(store(), { from: '2026-01-01' }), 'to');
      await expectParameterError(txns(store(), { from: '2026-02-30', to: '2026-03-01' }), 'from');
      await expectParameterError(txns(store(), { period: 'last_week' }), 'period');
      await expectParameterError(txns(store(), { status: 'pending' }), 'status');
      await expectParameterError(txns(store(), { order: 'random' }), 'order');
      await expectParameterError(txns(store(), { account: '  ' }), 'account');
    });
  },
  setup,
);
