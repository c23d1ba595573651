import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { addDays } from '../../src/domain/dates.js';
import { matchesBill, parseBillCriteria, stringifyBillCriteria, type BillCriteria, type BillFacts } from '../../src/domain/bill-criteria.js';
import { billsListSavedFilters } from '../../src/operations/bills-list-saved-filters.js';
import { billsListToPay } from '../../src/operations/bills-list-to-pay.js';
import { provisionOrganisation } from '../../src/provision.js';
import { billRow } from '../../src/store/bills.js';
import type { Database } from '../../src/store/schema.js';
import { call, rejection } from '../helpers/call.js';
import { countingQueries, describeEachDialect } from '../helpers/store.js';

const TODAY = '2026-03-15';
const ORG = 'org_bills_gbp';
const OTHER = 'org_bills_usd';
const BROKEN = 'org_bills_broken';

// --- fixture builder: rows written straight to the tables, as an import would leave them ---

interface BillFixture {
  id: string;
  kind?: 'bill' | 'expense_claim';
  supplier: string;
  invoiceNumber: string;
  date: string;
  dueDate: string;
  scheduledDate?: string | null;
  tags?: string;
  currency: string;
  originalAmount: number;
  amountDue: number;
  latestNote?: string | null;
}

async function addBill(db: Kysely<Database>, organisationId: string, b: BillFixture): Promise<void> {
  await db
    .insertInto('bills')
    .values(
      billRow({
        id: b.id,
        organisation_id: organisationId,
        document_id: null,
        kind: b.kind ?? 'bill',
        supplier: b.supplier,
        invoice_number: b.invoiceNumber,
        date: b.date,
        due_date: b.dueDate,
        scheduled_date: b.scheduledDate ?? null,
        tags: b.tags ?? '',
        currency: b.currency,
        original_amount: b.originalAmount,
        amount_due: b.amountDue,
        latest_note: b.latestNote ?? null,
        created_at: '2026-03-01T00:00:00.000Z',
      }),
    )
    .execute();
}

async function addFilter(
  db: Kysely<Database>,
  organisationId: string,
  f: { id: string; name: string; description: string; criteria: BillCriteria | string; position: number },
): Promise<void> {
  const criteria = typeof f.criteria === 'string' ? f.criteria : stringifyBillCriteria(f.criteria);
  await db
    .insertInto('bill_filters')
    .values({ id: f.id, organisation_id: organisationId, name: f.name, description: f.description, criteria, position: f.position })
    .execute();
}

