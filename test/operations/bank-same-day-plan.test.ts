/**
 * A filtered bank page's running balances read the rows' own days with a window over those days
 * (store/bank-running.ts, `window`): on PostgreSQL the days are one array in the account index's
 * condition, so only those days' lines are read; with `date in (select …)` the planner merge-joined
 * the days with every line of the account (464,655 read for 2,346 kept on the benchmark: 116 ms
 * against 7). SQLite keeps its `in (select …)`, which it reads by the same index.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { sameDayPlanQuery } from '../../src/store/bank-running.js';
import { describeEachDialect } from '../helpers/store.js';

describeEachDialect('the same-day window plan', (store) => {
  it('reads only the rows’ days from the account’s index on PostgreSQL', async () => {
    const s = store();
    const compiled = sameDayPlanQuery(s.db, 'org_same_day', 'bac_same_day', ['btx_1', 'btx_2', 'btx_3'], 'window');
    if (s.dialect.name === 'sqlite') {
      assert.match(compiled.sql, /"u"\."date" in \(select "p"\."date"/, compiled.sql);
      return;
    }
    const plan = await s.db.transaction().execute(async (trx) => {
      // an empty table is scanned whole; what is asked is how the statement can meet the days at all
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    // the days as one array tested on the account's lines (its index's condition once there are lines), not a join of the days with them
    assert.match(plan, /date = ANY \(\$\d+\)/, plan);
    assert.doesNotMatch(plan, /Join/, plan);
  });
});
