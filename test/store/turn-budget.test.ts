/**
 * Results handed back within a time budget per turn of the event loop (src/store/turn-budget.ts):
 * a burst of them, each followed by work of its request's own, lets the loop turn in between,
 * for the budget itself and for PostgreSQL's replies (the SQLite reader's answers:
 * test/store/sqlite-read-pool.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store/db.js';
import { inTurn } from '../../src/store/turn-budget.js';
import { busy, mostInOneTurn } from '../helpers/event-loop.js';
import { DIALECTS, openTestStore } from '../helpers/store.js';

describe('the turn budget', () => {
  it('hands back a burst in order, one 2 ms result a turn', async () => {
    const order: number[] = [];
    const most = await mostInOneTurn(
      (mark) =>
        new Promise<void>((done) => {
          for (let i = 0; i < 60; i++) {
            inTurn(() => {
              order.push(i);
              mark();
              busy(2);
              if (i === 59) done();
            });
          }
        }),
    );
    assert.deepEqual(
      order,
      Array.from({ length: 60 }, (_, i) => i),
    );
    // without the budget all sixty would run in one turn
    assert.ok(most <= 2, `${most} results were handed back in one turn`);
  });
});

if (DIALECTS.includes('postgres')) {
  describe('PostgreSQL replies within the turn budget', () => {
    let store: Store;
    before(async () => {
      store = await openTestStore('postgres');
    });
    after(() => store.close());

    it('lets the loop turn between replies that arrive together', async () => {
      const burst = (mark: () => void = () => {}) =>
        Promise.all(
          Array.from({ length: 60 }, () =>
            sql`select 1`.execute(store.db).then(() => {
              mark();
              busy(8);
            }),
          ),
        );
      await burst(); // the pool's connections opened
      // each reply's request does 8 ms of its own work; the pool's ten connections answer while it
      // runs, and handed back as they came several replies ran in one turn (the loop held 37 ms at
      // once); one a turn now. Counted, not timed: a loaded machine's scheduling cannot move it.
      const most = await mostInOneTurn(burst);
      assert.ok(most <= 2, `${most} replies were handed back in one turn`);
    });
  });
}
