/**
 * A bank page's search on PostgreSQL tests each line's document against the matching documents'
 * ids given as one array value (read beforehand, store/banking.ts transactionPage), not against a
 * subquery's array: a constant array is tested by a hash, a subquery's element by element for every
 * line walked (a common supplier's 3,052 documents over 13,537 lines: 126 ms against 16). SQLite
 * looks the supplier up by id for each line, as before.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { transactionPageQuery, type TransactionFilter } from '../../src/store/banking.js';
import { describeEachDialect } from '../helpers/store.js';

const filter: TransactionFilter = {
  organisationId: 'org_search_plan',
  accountIds: null,
  from: '2026-01-01',
  to: '2026-03-31',
  status: null,
  search: 'acme',
  amountMin: null,
  amountMax: null,
  amountColumn: 'home_amount',
};

describeEachDialect('the bank page search plan', (store) => {
  it('tests the line’s document against a value on PostgreSQL, by a lookup per line on SQLite', async () => {
    const s = store();
    const compiled = transactionPageQuery(s.db, filter, 'newest', 51, 0).compile();
    if (s.dialect.name === 'sqlite') {
      assert.match(compiled.sql, /exists \(select 1 as "one" from "documents"/, compiled.sql);
      return;
    }
    assert.doesNotMatch(compiled.sql, /array\(select/, compiled.sql);
    const parameters = compiled.parameters.map((p) => (p === '{}' ? '{"doc_a","doc_b"}' : p));
    const plan = (await s.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, parameters))).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    assert.doesNotMatch(plan, /InitPlan|SubPlan/, plan);
    assert.match(plan, /document_id = ANY \('\{doc_a,doc_b\}'::text\[\]\)/, plan);
  });
});
