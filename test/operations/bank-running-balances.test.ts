/**
 * Running balances of bank pages, filtered (status, search, amount bounds skip rows) and not,
 * against each line's balance counted here from every line of its account in the database's own
 * (date, id) order: on two accounts with many transactions a day, ids out of date order, every page
 * of both orders and periods that start and end mid-stretch, before and after more lines land in
 * the middle of days already held.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { toMajor } from '../../src/domain/money.js';
import { bankingTransactions } from '../../src/operations/banking-transactions.js';
import { provisionOrganisation } from '../../src/provision.js';
import { refreshBankDailyTotalsFor } from '../../src/store/bank-totals.js';
import { transactionPageQuery, type TransactionFilter } from '../../src/store/banking.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import type { Store } from '../../src/store/db.js';
import type { BankTransactionRow } from '../../src/store/schema.js';
import { call } from '../helpers/call.js';
import { describeEachDialect } from '../helpers/store.js';

const ORG = 'org_running';
const ACCOUNTS = ['bac_run_a', 'bac_run_b'];
const TODAY = '2026-05-31';
const WORDS = ['Coffee', 'Rent', 'Stationery', 'Taxi', 'Refund'];

/** A seeded sequence, so every dialect gets the same rows. */
function randoms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function setup(store: Store): Promise<void> {
  const db = store.db;
  await provisionOrganisation(db, { id: ORG, name: 'Running Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await db
    .insertInto('bank_accounts')
    .values(
      ACCOUNTS.map((id, i) => ({
        id,
        organisation_id: ORG,
        name: `Account ${i}`,
        number: `1000${i}`,
        type: 'bank',
        bank: 'Barclays',
        currency: 'GBP',
        is_default: i === 0 ? 1 : 0,
        ledger_account_id: null,
        created_at: '2026-01-01T00:00:00.000Z',
      })),
    )
    .execute();
  const random = randoms(7);
  const rows: BankTransactionRow[] = [];
  for (let n = 0; n < 400; n++) {
    // 40 days of April and May 2026, up to a dozen lines a day; ids drawn so their order is not the dates'
    const day = 1 + Math.floor(random() * 40);
    const date = day <= 30 ? `2026-04-${String(day).padStart(2, '0')}` : `2026-05-${String(day - 30).padStart(2, '0')}`;
    const amount = Math.round((random() - 0.6) * 100_000);
    const reconciled = random() < 0.7;
    rows.push({
      id: `btx_${Math.floor(random() * 1e9)
        .toString(36)
        .padStart(6, '0')}_${n}`,
      organisation_id: ORG,
      bank_account_id: ACCOUNTS[n % 2]!,
      date,
      description: `${WORDS[Math.floor(random() * WORDS.length)]} ${n}`,
      amount,
      home_amount: amount,
      status: reconciled ? 'reconciled' : 'to_reconcile',
      reconciled_in: reconciled ? 'service' : null,
      suggested_match: 0,
      document_id: null,
      source: 'statement',
      external_id: null,
      fingerprint: `fp-${n}`,
      created_at: '2026-05-31T00:00:00.000Z',
    });
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('bank_transactions').values(rows).execute();
    await refreshBankDailyTotalsFor(trx, rows);
  });
}

/** Each line's balance: its account's lines before it and itself, in the database's (date, id) order (the accounts have no opening balance). */
async function balancesCountedHere(store: Store): Promise<Map<string, number>> {
  const rows = await store.db
    .selectFrom('bank_transactions')
    .select(['id', 'bank_account_id', 'amount'])
    .where('organisation_id', '=', ORG)
    .orderBy('bank_account_id')
    .orderBy('date')
    .orderBy('id')
    .execute();
  const balances = new Map<string, number>();
  const running = new Map<string, number>();
  for (const r of rows) {
    const balance = (running.get(r.bank_account_id) ?? 0) + Number(r.amount);
    running.set(r.bank_account_id, balance);
    balances.set(r.id, toMajor(balance, 'GBP'));
  }
  return balances;
}

const listing = (store: Store, input: Record<string, unknown>) => call(store, bankingTransactions, ORG, input, { today: TODAY });

describeEachDialect(
  'running balances of filtered bank pages',
  (store) => {
    it('every page, filtered or not, gives each row its balance counted from every line before it, in both orders and mid-stretch periods', async () => {
      const check = async () => {
        const periods = [
          { period: 'custom', from: '2026-04-01', to: '2026-05-31' },
          { period: 'custom', from: '2026-04-09', to: '2026-05-03' },
        ];
        const expected = await balancesCountedHere(store());
        let compared = 0;
        for (const account of ACCOUNTS) {
          for (const period of periods) {
            for (const filter of [{}, { status: 'to_reconcile' }, { status: 'reconciled' }, { search: 'coffee' }, { search: 'rent', amountMin: 200 }]) {
              for (const order of ['newest', 'oldest']) {
                for (let page = 1; ; page++) {
                  const got = await listing(store(), { account, ...period, ...filter, order, limit: 7, page });
                  for (const t of got.transactions) {
                    assert.equal(t.runningBalance, expected.get(t.id), `${t.id} ${JSON.stringify({ account, period, filter, order, page })}`);
                    compared += 1;
                  }
                  if (!got.hasMore) break;
                }
              }
            }
          }
        }
        // the rows above are many; none went unchecked by a page that came back empty
        assert.ok(compared > 1000, String(compared));
      };
      await check();
      // more lines on days already held, with ids that sort before, between and after theirs: each
      // day's later lines now count them
      const more = ['btx_', 'btx_5', 'btx_zzzzzzzz'].flatMap((prefix, p) =>
        ['2026-04-09', '2026-04-20', '2026-05-03'].map((date, d) =>
          statementLine({
            id: `${prefix}more_${p}_${d}`,
            organisationId: ORG,
            bankAccountId: ACCOUNTS[0]!,
            date,
            description: `Coffee more ${p}`,
            amount: 1_234 * (p + 1) - 2_000 * d,
          }),
        ),
      );
      await insertBankLines(store().db, more);
      await check();
    });

    it('across every account, each row carries its own account’s balance', async () => {
      const whole = new Map<string, number>();
      for (const account of ACCOUNTS) {
        const all = await listing(store(), { account, period: 'custom', from: '2026-04-01', to: '2026-05-31', limit: 500 });
        for (const t of all.transactions) whole.set(t.id, t.runningBalance);
      }
      const mixed = await listing(store(), { status: 'to_reconcile', period: 'custom', from: '2026-04-05', to: '2026-05-20', order: 'oldest', limit: 60 });
      assert.ok(mixed.transactions.length > 20);
      for (const t of mixed.transactions) assert.equal(t.runningBalance, whole.get(t.id), t.id);
    });

    it("each line's stored sum through its day is its day's lines up to it, in the database's order", async () => {
      const s = store();
      const rows = await s.db
        .selectFrom('bank_transactions')
        .select(['id', 'bank_account_id', 'date', 'amount', 'day_through'])
        .where('organisation_id', '=', ORG)
        .orderBy('bank_account_id')
        .orderBy('date')
        .orderBy('id')
        .execute();
      let day = '';
      let sum = 0;
      for (const r of rows) {
        if (`${r.bank_account_id} ${r.date}` !== day) [day, sum] = [`${r.bank_account_id} ${r.date}`, 0];
        sum += Number(r.amount);
        assert.equal(Number(r.day_through), sum, r.id);
      }
      assert.ok(rows.length >= 400);
    });

    it('SQLite: a narration search across accounts walks the index that holds the narration (migration 024)', async (t) => {
      const s = store();
      if (s.dialect.name !== 'sqlite') return t.skip('SQLite only: PostgreSQL has its trigram indexes');
      await sql`analyze`.execute(s.db);
      const filter: TransactionFilter = {
        organisationId: ORG,
        accountIds: null,
        from: '2026-04-01',
        to: '2026-05-31',
        status: null,
        search: 'zzqx',
        amountMin: null,
        amountMax: null,
        amountColumn: 'home_amount',
      };
      const compiled = transactionPageQuery(s.db, filter, 'newest', 101, 0).compile();
      const rows = await s.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
      const plan = rows.rows.map((r) => r.detail).join('\n');
      assert.match(plan, /USING INDEX bank_transactions_org_date_text\b/, plan);
      // the narration is tested as stored: no lower() copy of it per line
      assert.doesNotMatch(compiled.sql, /lower\("t"\."description"\)/);
    });

    it('a page of lines to reconcile is read from their partial index (migration 023), for one account and for all', async () => {
      const s = store();
      for (const accountIds of [[ACCOUNTS[0]!], null]) {
        const filter: TransactionFilter = {
          organisationId: ORG,
          accountIds,
          from: '2026-04-01',
          to: '2026-05-31',
          status: 'to_reconcile',
          search: null,
          amountMin: null,
          amountMax: null,
          amountColumn: accountIds ? 'amount' : 'home_amount',
        };
        const compiled = transactionPageQuery(s.db, filter, 'newest', 101, 0).compile();
        const expected = accountIds ? 'bank_transactions_account_to_reconcile' : 'bank_transactions_to_reconcile';
        let plan: string;
        if (s.dialect.name === 'sqlite') {
          // statistics as a database with history has them (store/sqlite-tuning.ts keeps them up to date)
          await sql`analyze`.execute(s.db);
          const rows = await s.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
          plan = rows.rows.map((r) => r.detail).join('\n');
        } else {
          // 400 lines are few enough for a table scan, or a bitmap of the organisation's lines and a sort, to win; what is asked
          // is whether the index can serve the statement at all, with statistics as autovacuum leaves them
          await sql`vacuum analyze bank_transactions`.execute(s.db);
          plan = await s.db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            await sql`set local enable_bitmapscan = off`.execute(trx);
            const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
            return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
          });
        }
        assert.match(plan, new RegExp(`\\b${expected}\\b`), plan);
      }
    });
  },
  setup,
);
