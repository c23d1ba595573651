/**
 * The database's answer to a saved filter (store/bill-query.ts) against JavaScript's
 * (domain/bill-criteria.ts billMatcher and store/bills.ts comparePaymentOrder), over many random
 * bills and criteria, on both databases: the same bills, in the same order, with the same counts
 * and totals. The bills are made to hit the edges: suppliers differing only in case, spacing or
 * accents, tags with LIKE's wildcards, empty scheduled dates, due dates around today.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { Random } from '../../src/demo/random.js';
import { billMatcher, type BillCriteria, type MatchContext } from '../../src/domain/bill-criteria.js';
import { addDays } from '../../src/domain/dates.js';
import { provisionOrganisation } from '../../src/provision.js';
import { outstandingBillPage, outstandingBillTotals } from '../../src/store/bill-query.js';
import { billRow, comparePaymentOrder, toOutstandingBill, type OutstandingBill } from '../../src/store/bills.js';
import type { Store } from '../../src/store/db.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

const ORG = 'org_bill_query';
const NEIGHBOUR = 'org_bill_query_other';
const MATCH: MatchContext = { today: '2026-06-15', homeCurrency: 'GBP' };
const SUPPLIERS = [
  'Acme Ltd',
  'acme ltd',
  'ACME LTD',
  ' Acme Ltd ',
  'Ärzte GmbH',
  'ärzte gmbh',
  'Zeta_Co',
  'Zeta%Co',
  'Beta',
  'beta ',
  'Émile',
  'Émile',
  'Ω Omega',
];
const TAGS = ['office', 'Office', ' urgent ', 'travel', '50%_off', 'it', 'a,b', ''];
const CURRENCIES = ['GBP', 'EUR', 'USD'];

function randomBills(rng: Random, organisationId: string, n: number) {
  return Array.from({ length: n }, (_, i) =>
    billRow({
      id: `bill_${organisationId}_${String(i).padStart(3, '0')}`,
      organisation_id: organisationId,
      document_id: null,
      kind: rng.chance(0.2) ? 'expense_claim' : 'bill',
      supplier: rng.pick(SUPPLIERS),
      invoice_number: `N-${i}`,
      date: '2026-05-01',
      due_date: addDays(MATCH.today, rng.int(-10, 10)),
      scheduled_date: rng.pick([null, '', '2026-06-20']),
      tags: Array.from({ length: rng.int(0, 3) }, () => rng.pick(TAGS)).join(','),
      currency: rng.pick(CURRENCIES),
      original_amount: rng.int(1, 50_000),
      // some paid: never listed
      amount_due: rng.chance(0.15) ? 0 : rng.int(1, 50_000),
      latest_note: null,
      created_at: '2026-05-01T00:00:00.000Z',
    }),
  );
}

function randomCriteria(rng: Random): BillCriteria {
  const c: BillCriteria = {};
  if (rng.chance(0.3)) c.kinds = rng.chance(0.5) ? ['bill'] : ['expense_claim', 'bill'];
  if (rng.chance(0.3)) c.tagsAny = [rng.pick(['OFFICE', 'urgent', '50%_off', '50%', 'it', 'b', 'a,b', 'travel '])];
  if (rng.chance(0.3)) c.suppliers = [rng.pick(['acme ltd', ' ACME LTD', 'ÄRZTE GMBH', 'zeta_co', 'zeta%co', 'beta', 'émile'])];
  if (rng.chance(0.3)) c.dueWithinDays = rng.int(0, 7);
  if (rng.chance(0.3)) c.overdue = rng.chance(0.5);
  if (rng.chance(0.3)) c.scheduled = rng.chance(0.5);
  if (rng.chance(0.3)) c.foreignCurrency = rng.chance(0.5);
  if (rng.chance(0.3)) c.minAmountDue = rng.int(0, 40_000);
  return c;
}

const rng = new Random('bill-query');
const rows = randomBills(rng, ORG, 300);
const expectedAll = rows
  .filter((r) => r.amount_due > 0)
  .map(toOutstandingBill)
  .sort(comparePaymentOrder);

async function setup(store: Store): Promise<void> {
  await provisionOrganisation(store.db, { id: ORG, name: 'Bill Query Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await provisionOrganisation(store.db, { id: NEIGHBOUR, name: 'Neighbour Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await store.db.insertInto('bills').values(rows).execute();
  // another organisation's bills, every one matching everything: never in an answer
  await store.db
    .insertInto('bills')
    .values(randomBills(new Random('neighbour'), NEIGHBOUR, 50))
    .execute();
}

describeEachDialect(
  'outstanding bills in SQL equal the criteria in JavaScript',
  (store) => {
    it('every outstanding bill, in payment order, page by page', async () => {
      const seen: OutstandingBill[] = [];
      for (let offset = 0; offset < expectedAll.length + 40; offset += 40) {
        const page = await outstandingBillPage(store().db, ORG, null, MATCH, { offset, limit: 40 });
        assert.equal(page.count, expectedAll.length);
        assert.equal(
          page.amountDue,
          expectedAll.reduce((s, b) => s + b.amountDue, 0),
        );
        seen.push(...page.bills);
      }
      assert.deepEqual(seen, expectedAll);
    });

    it('200 random sets of criteria: the same bills, order, count and total', async () => {
      const criteria = Array.from({ length: 200 }, () => randomCriteria(new Random(`criteria-${rng.next()}`)));
      const totals = await outstandingBillTotals(store().db, ORG, criteria, MATCH);
      let nonEmpty = 0;
      for (const [i, c] of criteria.entries()) {
        const expected = expectedAll.filter(billMatcher(c, MATCH));
        if (expected.length) nonEmpty++;
        const amount = expected.reduce((s, b) => s + b.amountDue, 0);
        const page = await outstandingBillPage(store().db, ORG, c, MATCH, { offset: 0, limit: 500 });
        assert.deepEqual(page.bills, expected, JSON.stringify(c));
        assert.equal(page.count, expected.length, JSON.stringify(c));
        assert.equal(page.amountDue, amount, JSON.stringify(c));
        assert.deepEqual(totals[i], { count: expected.length, amountDue: amount }, JSON.stringify(c));
      }
      // the criteria are not all trivially empty or trivially everything
      assert.ok(nonEmpty > 50 && nonEmpty < 200, `${nonEmpty} of 200 criteria matched something`);
    });

    it('compiled once per shape (store/prepared.ts): another filter of the same shape builds nothing and answers its own bills', async () => {
      const counted = countingQueries(store().db);
      const dueSoon: BillCriteria = { kinds: ['bill'], dueWithinDays: 7 };
      const dueLater: BillCriteria = { kinds: ['expense_claim'], dueWithinDays: 60 };
      await outstandingBillPage(counted.db, ORG, dueSoon, MATCH, { offset: 0, limit: 500 });
      await outstandingBillTotals(counted.db, ORG, [dueSoon, {}], MATCH);
      const compiled = counted.compiled();
      const page = await outstandingBillPage(counted.db, ORG, dueLater, MATCH, { offset: 0, limit: 500 });
      const totals = await outstandingBillTotals(counted.db, ORG, [dueLater, {}], MATCH);
      assert.equal(counted.compiled() - compiled, 0);
      const expected = expectedAll.filter(billMatcher(dueLater, MATCH));
      assert.ok(expected.length > 0 && expected.length < expectedAll.length);
      assert.deepEqual(page.bills, expected);
      assert.deepEqual(totals[0], { count: expected.length, amountDue: expected.reduce((s, b) => s + b.amountDue, 0) });
      assert.equal(totals[1]!.count, expectedAll.length);
    });

    it('LIKE wildcards in a tag are literal, and a comma never matches half a tag', async () => {
      const exact = expectedAll.filter((b) =>
        b.tags
          .toLowerCase()
          .split(',')
          .some((t) => t.trim() === '50%_off'),
      );
      const page = await outstandingBillPage(store().db, ORG, { tagsAny: ['50%'] }, MATCH, { offset: 0, limit: 500 });
      assert.equal(page.count, 0);
      assert.ok(exact.length > 0);
      assert.equal((await outstandingBillPage(store().db, ORG, { tagsAny: ['50%_off'] }, MATCH, { offset: 0, limit: 500 })).count, exact.length);
      assert.equal((await outstandingBillPage(store().db, ORG, { tagsAny: ['a,b'] }, MATCH, { offset: 0, limit: 500 })).count, 0);
    });

    it("the saved filters' totals read only the outstanding bills' criteria index on SQLite, whatever a filter tests", async (t) => {
      if (store().dialect.name !== 'sqlite') return t.skip('PostgreSQL plans a table this small as one scan');
      const handle = store().db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result });
      const executor = handle.getExecutor();
      const sent: CompiledQuery[] = [];
      const execute = executor.executeQuery.bind(executor);
      (executor as { executeQuery: unknown }).executeQuery = (query: CompiledQuery) => (sent.push(query), execute(query));
      const every: BillCriteria = {
        kinds: ['bill'],
        tagsAny: ['office'],
        suppliers: ['acme ltd'],
        dueWithinDays: 3,
        overdue: true,
        scheduled: true,
        foreignCurrency: true,
        minAmountDue: 100,
      };
      const totals = await outstandingBillTotals(handle, ORG, [every, { overdue: false, scheduled: false, foreignCurrency: false }, {}], MATCH);
      assert.equal(totals[2]!.count, expectedAll.length);
      assert.equal(sent.length, 1);
      const plan = await store().db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${sent[0]!.sql}`, [...sent[0]!.parameters]));
      assert.deepEqual(
        plan.rows.map((r) => r.detail),
        ['SEARCH bills USING COVERING INDEX bills_outstanding_order_criteria (organisation_id=?)'],
      );
    });
  },
  setup,
);
