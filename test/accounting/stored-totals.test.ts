/**
 * The totals kept beside the rows they sum (bank_daily_totals, acct_day_totals,
 * acct_month_line_totals, acct_day_line_totals) must always equal a fresh aggregate of those rows: after the demo (with its
 * busy card feed), after imports into an existing and a new account, and after a re-import that adds
 * nothing. And what is read from them (banking period sums, report ranges, ledger totals) must equal
 * the same sums taken from the rows directly.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { readLineTotals } from '../../src/accounting/builtin/line-totals.js';
import { readAccountTotals } from '../../src/accounting/builtin/range-totals.js';
import { splitRange } from '../../src/domain/range-split.js';
import { LISTED_TYPES, OTHER_TYPES, type DateRange, type LineQuery } from '../../src/accounting/types.js';
import { generateDemo, type DemoSummary } from '../../src/demo/generate.js';
import { addDays, endOfMonth } from '../../src/domain/dates.js';
import { importStatement } from '../../src/import/importer.js';
import { up as lineTotalsByType } from '../../src/store/migrations/035-line-totals-by-type.js';
import { Random } from '../../src/demo/random.js';
import { bankAccountStats } from '../../src/store/bank-accounts.js';
import { periodSums } from '../../src/store/banking.js';
import { openStore, type Store } from '../../src/store/db.js';
import type { OrganisationRow } from '../../src/store/schema.js';
import { assertLineTotalsMatch } from '../helpers/line-totals.js';
import { countingQueries, describeEachDialect, TEST_DATABASE_URL } from '../helpers/store.js';
import { flushNamedSessionStats } from '../helpers/named-session.js';

const DATE = '2026-11-21';
const summaries = new WeakMap<Store, DemoSummary>();

type Totals = Record<string, number>;

async function bankTotalsMatch(store: Store): Promise<number> {
  const fresh = await sql<Totals & { key: string }>`
    select organisation_id || '/' || bank_account_id || '/' || date as key,
      sum(case when amount > 0 then amount else 0 end) as amount_in,
      sum(case when amount < 0 then -amount else 0 end) as amount_out,
      sum(case when home_amount > 0 then home_amount else 0 end) as home_in,
      sum(case when home_amount < 0 then -home_amount else 0 end) as home_out,
      count(*) as transactions,
      sum(case when status = 'to_reconcile' then 1 else 0 end) as to_reconcile
    from bank_transactions group by organisation_id, bank_account_id, date`.execute(store.db);
  const stored = await sql<Totals & { key: string }>`
    select organisation_id || '/' || bank_account_id || '/' || date as key, amount_in, amount_out, home_in, home_out, transactions, to_reconcile
    from bank_daily_totals`.execute(store.db);
  const numbers = (r: Totals & { key: string }) => [r.amount_in, r.amount_out, r.home_in, r.home_out, r.transactions, r.to_reconcile].map(Number).join(',');
  const expected = new Map(fresh.rows.map((r) => [r.key, numbers(r)]));
  assert.equal(stored.rows.length, expected.size, 'one stored row per account and day with transactions');
  for (const r of stored.rows) assert.equal(numbers(r), expected.get(r.key), r.key);

  const freshMonths = await sql<Totals & { key: string; last_date: string }>`
    select organisation_id || '/' || bank_account_id || '/' || substr(date, 1, 7) as key,
      sum(case when amount > 0 then amount else 0 end) as amount_in,
      sum(case when amount < 0 then -amount else 0 end) as amount_out,
      sum(case when home_amount > 0 then home_amount else 0 end) as home_in,
      sum(case when home_amount < 0 then -home_amount else 0 end) as home_out,
      count(*) as transactions,
      sum(case when status = 'to_reconcile' then 1 else 0 end) as to_reconcile,
      max(date) as last_date
    from bank_transactions group by organisation_id, bank_account_id, substr(date, 1, 7)`.execute(store.db);
  const storedMonths = await sql<Totals & { key: string; last_date: string }>`
    select organisation_id || '/' || bank_account_id || '/' || month as key, amount_in, amount_out, home_in, home_out, transactions, to_reconcile, last_date
    from bank_month_totals`.execute(store.db);
  const expectedMonths = new Map(freshMonths.rows.map((r) => [r.key, `${numbers(r)},${r.last_date}`]));
  assert.equal(storedMonths.rows.length, expectedMonths.size, 'one stored row per account and month with transactions');
  for (const r of storedMonths.rows) assert.equal(`${numbers(r)},${r.last_date}`, expectedMonths.get(r.key), r.key);
  return stored.rows.length;
}

async function dayTotalsMatch(store: Store): Promise<void> {
  const fresh = await sql<{ key: string; amount: number }>`
    select organisation_id || '/' || account_id || '/' || date as key, sum(amount) as amount from acct_lines group by organisation_id, account_id,
      date`.execute(store.db);
  const stored = await sql<{ key: string; amount: number }>`
    select organisation_id || '/' || account_id || '/' || date as key, amount from acct_day_totals`.execute(store.db);
  const expected = new Map(fresh.rows.map((r) => [r.key, Number(r.amount)]));
  assert.equal(stored.rows.length, expected.size);
  for (const r of stored.rows) assert.equal(Number(r.amount), expected.get(r.key), r.key);
}

function csv(rows: [string, string, string][]): Uint8Array {
  return Buffer.from(['Date,Description,Amount', ...rows.map((r) => r.join(','))].join('\n') + '\n');
}

describeEachDialect(
  'stored totals',
  (store) => {
    const summary = () => summaries.get(store())!;
    const northwind = () => summary().organisations.find((o) => o.name === 'Northwind Studio Ltd')!;
    const orgRow = async (): Promise<OrganisationRow> =>
      store().db.selectFrom('organisations').selectAll().where('id', '=', northwind().id).executeTakeFirstOrThrow();

    it('splits the busy card feed into many bank transactions that still add up to the ledger', async () => {
      const db = store().db;
      const card = await db
        .selectFrom('bank_accounts')
        .selectAll()
        .where('organisation_id', '=', northwind().id)
        .where('type', '=', 'credit_card')
        .executeTakeFirstOrThrow();
      const ledger = await db
        .selectFrom('acct_lines')
        .select([sql<number>`count(*)`.as('n'), sql<number>`sum(amount)`.as('home')])
        .where('organisation_id', '=', card.organisation_id)
        .where('account_id', '=', card.ledger_account_id!)
        .executeTakeFirstOrThrow();
      const feed = await db
        .selectFrom('bank_transactions')
        .select([sql<number>`count(*)`.as('n'), sql<number>`sum(amount)`.as('amount')])
        .where('bank_account_id', '=', card.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(feed.amount), Number(ledger.home));
      // a day's purchases at one merchant are one ledger line on the card and several feed items
      assert.ok(Number(feed.n) > Number(ledger.n) + 1_000, `${feed.n} feed items for ${ledger.n} ledger lines`);
      const busy = await db
        .selectFrom('acct_transactions')
        .select(sql<number>`count(*)`.as('n'))
        .where('description', 'like', '% card purchases')
        .executeTakeFirstOrThrow();
      assert.ok(Number(busy.n) > 100);
      assert.ok(northwind().counts.bankTransactions > 4_000, `${northwind().counts.bankTransactions} bank transactions`);
    });

    it('keeps the bank and ledger day totals equal to the rows after the demo', async () => {
      assert.ok((await bankTotalsMatch(store())) > 1_000);
      await dayTotalsMatch(store());
      await assertLineTotalsMatch(store());
    });

    it('keeps the bank day totals equal to the rows after imports, a re-import and a new account', async () => {
      const organisation = await orgRow();
      const current = await store()
        .db.selectFrom('bank_accounts')
        .selectAll()
        .where('organisation_id', '=', organisation.id)
        .where('is_default', '=', 1)
        .executeTakeFirstOrThrow();
      // days the demo already has rows on, and days it has none on
      const rows: [string, string, string][] = [
        ['2026-11-20', 'FP IN EXTRA CLIENT', '1250.00'],
        ['2026-11-20', 'CARD PAYMENT TO SHOP', '-12.34'],
        ['2026-11-21', 'ACCOUNT FEE', '-8.50'],
        ['2030-01-01', 'FUTURE DATED', '-1.00'],
      ];
      const first = await importStatement(store(), { organisation, account: current, fileName: 'a.csv', bytes: csv(rows) });
      assert.equal(first.new, 4);
      await bankTotalsMatch(store());
      const again = await importStatement(store(), { organisation, account: current, fileName: 'a.csv', bytes: csv(rows) });
      assert.equal(again.new, 0);
      await bankTotalsMatch(store());
      const created = await importStatement(store(), {
        organisation,
        account: { create: { name: 'Stored Totals Test', type: 'bank', currency: 'GBP' } },
        fileName: 'b.csv',
        bytes: csv([
          ['2026-10-01', 'OPENING', '100.00'],
          ['2026-10-01', 'SPEND', '-40.00'],
          ['2026-10-02', 'SPEND', '-10.01'],
        ]),
      });
      assert.equal(created.new, 3);
      // what the import reports is read from the totals: 100.00 - 40.00 - 10.01
      assert.equal(created.accountBalance, 4_999);
      assert.equal(created.accountTransactions, 3);
      await bankTotalsMatch(store());
      const stats = await bankAccountStats(store().db, organisation.id, [created.account.id]);
      assert.deepEqual(stats.get(created.account.id), { transactions: 3, toReconcile: 3, lastTransactionDate: '2026-10-02', balance: 4_999 });
    });

    it('reads the same banking period sums from the month and day totals as from the transactions', async () => {
      const db = store().db;
      const orgId = northwind().id;
      const accounts = await db.selectFrom('bank_accounts').selectAll().where('organisation_id', '=', orgId).execute();
      for (const [from, to] of [
        ['2026-08-22', '2026-11-21'],
        ['2025-04-01', '2026-03-31'],
        ['2024-09-01', '2024-09-30'],
        ['2026-11-21', '2026-11-21'],
      ] as const) {
        const sums = await periodSums(db, orgId, null, from, to);
        for (const account of accounts) {
          const direct = await sql<Totals>`
            select
              coalesce(sum(case when date < ${from} then amount else 0 end), 0) as opening,
              coalesce(sum(case when date >= ${from} and amount > 0 then amount else 0 end), 0) as money_in,
              coalesce(sum(case when date >= ${from} and amount < 0 then -amount else 0 end), 0) as money_out,
              coalesce(sum(case when date >= ${from} and home_amount > 0 then home_amount else 0 end), 0) as home_in,
              coalesce(sum(case when date >= ${from} then 1 else 0 end), 0) as transactions,
              coalesce(sum(case when date >= ${from} and status = 'reconciled' then 1 else 0 end), 0) as reconciled,
              count(*) as any_rows
            from bank_transactions where organisation_id = ${orgId} and bank_account_id = ${account.id} and date <= ${to}`.execute(db);
          const d = direct.rows[0]!;
          const s = sums.get(account.id);
          if (Number(d.any_rows) === 0) {
            assert.equal(s, undefined);
            continue;
          }
          assert.deepEqual(
            s && [s.openingAmount, s.inAmount, s.outAmount, s.inHome, s.transactions, s.reconciled],
            [d.opening, d.money_in, d.money_out, d.home_in, d.transactions, d.reconciled].map(Number),
            `${account.name} ${from}..${to}`,
          );
        }
      }
    });

    it('reads report ranges from monthly and day totals exactly as the lines sum them', async () => {
      const db = store().db;
      const orgId = northwind().id;
      const rng = new Random('stored-totals/ranges');
      const day = () => addDays('2024-08-20', rng.int(0, 840));
      const ranges: DateRange[] = [
        { to: DATE },
        { to: '2026-10-31' },
        { from: '2026-11-01', to: DATE },
        { from: '2025-11-01', to: '2025-11-21' },
        { from: '2026-04-01', to: DATE },
        { from: '2024-09-15', to: '2024-09-15' },
        { from: '2025-01-31', to: '2025-03-01' },
      ];
      for (let i = 0; i < 20; i++) {
        const a = day();
        const b = day();
        ranges.push(rng.chance(0.2) ? { to: a } : { from: a < b ? a : b, to: a < b ? b : a });
      }
      // a whole month, a partial head, a partial tail, and a range inside one month all occur
      assert.ok(ranges.some((r) => splitRange(r).months && splitRange(r).days.length === 2));
      // and ranges sharing no month (a P&L's comparisons), with months between them that none covers
      const disjoint: DateRange[] = ['2025-01', '2025-02', '2025-03', '2025-05', '2025-08', '2025-09'].map((m) => ({
        from: `${m}-01`,
        to: endOfMonth(`${m}-01`),
      }));
      disjoint.push({ from: '2025-11-15', to: '2026-01-20' }, { from: '2026-03-01', to: '2026-03-10' });
      const accounts = await db.selectFrom('acct_accounts').select('id').where('organisation_id', '=', orgId).execute();
      // an account asked for twice counts once
      const some = [...accounts.slice(0, 7).map((a) => a.id), accounts[0]!.id];
      for (const [set, subset] of [
        [ranges, undefined],
        [ranges, some],
        [disjoint, undefined],
        [disjoint, some],
      ] as const) {
        // whole months and partial months, however many ranges: one statement
        const counted = countingQueries(db);
        const totals = await readAccountTotals(counted.db, orgId, set, subset);
        assert.equal(counted.count(), 1);
        for (const [index, range] of set.entries()) {
          let q = db
            .selectFrom('acct_lines')
            .select(['account_id', sql<number>`sum(amount)`.as('amount')])
            .where('organisation_id', '=', orgId)
            .where('date', '<=', range.to)
            .groupBy('account_id');
          if (range.from !== undefined) q = q.where('date', '>=', range.from);
          if (subset) q = q.where('account_id', 'in', subset);
          const direct = new Map((await q.execute()).map((r) => [r.account_id, Number(r.amount)]));
          for (const [account, amount] of direct) assert.equal(totals.get(account)?.[index], amount, `${account} ${JSON.stringify(range)}`);
          for (const [account, amounts] of totals) assert.equal(amounts[index], direct.get(account) ?? 0, `${account} ${JSON.stringify(range)}`);
        }
      }
    });

    it("PostgreSQL: the totals of some accounts read each account's own rows from migration 036's indexes", async (t) => {
      if (store().dialect.name !== 'postgres') return t.skip('PostgreSQL only');
      // one connection, whose index use is flushed to the statistics and read back
      const one = openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: store().schema!, poolSize: 1 });
      try {
        const scans = async () => {
          // the named statements' session (store/pg-driver.ts) is the one that read the indexes
          await flushNamedSessionStats(one.db);
          const rows = await sql<{ index: string; scans: string }>`
            select indexrelname as index, idx_scan as scans from pg_stat_user_indexes
            where schemaname = current_schema() and relname in ('acct_month_totals', 'acct_day_totals')`.execute(one.db);
          return new Map(rows.rows.map((r) => [r.index, Number(r.scans)]));
        };
        const account = (
          await one.db.selectFrom('acct_month_totals').select('account_id').where('organisation_id', '=', northwind().id).executeTakeFirstOrThrow()
        ).account_id;
        const before = await scans();
        // a year's whole months and two partial months
        await readAccountTotals(one.db, northwind().id, [{ from: '2025-01-11', to: '2026-01-09' }], [account]);
        const after = await scans();
        const used = (index: string) => after.get(index)! - (before.get(index) ?? 0);
        assert.ok(used('acct_month_totals_account') >= 1, JSON.stringify([...after]));
        assert.ok(used('acct_day_totals_account') >= 1, JSON.stringify([...after]));
        assert.equal(used('acct_month_totals_month') + used('acct_day_totals_date'), 0, JSON.stringify([...after]));
      } finally {
        await one.close();
      }
    });

    it('reads the ledger totals from monthly line totals and partial months exactly as the lines sum them', async () => {
      const db = store().db;
      const orgId = northwind().id;
      const rng = new Random('stored-totals/lines');
      const accounts = await db.selectFrom('acct_accounts').select('id').where('organisation_id', '=', orgId).execute();
      const contacts = await db.selectFrom('acct_contacts').select('id').where('organisation_id', '=', orgId).execute();
      for (let i = 0; i < 40; i++) {
        const a = addDays('2024-08-20', rng.int(0, 840));
        const b = addDays(a, rng.int(0, i % 3 === 0 ? 400 : 70));
        const accountIds = [rng.pick(accounts).id, ...(rng.chance(0.3) ? [rng.pick(accounts).id] : [])];
        const types = rng.chance(0.5) ? [...LISTED_TYPES] : [...OTHER_TYPES, 'bill' as const];
        const contactIds = rng.chance(0.3) ? [rng.pick(contacts).id, ...(rng.chance(0.5) ? [''] : [])] : undefined;
        const query: LineQuery = { accountIds, from: a, to: b, types, ...(contactIds ? { contactIds } : {}) };
        for (const groupBy of ['none', 'supplier', 'month'] as const) {
          const key = groupBy === 'supplier' ? sql<string>`coalesce(contact_id, '')` : groupBy === 'month' ? sql<string>`substr(date, 1, 7)` : sql<string>`''`;
          let q = db
            .selectFrom('acct_lines')
            .select([key.as('key'), sql<number>`sum(amount)`.as('amount'), sql<number>`count(*)`.as('count')])
            .where('organisation_id', '=', orgId)
            .where('account_id', 'in', accountIds)
            .where('date', '>=', a)
            .where('date', '<=', b)
            .where('type', 'in', types);
          if (contactIds) q = q.where((eb) => eb.or([eb('contact_id', 'in', contactIds), ...(contactIds.includes('') ? [eb('contact_id', 'is', null)] : [])]));
          const direct = (await (groupBy === 'none' ? q : q.groupBy(key)).execute())
            .filter((r) => Number(r.count) > 0)
            .map((r) => `${r.key}=${Number(r.amount)}/${Number(r.count)}`)
            .sort();
          const read = (await readLineTotals(db, orgId, query, groupBy)).map((g) => `${g.key}=${g.amount}/${g.count}`).sort();
          assert.deepEqual(read, direct, `${groupBy} ${JSON.stringify(query)}`);
        }
      }
    });

    it('keys the stored line totals by type before the period, and migration 035 keeps every row when it rekeys them', async () => {
      const { db, dialect } = store();
      for (const [table, period] of [
        ['acct_month_line_totals', 'month'],
        ['acct_day_line_totals', 'date'],
      ] as const) {
        const keyColumns = async () =>
          dialect.name === 'sqlite'
            ? (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db)).rows.map(
                (r) => r.name,
              )
            : (
                await sql<{ column_name: string }>`select column_name from information_schema.key_column_usage
                  where table_schema = current_schema() and table_name = ${table} and constraint_name = ${`${table}_pk`} order by ordinal_position`.execute(db)
              ).rows.map((r) => r.column_name);
        const rows = async () =>
          (
            await sql<
              Record<string, unknown>
            >`select * from ${sql.table(table)} order by organisation_id, account_id, ${sql.ref(period)}, type, contact_key`.execute(db)
          ).rows.map((r) => JSON.stringify(r));
        assert.deepEqual(await keyColumns(), ['organisation_id', 'account_id', 'type', period, 'contact_key']);
        const before = await rows();
        assert.ok(before.length > 100, `${table}: ${before.length} rows`);
        await lineTotalsByType(db, dialect);
        assert.deepEqual(await rows(), before, table);
        assert.deepEqual(await keyColumns(), ['organisation_id', 'account_id', 'type', period, 'contact_key']);
      }
      await assertLineTotalsMatch(store());
    });
  },
  async (s) => {
    summaries.set(s, await generateDemo(s, { date: DATE, seed: 3, scale: 1, bankScale: 10 }));
  },
);
