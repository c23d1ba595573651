/**
 * The ledger list's pages (BuiltinAccounting.lines) on an account that is mostly invoices and
 * journals, whose listed lines (LISTED_TYPES) are few among them: every page of the listed lines
 * and of the others comes in the one order (newest, then transaction descending, then line
 * ascending) on both databases, and the listed lines' page, first or later, is read from their
 * partial index (migrations 025 and 028), which the statement's literal types let the planner use.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { BuiltinAccounting, linesPageQuery } from '../../src/accounting/builtin/reader.js';
import { LISTED_TYPES, OTHER_TYPES, type LineQuery } from '../../src/accounting/types.js';
import { addDays } from '../../src/domain/dates.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { describeEachDialect } from '../helpers/store.js';

const ORG = 'org_listed';
const ACCOUNT = 'acc_listed_ar';
const FIRST_DAY = '2026-01-01';

/** A seeded sequence, so both databases get the same rows. */
function randoms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

interface Line {
  transaction_id: string;
  line_no: number;
  date: string;
  type: string;
}

/** 400 transactions over 60 days, ids out of date order, two or three lines each on the account; one in five of a listed type. */
function lines(): Line[] {
  const next = randoms(43);
  const out: Line[] = [];
  for (let i = 0; i < 400; i++) {
    const id = `txn_${Math.floor(next() * 1e9)
      .toString(36)
      .padStart(6, '0')}_${i}`;
    const date = addDays(FIRST_DAY, Math.floor(next() * 60));
    const type = next() < 0.2 ? LISTED_TYPES[i % LISTED_TYPES.length]! : OTHER_TYPES[i % OTHER_TYPES.length]!;
    const count = next() < 0.5 ? 2 : 3;
    for (let n = 1; n <= count; n++) out.push({ transaction_id: id, line_no: n, date, type });
  }
  return out;
}

const LINES = lines();

async function setup(store: Store): Promise<void> {
  const db = store.db;
  await provisionOrganisation(db, { id: ORG, name: 'Listed Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  await db
    .insertInto('acct_accounts')
    .values({
      id: ACCOUNT,
      organisation_id: ORG,
      parent_id: null,
      name: 'Receivables',
      full_name: 'Receivables',
      number: '1100',
      type: 'Accounts Receivable',
      classification: 'Asset',
      active: 1,
    })
    .execute();
  const transactions = [...new Map(LINES.map((l) => [l.transaction_id, l])).values()];
  for (let k = 0; k < transactions.length; k += 100) {
    await db
      .insertInto('acct_transactions')
      .values(
        transactions.slice(k, k + 100).map((t) => ({
          id: t.transaction_id,
          organisation_id: ORG,
          type: t.type,
          number: null,
          date: t.date,
          contact_id: null,
          description: `Transaction ${t.transaction_id}`,
          currency: 'GBP',
          exchange_rate: '1',
          created_at: '2026-01-01T00:00:00Z',
        })),
      )
      .execute();
  }
  for (let k = 0; k < LINES.length; k += 100) {
    await db
      .insertInto('acct_lines')
      .values(
        LINES.slice(k, k + 100).map((l) => ({
          id: `lin_${l.transaction_id}_${l.line_no}`,
          organisation_id: ORG,
          transaction_id: l.transaction_id,
          line_no: l.line_no,
          account_id: ACCOUNT,
          date: l.date,
          type: l.type,
          contact_id: null,
          description: `Line ${l.line_no}`,
          amount: l.line_no * 100,
          amount_in_currency: l.line_no * 100,
          currency: 'GBP',
        })),
      )
      .execute();
  }
  // statistics as a database with history has them
  await sql`analyze`.execute(db);
}

const query = (types: readonly string[]): LineQuery => ({
  accountIds: [ACCOUNT],
  from: addDays(FIRST_DAY, 5),
  to: addDays(FIRST_DAY, 50),
  types: [...types] as LineQuery['types'],
});

/** The lines a query should list, in the list's order. */
function expected(q: LineQuery): string[] {
  return LINES.filter((l) => (q.types as readonly string[]).includes(l.type) && l.date >= q.from && l.date <= q.to)
    .sort((a, b) =>
      a.date !== b.date
        ? a.date < b.date
          ? 1
          : -1
        : a.transaction_id !== b.transaction_id
          ? a.transaction_id < b.transaction_id
            ? 1
            : -1
          : a.line_no - b.line_no,
    )
    .map((l) => `${l.transaction_id}/${l.line_no}`);
}

describeEachDialect(
  'the ledger list on an account of few listed lines',
  (store) => {
    it('pages every listed line, and every other line, in the one order', async () => {
      const books = new BuiltinAccounting(store().db, ORG);
      for (const types of [LISTED_TYPES, OTHER_TYPES]) {
        const q = query(types);
        const want = expected(q);
        assert.ok(want.length > 40, `enough lines to page through (${want.length})`);
        const got: string[] = [];
        for (let offset = 0; offset <= want.length; offset += 17) {
          got.push(...(await books.lines(q, 17, offset)).map((l) => `${l.transactionId}/${l.lineNo}`));
        }
        assert.deepEqual(got, want);
      }
    });

    it('reads a page of the listed lines, first or later, from their partial index', async () => {
      const s = store();
      for (const offset of [0, 34]) {
        const compiled = linesPageQuery(s.db, ORG, query(LISTED_TYPES), 17, offset);
        if (s.dialect.name === 'sqlite') {
          const rows = await s.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
          const plan = rows.rows.map((r) => r.detail).join('\n');
          assert.match(plan, /SEARCH l USING (COVERING )?INDEX acct_lines_listed_page \(organisation_id=\? AND account_id=\? AND date>\? AND date<\?\)/, plan);
          // in the page's order, no sort of the lines walked (a later page sorts its own few rows once read)
          if (offset === 0) assert.doesNotMatch(plan, /USE TEMP B-TREE FOR ORDER BY/, plan);
          // a later page finds its lines again by the rowid the index carries, not by their text id's own index
          else assert.match(plan, /SEARCH l USING INTEGER PRIMARY KEY \(rowid=\?\)/, plan);
          continue;
        }
        const plan = await s.db.transaction().execute(async (trx) => {
          // a few hundred lines are few enough for a table scan to win; what is asked is which index serves the statement
          await sql`set local enable_seqscan = off`.execute(trx);
          const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        assert.match(plan, /\bacct_lines_listed_page\b/, plan);
        // the index holds every column the page shows (migration 034): no line is found again by its id
        assert.doesNotMatch(plan, /\bacct_lines_pkey\b/, plan);
      }
    });
  },
  setup,
);
