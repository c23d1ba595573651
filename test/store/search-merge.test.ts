/**
 * SQLite's trigram tables kept in few segments (store/search-merge.ts, migration 033): FTS5 takes
 * a level of two segments for a merge, and every write of bank lines or documents ends with a merge
 * step, so imports one after another leave a handful of segments where FTS5 alone leaves one more
 * for each few imports (each segment is a seek for every term a search looks up); a bulk load (the
 * demo) ends merged into one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { generateDemo } from '../../src/demo/generate.js';
import { insertDocument, type DocumentToStore } from '../../src/store/document-writes.js';
import { insertBankLines, statementLine } from '../../src/store/bank-lines.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';
import { DIALECTS, openTestStore, testBankAccount } from '../helpers/store.js';

const ORG = 'org_search_merge';
const ACCOUNT = 'bac_search_merge';
const TABLES = ['bank_narration_search', 'document_supplier_search'] as const;
/** Writes one after another, each its own transaction, as imports and uploads come in. */
const WRITES = 60;

/** The segments a trigram table's index holds (FTS5 keeps one row of `_idx` per segment and leaf page range). */
const segments = async (db: Kysely<Database>, table: string) =>
  Number((await sql<{ n: number }>`select count(distinct segid) as n from ${sql.table(`${table}_idx`)}`.execute(db)).rows[0]!.n);

const bill = (n: number): DocumentToStore => ({
  type: 'bill',
  number: `SM-${n}`,
  supplier: `Supplier number ${n} Ltd`,
  date: '2026-03-02',
  dueDate: null,
  currency: 'GBP',
  subtotal: 100,
  tax: 0,
  total: 100,
  codedLines: [],
  invoiceLines: [],
  file: null,
  bill: null,
});

const sqliteOnly = DIALECTS.includes('sqlite') ? describe : describe.skip;

sqliteOnly('the trigram tables kept in few segments [sqlite]', () => {
  let store: Store;
  before(async () => {
    store = await openTestStore('sqlite');
    const db = store.db;
    await provisionOrganisation(db, { id: ORG, name: 'Search Merge Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
    await db
      .insertInto('bank_accounts')
      .values(testBankAccount(ACCOUNT, ORG, { name: 'Current', is_default: 1 }))
      .execute();
  });
  after(async () => {
    await store.close();
  });

  it('has FTS5 merge any level of two segments (usermerge 2, migration 033)', async () => {
    for (const table of TABLES) {
      const config = await sql<{ v: number }>`select v from ${sql.table(`${table}_config`)} where k = 'usermerge'`.execute(store.db);
      assert.equal(Number(config.rows[0]?.v), 2, table);
    }
  });

  it('keeps the narrations in few segments as imports of bank lines come in', async () => {
    for (let i = 0; i < WRITES; i++) {
      const lines = Array.from({ length: 20 }, (_, k) =>
        statementLine({
          id: `btx_sm_${i}_${k}`,
          organisationId: ORG,
          bankAccountId: ACCOUNT,
          date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + k).padStart(2, '0')}`,
          description: `CARD PAYMENT TO MERCHANT ${i} BRANCH ${k}`,
          amount: -100 - k,
        }),
      );
      await insertBankLines(store.db, lines);
    }
    // FTS5 alone (automerge, four a level) leaves 15 here; the merge steps leave 4
    assert.ok((await segments(store.db, 'bank_narration_search')) <= 4, `${await segments(store.db, 'bank_narration_search')} segments`);
  });

  it('keeps the suppliers in few segments as documents come in one by one', async () => {
    for (let i = 0; i < WRITES; i++) await insertDocument(store.db, ORG, bill(i), 'test', async (_trx, id) => id);
    // FTS5 alone leaves 15 here too
    assert.ok((await segments(store.db, 'document_supplier_search')) <= 4, `${await segments(store.db, 'document_supplier_search')} segments`);
  });

  it('ends a bulk load (the demo) with each table in one segment', async () => {
    const demoStore = await openTestStore('sqlite');
    try {
      await generateDemo(demoStore, { date: '2026-11-21', seed: 3, scale: 1 });
      for (const table of TABLES) assert.equal(await segments(demoStore.db, table), 1, table);
    } finally {
      await demoStore.close();
    }
  });
});