async function setup(store: { db: Kysely<Database> }): Promise<void> {
  const { db } = store;
  await provisionOrganisation(db, { id: ORG, name: 'Pounds Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
  await provisionOrganisation(db, { id: OTHER, name: 'Dollars Inc', homeCurrency: 'USD', timeZone: 'America/New_York', fyStartMonth: 1 });
  await provisionOrganisation(db, { id: BROKEN, name: 'Broken Filters', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });

  // inserted out of payment order on purpose
  await addBill(db, ORG, {
    id: 'bill_carol',
    kind: 'expense_claim',
    supplier: 'Carol Jones — Client visit Leeds',
    invoiceNumber: 'EXP-3',
    date: '2026-03-10',
    dueDate: '2026-03-31',
    currency: 'GBP',
    originalAmount: 4550,
    amountDue: 4550,
    latestNote: 'Receipts attached',
  });
  await addBill(db, ORG, {
    id: 'bill_borealis',
    supplier: 'Borealis GmbH',
    invoiceNumber: 'RE-77',
    date: '2026-03-01',
    dueDate: '2026-03-20',
    scheduledDate: '2026-03-19',
    tags: 'IT',
    currency: 'EUR',
    originalAmount: 50000,
    amountDue: 43210,
  });
  await addBill(db, ORG, {
    id: 'bill_acme',
    supplier: 'Acme Supplies',
    invoiceNumber: 'INV-1',
    date: '2026-02-01',
    dueDate: '2026-03-01',
    tags: 'Office, Urgent',
    currency: 'GBP',
    originalAmount: 12000,
    amountDue: 12000,
    latestNote: 'Chased twice',
  });
  await addBill(db, ORG, {
    id: 'bill_delta',
    supplier: 'Delta Ltd',
    invoiceNumber: 'D-9',
    date: '2026-03-05',
    dueDate: '2026-03-15',
    tags: ' urgent ,Travel',
    currency: 'USD',
    originalAmount: 100000,
    amountDue: 79999,
  });
  await addBill(db, ORG, {
    id: 'bill_paid',
    supplier: 'Paid Co',
    invoiceNumber: 'P-1',
    date: '2026-02-01',
    dueDate: '2026-03-02',
    tags: 'Urgent',
    currency: 'GBP',
    originalAmount: 5000,
    amountDue: 0,
  });
  await addBill(db, ORG, {
    id: 'bill_acme_ltd',
    supplier: 'acme ltd',
    invoiceNumber: 'AL-5',
    date: '2026-02-20',
    dueDate: '2026-03-01',
    tags: 'office',
    currency: 'GBP',
    originalAmount: 250,
    amountDue: 250,
  });
  await addBill(db, ORG, {
    id: 'bill_aardvark',
    supplier: 'Aardvark Ltd',
    invoiceNumber: 'AA-1',
    date: '2026-02-10',
    dueDate: '2026-03-01',
    tags: 'Office',
    currency: 'GBP',
    originalAmount: 1000,
    amountDue: 1000,
  });

  // positions deliberately not in insertion order
  const filters: { id: string; name: string; description: string; criteria: BillCriteria; position: number }[] = [
    { id: 'flt_everything', name: 'Everything', description: 'All outstanding', criteria: {}, position: 10 },
    { id: 'flt_soon', name: 'Due soon', description: 'Due within five days', criteria: { dueWithinDays: 5 }, position: 9 },
    { id: 'flt_overdue', name: 'Overdue', description: 'Bills past their due date', criteria: { overdue: true }, position: 1 },
    { id: 'flt_not_overdue', name: 'Not overdue', description: 'Bills due today or later', criteria: { overdue: false, kinds: ['bill'] }, position: 8 },
    {
      id: 'flt_week',
      name: 'Due this week',
      description: 'Due in the next 7 days and not yet scheduled',
      criteria: { dueWithinDays: 7, scheduled: false },
      position: 2,
    },
    { id: 'flt_foreign', name: 'Foreign currency', description: 'In a currency other than pounds', criteria: { foreignCurrency: true }, position: 3 },
    { id: 'flt_urgent', name: 'Urgent', description: 'Tagged urgent', criteria: { tagsAny: ['URGENT'] }, position: 4 },
    { id: 'flt_claims', name: 'Expense claims', description: 'Employee expense claims to reimburse', criteria: { kinds: ['expense_claim'] }, position: 5 },
    {
      id: 'flt_large',
      name: 'Large bills',
      description: 'Bills from Acme or Delta of 500 or more',
      criteria: { suppliers: ['acme supplies', 'DELTA LTD'], minAmountDue: 50000 },
      position: 6,
    },
    { id: 'flt_scheduled', name: 'Scheduled', description: 'Payments already scheduled', criteria: { scheduled: true }, position: 7 },
  ];
  for (const f of filters) await addFilter(db, ORG, f);

  await addBill(db, OTHER, {
    id: 'bill_zed',
    supplier: 'Zed Corp',
    invoiceNumber: 'Z-1',
    date: '2026-02-01',
    dueDate: '2026-03-01',
    tags: 'Urgent',
    currency: 'JPY',
    originalAmount: 150000,
    amountDue: 99999,
  });
  await addFilter(db, OTHER, { id: 'flt_other_overdue', name: 'Overdue', description: 'Late', criteria: { overdue: true }, position: 1 });

  await addFilter(db, BROKEN, { id: 'flt_broken', name: 'Typo', description: 'misspelt key', criteria: '{"tagAny":["x"]}', position: 1 });
}

// --- expected outputs ---

const AARDVARK = {
  supplier: 'Aardvark Ltd',
  invoiceNumber: 'AA-1',
  type: 'bill',
  date: '2026-02-10',
  dueDate: '2026-03-01',
  scheduledDate: null,
  tags: 'Office',
  currency: 'GBP',
  originalAmount: null,
  amountDue: 10,
  latestNote: null,
};
const ACME_LTD = {
  supplier: 'acme ltd',
  invoiceNumber: 'AL-5',
  type: 'bill',
  date: '2026-02-20',
  dueDate: '2026-03-01',
  scheduledDate: null,
  tags: 'office',
  currency: 'GBP',
  originalAmount: null,
  amountDue: 2.5,
  latestNote: null,
};
const ACME = {
  supplier: 'Acme Supplies',
  invoiceNumber: 'INV-1',
  type: 'bill',
  date: '2026-02-01',
  dueDate: '2026-03-01',
  scheduledDate: null,
  tags: 'Office, Urgent',
  currency: 'GBP',
  originalAmount: null,
  amountDue: 120,
  latestNote: 'Chased twice',
};
const DELTA = {
  supplier: 'Delta Ltd',
  invoiceNumber: 'D-9',
  type: 'bill',
  date: '2026-03-05',
  dueDate: '2026-03-15',
  scheduledDate: null,
  tags: ' urgent ,Travel',
  currency: 'USD',
  originalAmount: 1000,
  amountDue: 799.99,
  latestNote: null,
};
const BOREALIS = {
  supplier: 'Borealis GmbH',
  invoiceNumber: 'RE-77',
  type: 'bill',
  date: '2026-03-01',
  dueDate: '2026-03-20',
  scheduledDate: '2026-03-19',
  tags: 'IT',
  currency: 'EUR',
  originalAmount: 500,
  amountDue: 432.1,
  latestNote: null,
};
const CAROL = {
  supplier: 'Carol Jones — Client visit Leeds',
  invoiceNumber: 'EXP-3',
  type: 'expense_claim',
  date: '2026-03-10',
  dueDate: '2026-03-31',
  scheduledDate: null,
  tags: '',
  currency: 'GBP',
  originalAmount: null,
  amountDue: 45.5,
  latestNote: 'Receipts attached',
};

const SUMMARIES = [
  { id: 'flt_overdue', name: 'Overdue', description: 'Bills past their due date', count: 3, total: 132.5 },
  { id: 'flt_week', name: 'Due this week', description: 'Due in the next 7 days and not yet scheduled', count: 1, total: 799.99 },
  { id: 'flt_foreign', name: 'Foreign currency', description: 'In a currency other than pounds', count: 2, total: 1232.09 },
  { id: 'flt_urgent', name: 'Urgent', description: 'Tagged urgent', count: 2, total: 919.99 },
  { id: 'flt_claims', name: 'Expense claims', description: 'Employee expense claims to reimburse', count: 1, total: 45.5 },
  { id: 'flt_large', name: 'Large bills', description: 'Bills from Acme or Delta of 500 or more', count: 1, total: 799.99 },
  { id: 'flt_scheduled', name: 'Scheduled', description: 'Payments already scheduled', count: 1, total: 432.1 },
  { id: 'flt_not_overdue', name: 'Not overdue', description: 'Bills due today or later', count: 2, total: 1232.09 },
  { id: 'flt_soon', name: 'Due soon', description: 'Due within five days', count: 2, total: 1232.09 },
  { id: 'flt_everything', name: 'Everything', description: 'All outstanding', count: 6, total: 1410.09 },
];

/** candidates and note when the filter text chose one filter, or none was given */
/** the first page at the default size, every bill on it */
const FIRST_PAGE = { page: 1, pageSize: 100, hasMore: false };
const NO_CHOICE = { candidates: null, note: null, ...FIRST_PAGE };

const filterOf = (id: string) => {
  const s = SUMMARIES.find((f) => f.id === id)!;
  return { id: s.id, name: s.name, description: s.description };
};

describeEachDialect(
  'bills to pay and saved filters',
  (store) => {
    const listToPay = (input: Record<string, unknown>, text = false) => call(store(), billsListToPay, ORG, input, { today: TODAY, text });

    it('lists the saved filters in position order with counts and base-currency totals', async () => {
      const out = await call(store(), billsListSavedFilters, ORG, {}, { today: TODAY });
      assert.deepEqual(out, { baseCurrency: 'GBP', filters: SUMMARIES });
    });

    it('compiles its statements once (store/prepared.ts): the same bills call again builds nothing', async () => {
      const counted = countingQueries(store().db);
      const counting = { ...store(), db: counted.db };
      for (const [op, input] of [
        [billsListToPay, {}],
        [billsListToPay, { limit: 4, page: 2 }],
        [billsListSavedFilters, {}],
      ] as const) {
        const first = await call(counting, op, ORG, input, { today: TODAY });
        const [compiledBefore, ranBefore] = [counted.compiled(), counted.count()];
        assert.deepEqual(await call(counting, op, ORG, input, { today: TODAY }), first);
        assert.equal(counted.compiled() - compiledBefore, 0, `${op.name} ${JSON.stringify(input)}`);
        assert.ok(counted.count() - ranBefore >= 1, "each call still reads the organisation's row");
      }
    });

    it('keeps the saved filters and totals while the data stands: a new bill, a paid bill, a renamed filter, the next day are seen next', async () => {
      const KEPT = 'org_bills_kept';
      const { db } = store();
      await provisionOrganisation(db, { id: KEPT, name: 'Kept Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 4 });
      await addFilter(db, KEPT, { id: 'flt_kept_overdue', name: 'Overdue', description: '', criteria: { overdue: true }, position: 1 });
      const bill = { supplier: 'Kept Supplies', date: '2026-03-01', currency: 'GBP', originalAmount: 1000 };
      await addBill(db, KEPT, { ...bill, id: 'bill_kept_a', invoiceNumber: 'K-1', dueDate: '2026-03-10', amountDue: 1000 });
      await addBill(db, KEPT, { ...bill, id: 'bill_kept_b', invoiceNumber: 'K-2', dueDate: TODAY, amountDue: 250 });
      const counted = countingQueries(db);
      const counting = { ...store(), db: counted.db };
      const filters = async (today = TODAY) => (await call(counting, billsListSavedFilters, KEPT, {}, { today })).filters.map((f: any) => [f.count, f.total]);
      const everyBill = async (page: number) => {
        const out = await call(counting, billsListToPay, KEPT, { limit: 1, page }, { today: TODAY });
        return [out.count, out.total, out.bills.map((b: any) => b.invoiceNumber)];
      };

      assert.deepEqual(await filters(), [[1, 10]]);
      const ran = counted.count();
      assert.deepEqual(await filters(), [[1, 10]]);
      const again = counted.count() - ran;
      // the second list reads the organisation's row alone: neither the saved filters nor the bills' totals again
      assert.equal(again, ran - 2);
      assert.deepEqual(await everyBill(1), [2, 12.5, ['K-1']]);
      const firstPage = counted.count() - ran - again;
      assert.deepEqual(await everyBill(2), [2, 12.5, ['K-2']]);
      // the next page reads its bills, not the count and total of every one again
      assert.equal(counted.count() - ran - again - firstPage, firstPage - 1);

      await addBill(db, KEPT, { ...bill, id: 'bill_kept_c', invoiceNumber: 'K-3', dueDate: '2026-03-01', amountDue: 75 });
      assert.deepEqual(await filters(), [[2, 10.75]]);
      assert.deepEqual(await everyBill(2), [3, 13.25, ['K-1']]);
      await db.updateTable('bills').set({ amount_due: 0 }).where('id', '=', 'bill_kept_a').execute();
      assert.deepEqual(await filters(), [[1, 0.75]]);
      assert.deepEqual(await everyBill(1), [2, 3.25, ['K-3']]);
      await db.updateTable('bill_filters').set({ name: 'Late' }).where('id', '=', 'flt_kept_overdue').execute();
      assert.deepEqual((await call(counting, billsListToPay, KEPT, { filter: 'late' }, { today: TODAY })).filter?.name, 'Late');
      assert.deepEqual((await call(counting, billsListSavedFilters, KEPT, {}, { today: TODAY })).filters[0].name, 'Late');
      // the day after, the bill due today is overdue: counted under the new today, not the kept one
      assert.deepEqual(await filters(addDays(TODAY, 1)), [[2, 3.25]]);
      assert.deepEqual(await filters(), [[1, 0.75]]);
    });

    it('refuses any parameter to bills.list_saved_filters', async () => {
      const error = await rejection(() => call(store(), billsListSavedFilters, ORG, { filter: 'x' }, { today: TODAY }));
      assert.equal(error.status, 400);
      assert.deepEqual(error.errors, [{ parameter: 'filter', message: 'unknown parameter' }]);
    });

    it('lists every outstanding bill, ordered by due date then supplier, when no filter is given', async () => {
      const expected = { filter: null, count: 6, total: 1410.09, baseCurrency: 'GBP', bills: [AARDVARK, ACME_LTD, ACME, DELTA, BOREALIS, CAROL], ...NO_CHOICE };
      assert.deepEqual(await listToPay({}), expected);
      assert.deepEqual(await listToPay({ filter: '' }, true), expected);
      assert.deepEqual(await listToPay({ filter: '   ' }), expected);
    });

    it('pages with exact totals: count and total cover every bill, the page holds limit of them', async () => {
      const first = await listToPay({ limit: 4 });
      assert.deepEqual([first.count, first.total, first.page, first.pageSize, first.hasMore], [6, 1410.09, 1, 4, true]);
      assert.deepEqual(first.bills, [AARDVARK, ACME_LTD, ACME, DELTA]);
      const second = await listToPay({ limit: '4', page: '2' }, true);
      assert.deepEqual([second.count, second.total, second.page, second.hasMore], [6, 1410.09, 2, false]);
      assert.deepEqual(second.bills, [BOREALIS, CAROL]);
      const past = await listToPay({ limit: 4, page: 3 });
      assert.deepEqual([past.bills, past.count, past.hasMore], [[], 6, false]);
      const error = await rejection(() => listToPay({ limit: 0, page: 0 }));
      assert.deepEqual(error.errors.map((e: any) => e.parameter).sort(), ['limit', 'page']);
    });

    it('gives originalAmount for bills in a currency other than the base currency, null for the others', async () => {
      const out = await listToPay({});
      assert.ok(
        out.bills.every((b: object) => 'originalAmount' in b),
        'always present',
      );
      const withOriginal = out.bills.filter((b: { originalAmount: number | null }) => b.originalAmount !== null).map((b: { supplier: string }) => b.supplier);
      assert.deepEqual(withOriginal, ['Delta Ltd', 'Borealis GmbH']);
    });

    it('resolves a filter by exact name, case-insensitively, ahead of a word match', async () => {
      // "overdue" is also a word of "Not overdue": the exact name must win
      const expected = { filter: filterOf('flt_overdue'), count: 3, total: 132.5, baseCurrency: 'GBP', bills: [AARDVARK, ACME_LTD, ACME], ...NO_CHOICE };
      assert.deepEqual(await listToPay({ filter: 'OVERDUE' }), expected);
      assert.deepEqual(await listToPay({ filter: '  overdue ' }), expected);
    });

    it('resolves a filter by its id', async () => {
      assert.deepEqual(await listToPay({ filter: 'flt_foreign' }), {
        filter: filterOf('flt_foreign'),
        count: 2,
        total: 1232.09,
        baseCurrency: 'GBP',
        bills: [DELTA, BOREALIS],
        ...NO_CHOICE,
      });
    });

    it('resolves a filter by words of its name and description', async () => {
      assert.deepEqual(await listToPay({ filter: 'Reimburse employee' }), {
        filter: filterOf('flt_claims'),
        count: 1,
        total: 45.5,
        baseCurrency: 'GBP',
        bills: [CAROL],
        ...NO_CHOICE,
      });
    });

    it('answers an ambiguous filter with the candidates and a note, and no bills', async () => {
      assert.deepEqual(await listToPay({ filter: 'bills' }), {
        filter: null,
        count: 0,
        total: 0,
        baseCurrency: 'GBP',
        bills: [],
        candidates: SUMMARIES,
        ...FIRST_PAGE,
        note: 'Several saved filters match "bills" ("Overdue", "Large bills", "Not overdue"). Pick one of the candidates by name and pass it as filter.',
      });
    });

    it("answers an unknown filter, and another organisation's filter id, with the candidates and a note", async () => {
      for (const filter of ['holiday', 'flt_other_overdue']) {
        const out = await listToPay({ filter });
        assert.deepEqual(out, {
          filter: null,
          count: 0,
          total: 0,
          baseCurrency: 'GBP',
          bills: [],
          candidates: SUMMARIES,
          ...FIRST_PAGE,
          ...FIRST_PAGE,
          note:
            `No saved filter matches "${filter}". Pick one of the candidates by name and pass it as filter, or leave filter empty to list every ` +
            `outstanding bill.`,
        });
      }
    });

    it('applies each criteria key', async () => {
      const bills = async (filter: string) => (await listToPay({ filter })).bills.map((b: { invoiceNumber: string }) => b.invoiceNumber);
      assert.deepEqual(await bills('Due this week'), ['D-9']); // dueWithinDays 7 + scheduled false
      assert.deepEqual(await bills('Due soon'), ['D-9', 'RE-77']); // dueWithinDays 5: today and today+5 both in
      assert.deepEqual(await bills('Urgent'), ['INV-1', 'D-9']); // tagsAny, trimmed and case-insensitive; paid bill left out
      assert.deepEqual(await bills('Large bills'), ['D-9']); // suppliers + minAmountDue
      assert.deepEqual(await bills('Scheduled'), ['RE-77']);
      assert.deepEqual(await bills('Not overdue'), ['D-9', 'RE-77']); // overdue false + kinds bill
      assert.deepEqual(await bills('Expense claims'), ['EXP-3']);
      assert.deepEqual(await bills('Foreign currency'), ['D-9', 'RE-77']);
      assert.deepEqual(await bills('Everything'), ['AA-1', 'AL-5', 'INV-1', 'D-9', 'RE-77', 'EXP-3']);
    });

    it("keeps organisations apart and uses each one's base currency", async () => {
      const out = await call(store(), billsListToPay, OTHER, { filter: 'overdue' }, { today: TODAY });
      assert.deepEqual(out, {
        filter: { id: 'flt_other_overdue', name: 'Overdue', description: 'Late' },
        count: 1,
        total: 999.99,
        baseCurrency: 'USD',
        bills: [
          {
            supplier: 'Zed Corp',
            invoiceNumber: 'Z-1',
            type: 'bill',
            date: '2026-02-01',
            dueDate: '2026-03-01',
            scheduledDate: null,
            tags: 'Urgent',
            currency: 'JPY',
            originalAmount: 150000,
            amountDue: 999.99,
            latestNote: null,
          },
        ],
        ...NO_CHOICE,
      });
      // the GBP organisation's USD bill is foreign there; in the USD organisation a USD bill would not be
      const saved = await call(store(), billsListSavedFilters, OTHER, {}, { today: TODAY });
      assert.deepEqual(saved, { baseCurrency: 'USD', filters: [{ id: 'flt_other_overdue', name: 'Overdue', description: 'Late', count: 1, total: 999.99 }] });
    });

    it('refuses a filter text over 200 characters', async () => {
      const error = await rejection(() => listToPay({ filter: 'x'.repeat(201) }));
      assert.equal(error.status, 400);
      assert.equal(error.errors[0].parameter, 'filter');
    });

    it('fails loudly on stored criteria it cannot read instead of matching everything', async () => {
      const error = await rejection(() => call(store(), billsListSavedFilters, BROKEN, {}, { today: TODAY }));
      assert.match(error.message, /flt_broken.*tagAny/);
    });
  },
  setup,
);

describe('bill criteria', () => {
  const bill: BillFacts = {
    kind: 'bill',
    supplier: 'Acme Supplies',
    tags: 'Office, Urgent',
    dueDate: '2026-03-20',
    scheduledDate: null,
    currency: 'GBP',
    amountDue: 5000,
  };
  const ctx = { today: '2026-03-15', homeCurrency: 'GBP' };
  const matches = (criteria: BillCriteria, facts: Partial<BillFacts> = {}) => matchesBill(criteria, { ...bill, ...facts }, ctx);

  it('matches every bill with no criteria and requires every key given', () => {
    assert.equal(matches({}), true);
    assert.equal(matches({ kinds: ['bill'], tagsAny: ['urgent'] }), true);
    assert.equal(matches({ kinds: ['bill'], tagsAny: ['travel'] }), false);
  });

  it('bounds dueWithinDays by today and today + N, both included', () => {
    assert.equal(matches({ dueWithinDays: 5 }), true);
    assert.equal(matches({ dueWithinDays: 4 }), false);
    assert.equal(matches({ dueWithinDays: 0 }, { dueDate: '2026-03-15' }), true);
    assert.equal(matches({ dueWithinDays: 30 }, { dueDate: '2026-03-14' }), false);
  });

  it('reads overdue, scheduled, foreignCurrency and minAmountDue both ways', () => {
    assert.equal(matches({ overdue: true }, { dueDate: '2026-03-14' }), true);
    assert.equal(matches({ overdue: true }, { dueDate: '2026-03-15' }), false);
    assert.equal(matches({ overdue: false }, { dueDate: '2026-03-15' }), true);
    assert.equal(matches({ scheduled: true }, { scheduledDate: '2026-03-18' }), true);
    assert.equal(matches({ scheduled: false }, { scheduledDate: '2026-03-18' }), false);
    assert.equal(matches({ foreignCurrency: true }, { currency: 'EUR' }), true);
    assert.equal(matches({ foreignCurrency: false }, { currency: 'EUR' }), false);
    assert.equal(matches({ minAmountDue: 5000 }), true);
    assert.equal(matches({ minAmountDue: 5001 }), false);
  });

  it('compares suppliers exactly and tags by whole trimmed tag, both case-insensitive', () => {
    assert.equal(matches({ suppliers: ['ACME SUPPLIES'] }), true);
    assert.equal(matches({ suppliers: ['Acme'] }), false);
    assert.equal(matches({ tagsAny: ['urg'] }), false);
    assert.equal(matches({ tagsAny: [' office '] }), true);
  });

  it('refuses criteria it does not describe', () => {
    assert.throws(() => parseBillCriteria('{"tagAny":["x"]}'), /tagAny/);
    assert.throws(() => parseBillCriteria('{"dueWithinDays":-1}'), /dueWithinDays/);
    assert.throws(() => parseBillCriteria('{"kinds":["invoice"]}'), /kinds/);
    assert.throws(() => parseBillCriteria('not json'), /not JSON/);
    assert.deepEqual(parseBillCriteria('{"overdue":true,"minAmountDue":100}'), { overdue: true, minAmountDue: 100 });
  });

  it('reads the same text once: later reads share its criteria, frozen, and refused text is refused every time', () => {
    const text = '{"suppliers":["Acme"],"tagsAny":["rent"]}';
    const first = parseBillCriteria(text);
    assert.equal(parseBillCriteria(text), first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.suppliers) && Object.isFrozen(first.tagsAny));
    assert.throws(() => first.suppliers!.push('Other'), TypeError);
    assert.deepEqual(parseBillCriteria(text), { suppliers: ['Acme'], tagsAny: ['rent'] });
    for (let i = 0; i < 2; i++) assert.throws(() => parseBillCriteria('{"tagAny":["x"]}'), /tagAny/);
  });
});
