/**
 * The documents published as a ledger page's transactions (store/documents-by-transaction.ts), for a
 * page of many ids among many documents: each transaction's document with its coded lines in order,
 * only the organisation's own, and on PostgreSQL read by the indexes (documents_org_txn,
 * document_coded_lines_doc) one id at a time, never by scanning the tables into a hash join, which
 * is how it planned the ids as an `in` list (docs/performance.md).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { provisionOrganisation } from '../../src/provision.js';
import type { Store } from '../../src/store/db.js';
import { documentsByTransaction, documentsByTransactionQuery } from '../../src/store/documents-by-transaction.js';
import { describeEachDialect } from '../helpers/store.js';

const ORG = 'org_docs_by_txn';
const OTHER = 'org_docs_by_txn_other';
const DOCUMENTS = 3000;
const CREATED = '2026-03-01T09:00:00.000Z';

/** Document i is published as txn_<i> (document 4 as an id that a text[] literal quotes and escapes); it has i % 3 coded lines, numbered from the last down. */
const transactionOf = (i: number) => (i === 4 ? 'txn_"4\\,{}' : `txn_${i}`);
const linesOf = (i: number) => i % 3;

async function setup(store: Store): Promise<void> {
  const db = store.db;
  for (const [id, name] of [
    [ORG, 'Documents Ltd'],
    [OTHER, 'Other Ltd'],
  ] as const) {
    await provisionOrganisation(db, { id, name, homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  }
  const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({
    id: `doc_${i}`,
    organisation_id: ORG,
    number: `B-${i}`,
    type: 'bill',
    supplier: `Supplier ${i % 40}`,
    date: '2026-02-01',
    due_date: null,
    currency: 'GBP',
    subtotal: 100 * i,
    tax: 0,
    total: 100 * i,
    accounting_transaction_id: transactionOf(i),
    published_at: CREATED,
    created_at: CREATED,
  }));
  // another organisation's document published as a transaction id that is also one of ours
  documents.push({ ...documents[1]!, id: 'doc_other', organisation_id: OTHER, number: 'X-1' });
  const lines = documents.flatMap((d, i) =>
    Array.from({ length: d.organisation_id === ORG ? linesOf(i) : 1 }, (_, k) => ({
      id: `dcl_${d.id}_${k}`,
      document_id: d.id,
      organisation_id: d.organisation_id,
      line_no: linesOf(i) - k,
      description: `line ${linesOf(i) - k} of ${d.id}`,
      account_id: null,
      account_name: 'Office',
      tax_code_id: null,
      class: null,
      customer: null,
      quantity: '1',
      subtotal: 10 * k,
      tax: 0,
      total: 10 * k,
    })),
  );
  for (let i = 0; i < documents.length; i += 500)
    await db
      .insertInto('documents')
      .values(documents.slice(i, i + 500))
      .execute();
  for (let i = 0; i < lines.length; i += 500)
    await db
      .insertInto('document_coded_lines')
      .values(lines.slice(i, i + 500))
      .execute();
  if (store.dialect.name === 'postgres') await sql`analyze documents, document_coded_lines`.execute(db);
  else await sql`analyze`.execute(db);
}

/** The documents a page of 1,000 lines' transactions finds: 600 of them, and document 1, whose transaction is also another organisation's document's. */
const FOUND = [...Array.from({ length: 600 }, (_, k) => 4 * k), 1];
/** That page: the 600, 400 transactions without a document, then one of the 600 again, document 1's and one that is no transaction. */
const PAGE = [
  ...Array.from({ length: 1000 }, (_, k) => (k < 600 ? transactionOf(4 * k) : `txn_${900_000 + k}`)),
  transactionOf(8),
  transactionOf(1),
  'txn_missing',
];

describeEachDialect(
  'the documents published as a page of transactions',
  (store) => {
    it("answers each transaction's own document with its coded lines in order, and on PostgreSQL reads them by their indexes", async () => {
      const s = store();
      const found = await documentsByTransaction(s.db, ORG, PAGE);
      assert.deepEqual([...found.keys()].sort(), FOUND.map(transactionOf).sort());
      for (const i of FOUND) {
        const doc = found.get(transactionOf(i))!;
        assert.deepEqual([doc.id, doc.number, doc.total], [`doc_${i}`, `B-${i}`, 100 * i]);
        assert.deepEqual(
          doc.lines.map((l) => l.description),
          Array.from({ length: linesOf(i) }, (_, k) => `line ${k + 1} of doc_${i}`),
        );
      }
      if (s.dialect.name !== 'postgres') return;
      // as the planner costs it by default (random_page_cost = 4), and with random reads costed higher still
      for (const randomPageCost of ['4', '10']) {
        const compiled = documentsByTransactionQuery(s.db, ORG, PAGE);
        const plan = await s.db.transaction().execute(async (trx) => {
          await sql`select set_config('random_page_cost', ${randomPageCost}, true)`.execute(trx);
          const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        });
        assert.match(plan, /Index Scan using documents_org_txn on documents/, plan);
        assert.match(plan, /Index Scan using document_coded_lines_doc on document_coded_lines/, plan);
        assert.doesNotMatch(plan, /Seq Scan|Hash Join/, plan);
      }
    });
  },
  setup,
);
